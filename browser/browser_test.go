// Package browser checks ivc's HTML report and SVG drawings in a real
// browser: headless Chromium driven by chromedp. It is a module of its own,
// so that chromedp stays out of ivc's dependencies; it skips, saying so,
// when Chromium is absent (Debian: apt-get install chromium).
package browser

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/draw"
	"github.com/ivc-project/ivc/internal/report"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// chromium finds the browser, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("IVC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("Chromium is absent (apt-get install chromium, or set IVC_CHROMIUM): the browser tests are skipped")
	return ""
}

// browser starts headless Chromium and returns a context for it, and the
// errors its pages report: console errors, uncaught exceptions, failed
// loads (the browser log's errors).
func browser(t *testing.T, exe string) (context.Context, func() []string) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // root in CI containers
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 1000),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	var mu sync.Mutex
	var errs []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				errs = append(errs, fmt.Sprintf("%s %s:%d: %s", m.Type, m.URL, m.Line+1, m.Text))
				mu.Unlock()
			}
		}
	}()
	return ctx, func() []string {
		time.Sleep(200 * time.Millisecond) // let the last messages arrive
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), errs...)
	}
}

// shots is where screenshots go: a directory that outlives the test, so
// that a person can look at them.
var shots = sync.OnceValue(func() string {
	dir, err := os.MkdirTemp("", "ivc-browser-")
	if err != nil {
		panic(err)
	}
	return dir
})

