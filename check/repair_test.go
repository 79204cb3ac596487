package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// formatRepair prints a repair's edits as "-[l1]@1:l1!m +[l2]@0:l2?m"
// (the deletion of event 1 of [l1], l1!m; the insertion of l2?m before
// event 0 of [l2]).
func formatRepair(r verdict.Repair) string {
	var parts []string
	for _, e := range r.Edits {
		op := "-"
		if e.Op == verdict.Insert {
			op = "+"
		}
		parts = append(parts, fmt.Sprintf("%s[%s]@%d:%s", op, strings.Join(e.Location, ","), e.Index, e.Action))
	}
	return strings.Join(parts, " ")
}

// repairOf checks src against sp with opt and repairs it.
func repairOf(t *testing.T, sp *spec.Spec, opt check.Options, src string) (verdict.Result, verdict.Repair, check.Engine) {
	t.Helper()
	c, err := check.New(sp, opt)
	if err != nil {
		t.Fatal(err)
	}
	mt, err := multitrace.ParseResolve("mt.htf", []byte(src), sp.Sig)
	if err != nil {
		t.Fatal(err)
	}
	res := c.Check(mt)
	r, err := c.Repair(mt, res)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return res, r, c.Engine()
}

// TestRepair repairs failing multi-traces of small interactions whose
// smallest repairs are checked by hand, in each mode, with each engine that
// takes the mode: a noise event deleted, a missing event inserted, a
// swapped pair (two edits, or one deletion where the log may stop early),
// co-localized lifelines, a <synch> message.
func TestRepair(t *testing.T) {
	const sigMN = "@lifeline{ l1; l2; l3 }\n@message{ m; n }\n"
	message := writeSpec(t, sigMN, "l1 -- m -> l2")
	twoMessages := writeSpec(t, sigMN, "seq(l1 -- m -> l2, l1 -- n -> l2)")
	// The lifeline-removal paper's T6: every local analysis passes, yet
	// the multi-trace is no multi-prefix.
	choice := writeSpec(t, sigMN, "alt(l1 -- m -> l2, l1 -- m -> l3)")
	synch := writeSpec(t, sigMN, "l1 -- <synch>m -> l2")
	// The lifeline-removal paper's T4 and T5: l1 unobserved.
	optionalReply := writeSpec(t, sigMN, "seq(l1 -- m -> l2, alt(l2 -- m -> l1, o))")
	// Its publish/subscribe example (Fig. 1): publications before the
	// subscription reach the broker only, those after it the subscriber.
	pubsub := writeSpec(t, "@lifeline{ lp; lb; ls }\n@message{ pub; sub }\n",
		"seq(loopW(lp -- pub -> lb), ls -- sub -> lb, loopW(seq(lp -- pub -> lb, lb -- pub -> ls)))")
	abp, err := spec.Load(filepath.Join(testdata, "abp", "abp.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	const (
		prefix = verdict.Prefix
		accept = verdict.Accept
		slice  = verdict.Slice
	)
	for _, tc := range []struct {
		name  string
		sp    *spec.Spec
		mode  verdict.Mode
		mt    string
		edits string // "" when there is nothing to repair
		cost  int    // when the engines may choose different edits of this cost
	}{
		{"passes", message, prefix, "{[l1] l1!m; [l2] l2?m}", "", 0},
		{"a multi-prefix", message, prefix, "{[l1] ; [l2] l2?m}", "", 0},
		{"noise", message, prefix, "{[l1] l1!m.l1!n; [l2] l2?m}", "-[l1]@1:l1!n", 0},
		{"noise at the start", message, accept, "{[l1] l1!n.l1!m; [l2] l2?m}", "-[l1]@0:l1!n", 0},
		{"noise of the interaction", message, prefix, "{[l1] l1!m.l1!m; [l2] }", "", 1},
		{"a missing reception", message, accept, "{[l1] l1!m; [l2] }", "+[l2]@0:l2?m", 0},
		{"a missing emission", message, accept, "{[l1] ; [l2] l2?m}", "+[l1]@0:l1!m", 0},
		{"a swapped pair", twoMessages, accept, "{[l1] l1!n.l1!m; [l2] l2?m.l2?n}", "", 2},
		{"a swapped pair, the log may stop early", twoMessages, prefix, "{[l1] l1!n.l1!m; [l2] l2?m.l2?n}", "", 1},
		{"a reception too many", twoMessages, prefix, "{[l1] l1!m; [l2] l2?m.l2?m}", "-[l2]@1:l2?m", 0},
		{"one branch of two", choice, prefix, "{[l1] l1!m; [l2] l2?m; [l3] l3?m}", "", 1},
		{"co-localized", message, prefix, "{[l1,l2] l2?m.l1!m}", "-[l1,l2]@0:l2?m", 0},
		{"co-localized, exactly", message, accept, "{[l1,l2] l2?m.l1!m}", "", 2},
		{"a synch message", synch, accept, "{[l1] ; [l2] l2?m}", "+[l1]@0:l1!m", 0},
		{"a synch message, co-localized", synch, accept, "{[l1,l2] ; [l3] l3?m}", "", 2},
		{"l1 unobserved", optionalReply, prefix, "{[l1] ; [l2] l2?m}", "", 0},
		{"l1 unobserved, exactly", optionalReply, accept, "{[l1] ; [l2] l2?m}", "+[l1]@0:l1!m", 0},
		{"a publication before the subscription", pubsub, prefix, "{[lp] lp!pub; [lb] lb!pub.lb?sub; [ls] ls!sub}", "-[lb]@0:lb!pub", 0},
		{"a publication before the subscription, exactly", pubsub, accept, "{[lp] lp!pub; [lb] lb!pub.lb?sub; [ls] ls!sub}", "", 2},
		{"a slice that starts late", twoMessages, slice, "{[l1] l1!n; [l2] l2?n}", "", 0},
		{"no slice", twoMessages, slice, "{[l1] l1!n.l1!m; [l2] }", "", 1},
		// The alternating bit protocol: the last action of a log of 251 is wrong.
		{"abp", abp, prefix, readFile(t, filepath.Join(testdata, "abp", "traces", "trace1_error_1.htf")), "-[S,K,L,R]@250:R!zero", 0},
	} {
		// Auto: the automata engine, but for pubsub (a loopW) and slice
		// mode.
		for _, engine := range []check.Engine{check.EngineAuto, check.EngineRuntime} {
			opt := check.DefaultOptions()
			opt.Engine, opt.Mode = engine, tc.mode
			res, r, used := repairOf(t, tc.sp, opt, tc.mt)
			name := fmt.Sprintf("%s (%s, %s)", tc.name, tc.mode, used)
			if r.Incomplete {
				t.Errorf("%s: incomplete: %s", name, r.Detail)
			}
			if tc.edits == "" && tc.cost == 0 {
				if res.Verdict == verdict.Fail || r.Cost() != 0 {
					t.Errorf("%s: %s, repaired by %q", name, res.Verdict, formatRepair(r))
				}
				continue
			}
			if res.Verdict != verdict.Fail {
				t.Errorf("%s: %s, want Fail", name, res.Verdict)
				continue
			}
			want := tc.cost
			if tc.edits != "" {
				want = strings.Count(tc.edits, " ") + 1
			}
			switch {
			case r.Cost() != want:
				t.Errorf("%s: repaired by %q, want %d edits", name, formatRepair(r), want)
			case tc.edits != "" && formatRepair(r) != tc.edits:
				t.Errorf("%s: repaired by %q, want %q", name, formatRepair(r), tc.edits)
			case !r.Verdict.OK():
				t.Errorf("%s: the repaired multi-trace is %s", name, r.Verdict)
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestRepairBudget stops repairs at a budget of one node: the repair is
// then incomplete, and still one (the best found, checked again), or none.
func TestRepairBudget(t *testing.T) {
	sp := writeSpec(t, "@lifeline{ l1; l2 }\n@message{ m; n }\n", "seq(l1 -- m -> l2, l1 -- n -> l2, l1 -- m -> l2)")
	const mt = "{[l1] l1!n.l1!m.l1!m.l1!n; [l2] l2?m.l2?n.l2?n}"
	for _, engine := range []check.Engine{check.EngineAutomata, check.EngineRuntime} {
		for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
			opt := check.DefaultOptions()
			opt.Engine, opt.Mode = engine, mode
			_, full, _ := repairOf(t, sp, opt, mt)
			opt.Repair.MaxNodes = 1
			_, r, _ := repairOf(t, sp, opt, mt)
			switch {
			case full.Incomplete || full.Cost() < 2:
				t.Errorf("%s %s: without a budget, %q (incomplete: %v)", engine, mode, formatRepair(full), full.Incomplete)
			case !r.Incomplete || r.Reason != verdict.NodeLimit:
				t.Errorf("%s %s: %q complete within a node", engine, mode, formatRepair(r))
			case r.Cost() > 0 && r.Cost() < full.Cost():
				t.Errorf("%s %s: %q, cheaper than the smallest %q", engine, mode, formatRepair(r), formatRepair(full))
			case r.Cost() > 0 && !r.Verdict.OK():
				t.Errorf("%s %s: %q gives %s", engine, mode, formatRepair(r), r.Verdict)
			case r.Cost() == 0 && (engine == check.EngineAutomata || mode == verdict.Prefix):
				// The alignment completes what it explored; in prefix mode
				// the search truncates the logs.
				t.Errorf("%s %s: no repair within the budget: %s", engine, mode, r.Detail)
			}
		}
	}
}

// TestRepairConcurrent repairs from several goroutines with one checker
// per engine (run with -race).
func TestRepairConcurrent(t *testing.T) {
	sp := writeSpec(t, "@lifeline{ l1; l2 }\n@message{ m; n }\n", "seq(l1 -- m -> l2, l1 -- n -> l2)")
	mts := []string{"{[l1] l1!n.l1!m; [l2] l2?m.l2?n}", "{[l1] l1!m.l1!m; [l2] }", "{[l1,l2] l2?n.l1!m}"}
	for _, engine := range []check.Engine{check.EngineAutomata, check.EngineRuntime} {
		opt := check.DefaultOptions()
		opt.Engine = engine
		c, err := check.New(sp, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, len(mts))
		parsed := make([]*multitrace.MultiTrace, len(mts))
		for i, src := range mts {
			if parsed[i], err = multitrace.ParseResolve("mt.htf", []byte(src), sp.Sig); err != nil {
				t.Fatal(err)
			}
			r, err := c.Repair(parsed[i], c.Check(parsed[i]))
			if err != nil || r.Cost() == 0 {
				t.Fatalf("%s: %+v, %v", src, r, err)
			}
			want[i] = r.Cost()
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for k := range 20 {
					i := (g + k) % len(mts)
					if r, err := c.Repair(parsed[i], c.Check(parsed[i])); err != nil || r.Cost() != want[i] {
						t.Errorf("%s %s: %+v, %v", engine, mts[i], r, err)
					}
				}
			})
		}
		wg.Wait()
	}
}
