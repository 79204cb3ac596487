package nfa

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// applyEdits returns mt with the edits of an alignment made: the
// insertions at an index before the event there, in their order.
func applyEdits(mt [][]Letter, edits []Edit) [][]Letter {
	out := make([][]Letter, len(mt))
	for i, tr := range mt {
		for j := 0; j <= len(tr); j++ {
			deleted := false
			for _, e := range edits {
				switch {
				case e.Loc != i || e.Index != j:
				case e.Insert:
					out[i] = append(out[i], e.Letter)
				default:
					deleted = true
				}
			}
			if j < len(tr) && !deleted {
				out[i] = append(out[i], tr[j])
			}
		}
	}
	return out
}

// formatEdits prints edits as "-L2@1 +L3@2:b" (deletion of event 1 of L2,
// insertion of b before event 2 of L3).
func formatEdits(locs *Alphabets, edits []Edit) string {
	var parts []string
	for _, e := range edits {
		if e.Insert {
			parts = append(parts, fmt.Sprintf("+%s@%d:%s", locs.Name(e.Loc), e.Index, locs.Letters(e.Loc)[e.Letter]))
		} else {
			parts = append(parts, fmt.Sprintf("-%s@%d", locs.Name(e.Loc), e.Index))
		}
	}
	return strings.Join(parts, " ")
}

// TestAlignPaper aligns multi-traces of the automata paper's running
// example, whose language is a | (bd)* c e over L1 = {a,e}, L2 = {c,d},
// L3 = {b}.
func TestAlignPaper(t *testing.T) {
	a, locs := paperNFA(t)
	c, err := NewChecker(a, locs, CheckerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mt    string
		mode  Mode
		edits string
	}{
		// Example 7: locally correct, not accepted: (bd)^3 c e needs one
		// more b, (bd)^2 c e one d less.
		{"e,dddc,bb", Accept, "-L2@2"},
		// Example 8: b is unobserved in prefix mode; in accept mode, three
		// b are missing (or three d too many).
		{"e,dddc,", Prefix, ""},
		{"e,dddc,", Accept, "+L3@0:b -L2@1 -L2@2"},
		// A swapped pair: two edits in accept mode, one deletion in prefix
		// mode (d is a multi-prefix: the log may stop early).
		{"e,cd,b", Accept, "+L2@0:d -L2@1"},
		{"e,cd,b", Prefix, "-L2@0"},
		{"ea,,", Accept, "-L1@0"},
		{"ea,,", Prefix, "-L1@1"},
		// The empty multi-trace is a multi-prefix; it is not accepted.
		{",,", Prefix, ""},
		{",,", Accept, "+L1@0:a"},
	} {
		mt := multi(t, locs, tc.mt)
		al := c.Align(mt, tc.mode, AlignOptions{})
		if !al.Found || al.Stopped != NoReason {
			t.Errorf("%s %s: found %v, stopped %v", tc.mt, tc.mode, al.Found, al.Stopped)
			continue
		}
		if got := formatEdits(locs, al.Edits); got != tc.edits {
			t.Errorf("%s %s: edits %q, want %q", tc.mt, tc.mode, got, tc.edits)
		}
		if r := c.CheckAS(applyEdits(mt, al.Edits), tc.mode); !r.Verdict.OK() {
			t.Errorf("%s %s: the repaired multi-trace is %s", tc.mt, tc.mode, r)
		}
	}
}

// editDistance is the smallest number of edits after which mt checks OK in
// mode, by a breadth-first search over the multi-traces within max edits
// (-1 past max).
func editDistance(c *Checker, mt [][]Letter, mode Mode, max int) int {
	key := func(m [][]Letter) string { return fmt.Sprint(m) }
	seen := map[string]bool{key(mt): true}
	level := [][][]Letter{mt}
	for k := 0; k <= max; k++ {
		var next [][][]Letter
		for _, m := range level {
			if c.CheckAS(m, mode).Verdict.OK() {
				return k
			}
			add := func(n [][]Letter) {
				if s := key(n); !seen[s] {
					seen[s] = true
					next = append(next, n)
				}
			}
			for i, tr := range m {
				for j := 0; j <= len(tr); j++ {
					if j < len(tr) {
						n := slices.Clone(m)
						n[i] = slices.Delete(slices.Clone(tr), j, j+1)
						add(n)
					}
					for x := range Letter(len(c.locs.Letters(i))) {
						n := slices.Clone(m)
						n[i] = slices.Insert(slices.Clone(tr), j, x)
						add(n)
					}
				}
			}
		}
		level = next
	}
	return -1
}

// TestAlignBruteForce compares the cost of alignments with the edit
// distance a breadth-first search over edited multi-traces finds, on
// random automata split into two locations and random short multi-traces
// (with events that are no letter), in both modes.
func TestAlignBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	compared := 0
	for seed := range 100 {
		a := randomNFA(rng, 2+rng.IntN(4), 3+rng.IntN(8)).Trim()
		if a.NumStates() == 0 {
			continue
		}
		locs := RandomAlphabets(a.Symbols(), 2, uint64(seed))
		c, err := NewChecker(a, locs, CheckerOptions{NoPruning: seed%3 == 0})
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			mt := make([][]Letter, 2)
			for i := range mt {
				k := len(locs.Letters(i))
				for range rng.IntN(4) {
					mt[i] = append(mt[i], Letter(rng.IntN(k+1))) // k: no letter
				}
			}
			for _, mode := range []Mode{Prefix, Accept} {
				al := c.Align(mt, mode, AlignOptions{})
				if !al.Found || al.Stopped != NoReason {
					t.Fatalf("%v on %v %s: found %v, stopped %v", a, mt, mode, al.Found, al.Stopped)
				}
				if r := c.CheckAS(applyEdits(mt, al.Edits), mode); !r.Verdict.OK() {
					t.Errorf("%v on %v %s: %s gives %s", a, mt, mode, formatEdits(locs, al.Edits), r)
				}
				if want := editDistance(c, mt, mode, al.Cost()); want != al.Cost() {
					t.Errorf("%v on %v %s: %s costs %d, the edit distance is %d", a, mt, mode, formatEdits(locs, al.Edits), al.Cost(), want)
				}
				compared++
			}
		}
	}
	t.Logf("%d alignments compared", compared)
}

// TestAlignLimits stops alignments at their node budget and deadline: the
// repair then given is still one.
func TestAlignLimits(t *testing.T) {
	a, locs := paperNFA(t)
	c, err := NewChecker(a, locs, CheckerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mt := multi(t, locs, "eaeae,dcdcdddccd,bbbbbb")
	for _, mode := range []Mode{Prefix, Accept} {
		full := c.Align(mt, mode, AlignOptions{})
		for _, opt := range []AlignOptions{{MaxNodes: 1}, {MaxNodes: full.Nodes / 2}, {Deadline: time.Now().Add(-time.Second)}} {
			al := c.Align(mt, mode, opt)
			if opt.MaxNodes == 0 && al.Nodes < 256 {
				continue // the deadline is looked at every 256 expansions
			}
			if al.Stopped == NoReason || !al.Found {
				t.Errorf("%s %+v: stopped %v, found %v", mode, opt, al.Stopped, al.Found)
				continue
			}
			if al.Cost() < full.Cost() {
				t.Errorf("%s %+v: %d edits, fewer than the smallest repair's %d", mode, opt, al.Cost(), full.Cost())
			}
			if r := c.CheckAS(applyEdits(mt, al.Edits), mode); !r.Verdict.OK() {
				t.Errorf("%s %+v: %s gives %s", mode, opt, formatEdits(locs, al.Edits), r)
			}
		}
	}
}