// screenshot saves what the window shows, or with full the whole page.
func screenshot(t *testing.T, ctx context.Context, name string, full bool) {
	t.Helper()
	shot := chromedp.CaptureScreenshot()
	if full {
		shot = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(shots(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// ivc builds the ivc command of the enclosing module into dir.
func ivc(t *testing.T, dir string) string {
	t.Helper()
	exe := filepath.Join(dir, "ivc")
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/ivc")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/ivc: %v\n%s", err, out)
	}
	return exe
}

// run runs ivc and returns its stdout; status is the exit status wanted.
func run(t *testing.T, exe string, status int, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if got != status {
		t.Fatalf("ivc %s: exit status %d, want %d\n%s", strings.Join(args, " "), got, status, stderr.String())
	}
	return stdout.String()
}

// TestReport: a report of about 300 sessions (two logs ivc gen writes)
// loads from file:// with no console error; its table shows a page of 100
// rows of them all, filters, pages and sorts; its failure drawings are
// loaded images, as many as the report says it drew.
func TestReport(t *testing.T) {
	exe := chromium(t)
	dir := t.TempDir()
	bin := ivc(t, dir)
	hsf, hif := "../testdata/lfrem/signature.hsf", "../testdata/lfrem/i1.hif"
	run(t, bin, 0, "gen", hsf, hif, "--kind", "accepted", "-n", "200", "--log-format", "jsonl", "-o", filepath.Join(dir, "ok"))
	run(t, bin, 0, "gen", hsf, hif, "--kind", "noise", "-n", "100", "--log-format", "jsonl", "-o", filepath.Join(dir, "noise"))
	report := filepath.Join(dir, "report.html")
	// The two logs reuse session ids (each numbers its own from 0): judged
	// per file, as the sessions of two separate runs.
	out := run(t, bin, 1, "analyze", "--format", "json", "--session-scope", "file", "--report", report, hsf, hif,
		filepath.Join(dir, "ok", "accepted.jsonl"), filepath.Join(dir, "noise", "noise.jsonl"))
	// Sessions with no event are not in a log: fewer rows than sessions.
	rows := strings.Count(out, "\n")
	fails := strings.Count(out, `"verdict":"Fail"`)
	if rows <= 200 || fails == 0 {
		t.Fatalf("%d rows, %d failures: want more than 200 rows, some failures", rows, fails)
	}
	drawn := min(fails, 50)

	ctx, errs := browser(t, exe)
	if err := chromedp.Do(ctx,
		chromedp.Navigate("file://"+report),
		chromedp.WaitVisible(chromedp.CSS("#table tbody tr")),
	); err != nil {
		t.Fatal(err)
	}
	shown := eval[int](t, ctx, `Number(document.querySelector("#table tbody").dataset.shown)`)
	pageRows := eval[int](t, ctx, `document.querySelectorAll("#table tbody tr").length`)
	count := eval[string](t, ctx, `document.querySelector("#count").textContent`)
	drawnText := eval[string](t, ctx, `document.querySelector("#drawn").textContent`)
	images := eval[int](t, ctx, `document.querySelectorAll("figure.drawing img").length`)
	loaded := eval[int](t, ctx, `Array.from(document.querySelectorAll("figure.drawing img")).filter(i => i.complete && i.naturalWidth > 0).length`)
	screenshot(t, ctx, "report", false)
	if want := fmt.Sprintf("rows 1–100 of %d", rows); shown != rows || pageRows != 100 || count != want {
		t.Errorf("the table shows %d rows of %d (%q), want 100 of %d (%q)", pageRows, shown, count, rows, want)
	}
	// Each row has its count of ignored events (these logs have none).
	if cells := eval[string](t, ctx, `Array.from(document.querySelectorAll("#table tbody tr:first-child td")).map(td => td.textContent).slice(5, 6).join()`); cells != "0" {
		t.Errorf("the first row's ignored events: %q, want 0", cells)
	}
	if images != drawn || loaded != drawn {
		t.Errorf("%d failure drawings, %d loaded, want %d", images, loaded, drawn)
	}
	if want := fmt.Sprintf("%d of %d failures drawn", drawn, fails); !strings.HasPrefix(drawnText, want) {
		t.Errorf("the report says %q, want %q", drawnText, want)
	}

	// Filter the failures, page, sort by verdict, follow a drawing's link.
	choose := func(v string) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.SetValue(chromedp.CSS("#verdict"), v),
			chromedp.Evaluate[chromedp.Void](`document.querySelector("#verdict").dispatchEvent(new Event("change"))`),
		); err != nil {
			t.Fatal(err)
		}
	}
	choose("Fail")
	if n := eval[int](t, ctx, `Number(document.querySelector("#table tbody").dataset.shown)`); n != fails {
		t.Errorf("filtering Fail shows %d rows, want %d", n, fails)
	}
	choose("")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#next")), chromedp.Click(chromedp.CSS("#next"))); err != nil {
		t.Fatal(err)
	}
	if n, want := eval[int](t, ctx, `document.querySelectorAll("#table tbody tr").length`), min(100, rows-200); n != want {
		t.Errorf("page 3 of %d rows has %d rows, want %d", rows, n, want)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#table th[data-key="verdict"]`))); err != nil {
		t.Fatal(err)
	}
	if v := eval[string](t, ctx, `document.querySelector("#table tbody tr td:nth-child(4)").textContent`); v != "Fail" {
		t.Errorf("sorted by verdict, the first row is a %q", v)
	}
	choose("Fail")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#table tbody tr a[href^="#drawing-"]`))); err != nil {
		t.Fatal(err)
	}
	if target := eval[string](t, ctx, `location.hash`); !regexp.MustCompile(`^#drawing-\d+$`).MatchString(target) {
		t.Errorf("a failure's link goes to %q", target)
	}
	screenshot(t, ctx, "report-failure", false)
	if e := errs(); len(e) > 0 {
		t.Errorf("errors in the page:\n%s", strings.Join(e, "\n"))
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TestDrawings: drawings made by the library (an interaction, a Fail and a
// slice) load as SVG documents from file:// with no error, and Chromium
// lays their text out no wider than the layout assumed: no label overlaps
// another in the browser either.
func TestDrawings(t *testing.T) {
	exe := chromium(t)
	dir := t.TempDir()
	abp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"abp.svg": draw.InteractionSVG(abp.Sig, abp.Syntax, draw.Options{Title: "abp"})}
	for _, r := range []struct{ name, hsf, hif, htf string }{
		{"fail", "../testdata/lfrem/signature.hsf", "../testdata/lfrem/i1.hif", "../testdata/lfrem/i1_noise/trace103s1_noise.htf"},
		{"slice", "../testdata/slice/i0.hsf", "", "../testdata/slice/late.htf"},
	} {
		sp, err := spec.Load(r.hsf, r.hif)
		if err != nil {
			t.Fatal(err)
		}
		mt, err := multitrace.Read(r.htf, sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		opts := check.DefaultOptions()
		opts.Engine, opts.Mode = check.EngineRuntime, verdict.Slice
		an, err := check.New(sp, opts)
		if err != nil {
			t.Fatal(err)
		}
		res := an.Check(mt)
		w, _ := an.Witness(mt, res.Mode)
		if res.Verdict == verdict.Fail {
			w, _ = an.Witness(draw.Consumed(mt, res.Explanation), verdict.Prefix)
		}
		files[r.name+".svg"] = draw.MultiTraceSVG(draw.Run{Sig: sp.Sig, Syntax: sp.Syntax, MT: mt, Result: res, Witness: w}, draw.Options{Title: r.name})
	}
	ctx, errs := browser(t, exe)
	for _, name := range []string{"abp.svg", "fail.svg", "slice.svg"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path), chromedp.WaitReady(chromedp.CSS("svg"))); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		root := eval[string](t, ctx, `document.documentElement.tagName`)
		// The boxes Chromium gives the labels, pairwise apart.
		overlaps := eval[[]string](t, ctx, `(() => {
			const boxes = Array.from(document.querySelectorAll("text")).map(t => [t.textContent, t.getBBox()]);
			const out = [];
			for (let i = 0; i < boxes.length; i++)
				for (let j = 0; j < i; j++) {
					const [s, a] = boxes[i], [u, b] = boxes[j];
					if (a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5)
						out.push(s + " / " + u);
				}
			return out;
		})()`)
		stuck := eval[int](t, ctx, `document.querySelectorAll(".stuck").length`)
		if root != "svg" {
			t.Errorf("%s: the document is a %q", name, root)
		}
		if len(overlaps) > 0 {
			t.Errorf("%s: labels overlap in Chromium: %v", name, overlaps)
		}
		if name == "fail.svg" && stuck == 0 {
			t.Errorf("%s: no event where the analysis got stuck", name)
		}
		screenshot(t, ctx, strings.TrimSuffix(name, ".svg"), true)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("errors in the drawings:\n%s", strings.Join(e, "\n"))
	}
}

