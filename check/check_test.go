package check_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

const testdata = "../testdata"

// writeSpec writes a signature and an interaction into a temporary
// directory and loads them.
func writeSpec(t *testing.T, hsf, hif string) *spec.Spec {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{"s.hsf": hsf, "s.hif": hif} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	sp, err := spec.Load(filepath.Join(dir, "s.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

const sig12 = "@lifeline{ l1; l2 }\n@message{ m }\n"

// TestEngineChoice checks what EngineAuto picks, and that only "not
// compilable" and "too big" (for the states, time or memory of its bounded
// attempt) fall back to the runtime engine.
func TestEngineChoice(t *testing.T) {
	regular := writeSpec(t, sig12, "loopS(l1 -- m -> l2)")
	counting := writeSpec(t, sig12, "loopH(l1 -- m -> l2)") // loopH of a message: not regular
	// 300 copies of a message in a par: 45,451 states, seconds to compile
	// (abp's 400 copies took a minute before auto fell back).
	slow := writeSpec(t, sig12, strings.Repeat("par(l1 -- m -> l2, ", 299)+"l1 -- m -> l2"+strings.Repeat(")", 299))
	opts := func(e check.Engine, mode verdict.Mode, maxStates int) check.Options {
		o := check.DefaultOptions()
		o.Engine, o.Mode, o.MaxStates = e, mode, maxStates
		return o
	}
	timeout := func(o check.Options, d time.Duration) check.Options {
		o.Timeout = d
		return o
	}
	for _, tc := range []struct {
		name string
		sp   *spec.Spec
		opt  check.Options
		want check.Engine
		err  any // a pointer to the error type New returns, or nil
	}{
		{"auto compiles", regular, opts(check.EngineAuto, verdict.Prefix, 0), check.EngineAutomata, nil},
		{"auto, not compilable", counting, opts(check.EngineAuto, verdict.Prefix, 0), check.EngineRuntime, nil},
		{"auto, too big", regular, opts(check.EngineAuto, verdict.Accept, 1), check.EngineRuntime, nil},
		{"auto, slice mode", regular, opts(check.EngineAuto, verdict.Slice, 0), check.EngineRuntime, nil},
		{"runtime", regular, opts(check.EngineRuntime, verdict.Prefix, 0), check.EngineRuntime, nil},
		{"automata, not compilable", counting, opts(check.EngineAutomata, verdict.Prefix, 0), 0, new(*synth.LoopError)},
		{"automata, too big", regular, opts(check.EngineAutomata, verdict.Prefix, 1), 0, new(*synth.StateLimitError)},
		{"automata, slice mode", regular, opts(check.EngineAutomata, verdict.Slice, 0), 0, nil},
		// --timeout bounds the compilation too; auto's attempt is bounded
		// by it (or by DefaultAutoBuildTimeout) and falls back.
		{"auto, past the build timeout", regular, timeout(opts(check.EngineAuto, verdict.Prefix, 0), time.Nanosecond), check.EngineRuntime, nil},
		{"automata, past the timeout", regular, timeout(opts(check.EngineAutomata, verdict.Prefix, 0), time.Nanosecond), 0, new(*nfa.LimitError)},
		{"auto, within the timeout", regular, timeout(opts(check.EngineAuto, verdict.Prefix, 0), time.Minute), check.EngineAutomata, nil},
		{"auto, slow to compile", slow, timeout(opts(check.EngineAuto, verdict.Prefix, 0), 200*time.Millisecond), check.EngineRuntime, nil},
	} {
		// How soon New returns after its timeout depends on the machine's
		// load and is not asserted: the cases past the timeout (1 ns) show
		// that it reaches the bounded attempt, whose stop at a deadline
		// compile's and nfa's budget tests check without a clock.
		c, err := check.New(tc.sp, tc.opt)
		switch {
		case tc.want == 0 && err == nil:
			t.Errorf("%s: engine %s, want an error", tc.name, c.Engine())
		case tc.want == 0 && tc.err != nil && !errors.As(err, tc.err):
			t.Errorf("%s: error %v (%T), want a %T", tc.name, err, err, tc.err)
		case tc.want != 0 && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != 0 && c.Engine() != tc.want:
			t.Errorf("%s: engine %s, want %s", tc.name, c.Engine(), tc.want)
		}
	}
}

// TestRun checks a batch against the checks one by one: outcomes in input
// order with both engines and any number of workers, unreadable inputs and
// panics reported in their place while the others are judged, the
// compilation's time given to the first outcome only.
func TestRun(t *testing.T) {
	lfrem, err := spec.Load(filepath.Join(testdata, "lfrem/signature.hsf"), filepath.Join(testdata, "lfrem/i1.hif"))
	if err != nil {
		t.Fatal(err)
	}
	abp, err := spec.Load(filepath.Join(testdata, "abp/abp.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	// Each set three times, for more inputs than workers.
	glob := func(patterns ...string) (files []string) {
		for range 3 {
			for _, p := range patterns {
				fs, _ := filepath.Glob(filepath.Join(testdata, p))
				files = append(files, fs...)
			}
		}
		return files
	}
	for _, tc := range []struct {
		sp     *spec.Spec
		engine check.Engine
		files  []string
	}{
		{lfrem, check.EngineRuntime, glob("lfrem/i1_*/*.htf")},
		{abp, check.EngineRuntime, glob("abp/traces/*.htf", "abp/traces/*.htf")},
		{abp, check.EngineAutomata, glob("abp/traces/*.htf", "abp/traces/*.htf")},
	} {
		sp, engine, files := tc.sp, tc.engine, tc.files
		opt := check.DefaultOptions()
		opt.Engine = engine
		c, err := check.New(sp, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]verdict.Result, len(files))
		for i, f := range files {
			mt, err := multitrace.Read(f, sp.Sig)
			if err != nil {
				t.Fatal(err)
			}
			want[i] = c.Check(mt)
		}
		for _, jobs := range []int{1, 3, 8} {
			missed, panicked := false, false
			inputs := func(yield func(session.Session) bool) {
				for in := range check.Files(c, files) {
					if !yield(in) {
						return
					}
					if in.File == files[4] && !missed {
						missed = true
						for miss := range check.Files(c, []string{"no/such.htf"}) {
							miss.File = "missing"
							yield(miss)
						}
					}
					if in.File == files[9] && !panicked {
						panicked = true
						yield(session.Later(session.Meta{File: "panic"}, func() (*multitrace.MultiTrace, error) { panic("boom") }))
					}
				}
			}
			var got []check.Outcome
			c.Run(inputs, check.RunOptions{Jobs: jobs}, func(o check.Outcome) { got = append(got, o) })
			if len(got) != len(files)+2 {
				t.Fatalf("%s, %d jobs: %d outcomes, want %d", engine, jobs, len(got), len(files)+2)
			}
			k := 0
			for i, o := range got {
				if o.Index != i {
					t.Errorf("%s, %d jobs: outcome %d has index %d", engine, jobs, i, o.Index)
				}
				var pe *check.PanicError
				switch o.File {
				case "missing":
					if o.Err == nil || !strings.Contains(o.Err.Error(), "no/such.htf") {
						t.Errorf("%s, %d jobs: unreadable input gives %v", engine, jobs, o.Err)
					}
					continue
				case "panic":
					if !errors.As(o.Err, &pe) || pe.Value != "boom" || len(pe.Stack) == 0 {
						t.Errorf("%s, %d jobs: a panicking input gives %v", engine, jobs, o.Err)
					}
					continue
				}
				if o.File != files[k] || o.Err != nil || !reflect.DeepEqual(o.Result, want[k]) {
					t.Errorf("%s, %d jobs: outcome %d is %s %+v (%v), want %s %+v", engine, jobs, i, o.File, o.Result, o.Err, files[k], want[k])
				}
				k++
			}
			if got[0].Setup < c.Setup() {
				t.Errorf("%s: the first outcome's setup %v does not count the compilation's %v", engine, got[0].Setup, c.Setup())
			}
		}
	}
}

// TestRunStops checks that Run stops taking inputs when they end, and that
// it judges none when there are none.
func TestRunStops(t *testing.T) {
	sp, err := spec.Load(filepath.Join(testdata, "abp/abp.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	c.Run(slices.Values([]session.Session(nil)), check.RunOptions{Jobs: 4}, func(check.Outcome) { n++ })
	if n != 0 {
		t.Errorf("%d outcomes of no input", n)
	}
	files, _ := filepath.Glob(filepath.Join(testdata, "abp/traces/*.htf"))
	var verdicts []string
	c.Run(check.Files(c, files), check.RunOptions{Jobs: 2}, func(o check.Outcome) { verdicts = append(verdicts, o.Result.Verdict.String()) })
	if got := strings.Join(verdicts, " "); got != "WeakPass Fail WeakPass" {
		t.Errorf("abp traces: %s, want WeakPass Fail WeakPass", got)
	}
}

// TestTimbuk checks a raw NFA: the automata paper's running example, whose
// Examples 3, 7 and 8 are a local, a central and an inter error.
func TestTimbuk(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src, err := os.ReadFile(filepath.Join(testdata, "script/analyze_automata.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	// The script holds the paper's NFA and multi-traces as txtar files.
	files := map[string]string{}
	var name string
	for _, line := range strings.SplitAfter(string(src), "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --\n") {
			name = strings.TrimSuffix(strings.TrimPrefix(line, "-- "), " --\n")
			continue
		}
		if name != "" {
			files[name] += line
		}
	}
	if files["paper.timbuk"] == "" {
		t.Fatal("no paper.timbuk in analyze_automata.txtar")
	}
	nfaPath := write("paper.timbuk", files["paper.timbuk"])
	r, err := check.LoadRawNFA(nfaPath, "a,e;c,d;b")
	if err != nil {
		t.Fatal(err)
	}
	opt := check.DefaultOptions()
	opt.Mode = verdict.Accept
	c, err := check.NewRaw(r, opt)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, n := range []string{"mt/ex3.txt", "mt/ex7.txt", "mt/ex8.txt", "mt/ok.txt"} {
		paths = append(paths, write(filepath.Base(n), files[n]))
	}
	var got []string
	c.Run(paths, 2, func(o check.Outcome) {
		got = append(got, o.Result.Verdict.String()+" "+o.Result.Reason.String())
	})
	if want := []string{"Fail LocalError", "Fail CentralError", "Fail InterError", "Pass "}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := check.LoadRawNFA(nfaPath, "a,e;c,x"); !errors.As(err, new(*check.LocationsError)) {
		t.Errorf("bad locations: %v, want a LocationsError", err)
	}
	opt.Engine = check.EngineRuntime
	if _, err := check.NewRaw(r, opt); err == nil {
		t.Error("the runtime engine accepted a .timbuk NFA")
	}
}

// TestJudgeAllocs checks that judging a small multi-trace through Judge
// allocates nothing with the automata engine, once its partition's checker
// is built, as automata's own check does (the engine choice looked for
// its limit error in every outcome, which allocated one object a check).
func TestJudgeAllocs(t *testing.T) {
	dir := filepath.Join(testdata, "lfrem")
	sp, err := spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, "i14.hif"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if c.Engine() != check.EngineAutomata {
		t.Fatalf("engine %s, want automata", c.Engine())
	}
	mt, err := multitrace.ParseResolve("mt.htf", []byte("{ [l1] l1!m5.l1?m1.l1?m1; [l2] l2?m2.l2?m4; [l3] l3?m5.l3?m6; [l4] l4!m2.l4!m3.l4!m2; [l5] l5?m6.l5!m1.l5?m1 }"), sp.Sig)
	if err != nil {
		t.Fatal(err)
	}
	in := session.Session{Meta: session.Meta{File: "mt"}, MT: mt}
	c.Judge(in) // builds the partition's checker
	var o check.Outcome
	if n := testing.AllocsPerRun(100, func() { o = c.Judge(in) }); n > 0 || o.Err != nil || !o.Result.Verdict.OK() {
		t.Errorf("%s (%v): %v allocations a judgment, want none", o.Result.Verdict, o.Err, n)
	}
}
