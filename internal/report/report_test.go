package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/testutil"
)

func sample(n, failures, drawn int) *Report {
	r := &Report{Title: "ivc analyze spec.hsf traces/", Spec: "spec.hsf", Mode: "prefix", Engine: "runtime", Elapsed: 1500 * time.Millisecond}
	for i := range n {
		row := Row{File: fmt.Sprintf("traces/t%d.htf", i%7), Session: fmt.Sprint(i), Verdict: "Pass", Elapsed: time.Duration(i) * time.Microsecond, Drawing: -1,
			Nodes: 10 + i, LocalNodes: i % 2}
		if i < failures {
			row.Verdict, row.Kind, row.Reason = "Fail", "LocalError", fmt.Sprintf("LocalError: [a] cannot read event %d </script><b>", i)
			if i < drawn {
				row.Drawing = len(r.Drawings)
				r.Drawings = append(r.Drawings, []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>`))
			} else {
				r.Undrawn++
			}
		}
		r.Rows = append(r.Rows, row)
	}
	return r
}

// rowsOf extracts the JSON rows of a report.
func rowsOf(t *testing.T, page string) (files []string, rows [][]any) {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="rows">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no rows")
	}
	var data struct {
		Files []string
		Rows  [][]any
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatalf("rows: %v", err)
	}
	return data.Files, data.Rows
}

func TestWriteHTML(t *testing.T) {
	var b bytes.Buffer
	if err := sample(10, 3, 2).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<!DOCTYPE html>",
		`<div class="card pass" data-verdict="Pass"><span class="n">7</span> Pass <span class="pct">70.0%</span></div>`,
		`<div class="card fail" data-verdict="Fail"><span class="n">3</span> Fail`,
		`<tr><td><span class="v fail">Fail</span></td><td>LocalError</td><td class="num">3</td></tr>`,
		`<tr><td><span class="v pass">Pass</span></td><td>—</td><td class="num">7</td></tr>`,
		`2 of 3 failures drawn: the first 2 only, 1 more are not drawn.`,
		`<figure id="drawing-1" class="drawing">`,
		`src="data:image/svg&#43;xml;base64,`, // html/template escapes the +
		"in 1.5s.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the report has no %q", want)
		}
	}
	// Nothing but the page itself: no external resource.
	if m := regexp.MustCompile(`(?i)(src|href)="(https?:|//|[a-z]+\.(js|css))`).FindString(page); m != "" {
		t.Errorf("external resource %s", m)
	}
	// The data cannot close its script element.
	if strings.Count(page, "</script>") != 2 {
		t.Errorf("%d </script>", strings.Count(page, "</script>"))
	}
	files, rows := rowsOf(t, page)
	if len(files) != 7 || len(rows) != 10 {
		t.Fatalf("%d files, %d rows", len(files), len(rows))
	}
	if r := rows[1]; files[int(r[0].(float64))] != "traces/t1.htf" || r[2] != "Fail" || r[4] != "LocalError: [a] cannot read event 1 </script><b>" || r[6] != 1.0 {
		t.Errorf("row 2: %v", r)
	}
	if r := rows[2]; r[6] != -1.0 {
		t.Errorf("an undrawn failure has drawing %v", r[6])
	}
	// Each row has its cost: the vertices explored, and those of local
	// analyses among them.
	if r := rows[3]; r[10] != 13.0 || r[11] != 1.0 {
		t.Errorf("row 4's nodes: %v", r)
	}
	if !strings.Contains(page, `<th data-key="nodes" class="num">nodes</th>`) {
		t.Error("the table has no column of nodes")
	}
}

func TestDrawnNote(t *testing.T) {
	for _, tc := range []struct {
		r    *Report
		want string
	}{
		{sample(3, 0, 0), "No failure."},
		{sample(3, 3, 3), "3 of 3 failures drawn."},
		{func() *Report { r := sample(3, 2, 0); r.NoDrawing = "a raw NFA has no interaction to draw"; return r }(),
			"2 failures, not drawn: a raw NFA has no interaction to draw."},
	} {
		var b bytes.Buffer
		if err := tc.r.WriteHTML(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `<p id="drawn">`+tc.want+`</p>`) {
			t.Errorf("no %q", tc.want)
		}
	}
}

// TestLarge: 100,000 sessions (under -tags sweep; 10,000 otherwise) make a
// report of a few megabytes, at a cost linear in the number of sessions.
func TestLarge(t *testing.T) {
	n := 10_000
	if testutil.Sweep() {
		n = 100_000
	}
	r := sample(n, n/20, DefaultMaxDrawings)
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 200*n {
		t.Errorf("%d sessions: %d bytes", n, b.Len())
	}
	if _, rows := rowsOf(t, b.String()); len(rows) != n {
		t.Errorf("%d rows, want %d", len(rows), n)
	}
	stated := fmt.Sprintf("%d of %d failures drawn: the first %d only, %d more are not drawn.", DefaultMaxDrawings, n/20, DefaultMaxDrawings, n/20-DefaultMaxDrawings)
	if !strings.Contains(b.String(), stated) {
		t.Errorf("the cap is not stated: no %q", stated)
	}
	testutil.Linear(t, n, func(n int) func() {
		r := sample(n, n/20, DefaultMaxDrawings)
		return func() {
			if err := r.WriteHTML(io.Discard); err != nil {
				t.Error(err)
			}
		}
	})
}

// TestCaps: a report copies at most MaxField bytes of a row's texts, cut
// with a marker, and lists rows up to MaxTable bytes of text, counting the
// others (ten 30 MiB ids made a 1.8 GB report).
func TestCaps(t *testing.T) {
	if got := Shorten("aé", 2); got != "a… (2 more bytes)" {
		t.Errorf("Shorten cuts inside a character: %q", got)
	}
	if got := Shorten("abc", 3); got != "abc" {
		t.Errorf("Shorten(abc, 3) = %q", got)
	}
	huge := strings.Repeat("x", 4<<20) // 64 times the table's cap
	r := &Report{Title: "caps", MaxTable: 64 << 10}
	const n = 100
	for range n {
		r.Rows = append(r.Rows, Row{File: "f.jsonl", Session: huge, Verdict: "Fail", Reason: huge, Drawing: -1})
	}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 1<<20 {
		t.Errorf("report of %d bytes for 100 rows and a table capped at 64 KiB", b.Len())
	}
	html := b.String()
	for _, want := range []string{"more bytes)", "counted above but not listed", "100 multi-traces"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
}

// TestIgnoredAndFiles: a session's ignored events and files are in its
// row, the names outside the signature in the summary, escaped and capped.
func TestIgnoredAndFiles(t *testing.T) {
	r := sample(3, 1, 1)
	r.Rows[0].Files = []string{r.Rows[0].File, "b.json", "c<i>.jsonl"}
	r.Rows[1].Ignored, r.Rows[1].AllIgnored = 2, true
	r.Rows[2].Ignored = 1
	r.Unkinded, r.Malformed = 2, 1
	for i := range MaxUndeclared + 5 {
		r.Undeclared = append(r.Undeclared, fmt.Sprintf(`message "m<%d>" (1 event)`, i))
	}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<p id="ignored">3 events outside the signature ignored, in 2 multi-traces; 1 of them had no event judged`,
		`<li><code>message &#34;m&lt;0&gt;&#34; (1 event)</code></li>`,
		`<figcaption>#1 traces/t0.htf, b.json, c&lt;i&gt;.jsonl (session 0)`,
		`<p id="uncounted">Not in any multi-trace: 2 spans without a protocol kind (INTERNAL or none), not events; 1 malformed line, reported.</p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the report has no %q", want)
		}
	}
	if n := strings.Count(page, "<li><code>"); n != MaxUndeclared {
		t.Errorf("%d names listed, want at most %d", n, MaxUndeclared)
	}
	files, rows := rowsOf(t, page)
	var others []string
	for _, f := range rows[0][9].([]any) {
		others = append(others, files[int(f.(float64))])
	}
	if strings.Join(others, ",") != "b.json,c<i>.jsonl" || rows[1][7] != 2.0 || rows[1][8] != true || rows[2][8] != false || rows[1][9] != nil {
		t.Errorf("rows %v (files %v)", rows, files)
	}
}

// TestLinks: the spans where a Fail stopped link to a trace viewer from
// their row; a link that is no web page is left out.
func TestLinks(t *testing.T) {
	r := sample(3, 1, 1)
	r.Rows[0].Links = []string{"http://localhost:16686/trace/ab?uiFind=cd", "javascript:alert(1)"}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	_, rows := rowsOf(t, b.String())
	if links, _ := rows[0][12].([]any); len(links) != 1 || links[0] != "http://localhost:16686/trace/ab?uiFind=cd" {
		t.Errorf("row 1's links: %v", rows[0][12])
	}
	if links := rows[1][12]; links != nil {
		t.Errorf("row 2's links: %v", links)
	}
}

// TestPatterns: the failure patterns are a table, each example linking to
// its drawing when it has one; a Fail's repair is written with its drawing.
func TestPatterns(t *testing.T) {
	r := &Report{Title: "ivc analyze", Fails: 3, Drawings: [][]byte{[]byte("<svg/>")}, Rows: []Row{
		{File: "a.jsonl", Session: "s1", Verdict: "Fail", Drawing: 0, Repair: []string{"repair (1 edit, then WeakPass):", "  [R] unexpected R!zero (event 76)"}},
		{File: "a.jsonl", Session: "s2", Verdict: "Fail", Drawing: -1},
		{File: "b.jsonl", Session: "s3", Verdict: "Fail", Drawing: -1},
	}, Patterns: []Pattern{
		{Pattern: "[R] unexpected R!zero", Count: 2, Examples: []Example{{Name: "a.jsonl (session s1)", Row: 0}, {Name: "a.jsonl (session s2)", Row: 1}}},
		{Pattern: "stuck at [S]: expected S!a", Count: 1, Examples: []Example{{Name: "b.jsonl (session s3)", Row: 2}}},
	}}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<table id="patterns">`,
		`<tr><td><code>[R] unexpected R!zero</code></td><td class="num">2</td><td class="num">66.7%</td><td><a href="#drawing-0">#1</a> a.jsonl (session s1), #2 a.jsonl (session s2)</td></tr>`,
		`<td class="num">33.3%</td><td>#3 b.jsonl (session s3)</td>`,
		"<pre class=\"repair\">repair (1 edit, then WeakPass):\n  [R] unexpected R!zero (event 76)\n</pre>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	r.Patterns = nil
	b.Reset()
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="patterns"`) {
		t.Error("a table of patterns without patterns")
	}
}