// TestLargeReport: a report of 100,000 sessions (written by the library)
// loads, pages and filters in the browser within seconds.
func TestLargeReport(t *testing.T) {
	exe := chromium(t)
	r := &report.Report{Title: "100,000 sessions", Spec: "spec.hsf", Mode: "prefix", Engine: "automata"}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c62828"/></svg>`)
	for i := range 100_000 {
		row := report.Row{File: fmt.Sprintf("logs/day%d.jsonl", i/10_000), Session: fmt.Sprintf("s%06d", i), Verdict: "Pass", Drawing: -1,
			Elapsed: time.Duration(i%997) * time.Microsecond}
		if i%100 == 7 {
			row.Verdict, row.Kind, row.Reason = "Fail", "LocalError", "LocalError: [a] cannot read event 3 (a!m), expected a?n"
			if len(r.Drawings) < report.DefaultMaxDrawings {
				row.Drawing = len(r.Drawings)
				r.Drawings = append(r.Drawings, svg)
			} else {
				r.Undrawn++
			}
		}
		r.Rows = append(r.Rows, row)
	}
	path := filepath.Join(t.TempDir(), "large.html")
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, errs := browser(t, exe)
	t0 := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path), chromedp.WaitVisible(chromedp.CSS("#table tbody tr"))); err != nil {
		t.Fatal(err)
	}
	load := time.Since(t0)
	if c := eval[string](t, ctx, `document.querySelector("#count").textContent`); c != "rows 1–100 of 100000" {
		t.Errorf("the table says %q", c)
	}
	t0 = time.Now()
	fails := eval[int](t, ctx, `(() => {
		const v = document.querySelector("#verdict");
		v.value = "Fail";
		v.dispatchEvent(new Event("change"));
		return Number(document.querySelector("#table tbody").dataset.shown);
	})()`)
	filter := time.Since(t0)
	if fails != 1000 {
		t.Errorf("filtering Fail shows %d rows, want 1000", fails)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("figure.drawing img").length`); n != report.DefaultMaxDrawings {
		t.Errorf("%d drawings", n)
	}
	t.Logf("%d bytes; loaded in %v, filtered in %v", b.Len(), load, filter)
	if load > 20*time.Second || filter > 5*time.Second {
		t.Errorf("too slow to use: loaded in %v, filtered in %v", load, filter)
	}
	screenshot(t, ctx, "report-large", false)
	if e := errs(); len(e) > 0 {
		t.Errorf("errors in the page:\n%s", strings.Join(e, "\n"))
	}
}
