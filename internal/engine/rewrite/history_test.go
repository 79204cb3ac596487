package rewrite

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestHistoryIndependent: a verdict depends on the multi-trace, the
// interaction and the options only, never on what the analyzer judged
// before (ivc analyze gives the same output for any --jobs, whose workers
// each own an analyzer and judge different sessions). The same multi-traces
// are judged cold, each by a fresh analyzer on a fresh store, and warm, by
// one analyzer in several orders, with node and memory budgets near the
// cost of some of them: the results must be equal, LocalNodes included.
func TestHistoryIndependent(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load("../../../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	comps := []string{
		"[S] S?d.S!d_zero.S?one.S!d_zero.S?ce.S!d_zero.S?zero.S?d.S!d_one",
		"[K] K?d_zero.K!ce.K?d_zero.K!d_zero.K?d_zero.K!d_zero.K?d_one.K!ce",
		"[L] L?one.L!one.L?zero.L?zero.L!zero.L?zero",
		"[R] R?ce.R!one.R?d_zero.R!d.R!zero.R!ce.R?d_zero.R!zero.R?ce",
	}
	// Prefixes of each component's trace, and a few impossible ones.
	var mts []*multitrace.MultiTrace
	var names []string
	for n := 1; n <= 9; n++ {
		var parts []string
		for i, c := range comps {
			ev := strings.Split(c[4:], ".")
			k := min(len(ev), n+i%2)
			parts = append(parts, c[:4]+strings.Join(ev[:k], "."))
		}
		if n%3 == 2 {
			parts[1], parts[2] = parts[1]+".K!zero", parts[2]+".L?d"
		}
		text := strings.Join(parts, "; ")
		mts = append(mts, mtOf(t, sp.Sig, text))
		names = append(names, text)
	}
	cold := func(opts Options, mt *multitrace.MultiTrace) verdict.Result {
		st, root := sp.Store.Fresh(sp.Root)
		return New(st, root, opts).Check(mt)
	}
	rounds := 2 // the first in reverse order, then a random one; 4 in the sweep
	if testutil.Sweep() {
		rounds = 4
	}
	for _, cfg := range configs {
		for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
			// The costs cold, to set the budgets near them.
			var costs []int
			for _, mt := range mts {
				r := cold(Options{Mode: mode, POR: cfg.por, LOC: cfg.loc}, mt)
				costs = append(costs, r.Nodes+r.LocalNodes)
			}
			slices.Sort(costs)
			var budgets []Options
			for _, i := range []int{1, len(costs) / 2, len(costs) - 2} {
				for _, d := range []int{-1, 0, 1} {
					if costs[i]+d > 0 {
						budgets = append(budgets, Options{MaxNodes: costs[i] + d})
					}
				}
			}
			for _, m := range []int64{64 << 10, 256 << 10, 1 << 20} {
				budgets = append(budgets, Options{MaxMemory: m})
			}
			for _, b := range budgets {
				opts := Options{Mode: mode, POR: cfg.por, LOC: cfg.loc, MaxNodes: b.MaxNodes, MaxMemory: b.MaxMemory}
				name := fmt.Sprintf("%s, %s, %d nodes, %d bytes", cfg.name, mode, b.MaxNodes, b.MaxMemory)
				want := make([]verdict.Result, len(mts))
				for i, mt := range mts {
					want[i] = cold(opts, mt)
				}
				st, root := sp.Store.Fresh(sp.Root)
				a := New(st, root, opts)
				rng := rand.New(rand.NewPCG(1, uint64(b.MaxNodes)))
				for round := range rounds {
					order := rng.Perm(len(mts))
					if round == 0 {
						slices.Reverse(order)
					}
					for _, i := range order {
						if got := a.Check(mts[i]); !reflect.DeepEqual(got, want[i]) {
							t.Errorf("%s, round %d, %s:\nwarm %+v\ncold %+v", name, round, names[i], got, want[i])
						}
						checkEntries(t, a)
					}
				}
			}
		}
	}
}

// checkEntries checks the count of the memo entries each partition of a
// keeps (located.entries), which decides when the kept memos are dropped,
// against the memos themselves.
func checkEntries(t *testing.T, a *Analyzer) {
	t.Helper()
	for _, ps := range a.located {
		for _, p := range ps {
			n := len(p.steps.res)
			for _, m := range p.memo {
				n += len(m.proj) + len(m.first) + len(m.min)
			}
			if p.entries != n {
				t.Fatalf("partition %d: %d memo entries counted, %d in the memos", p.id, p.entries, n)
			}
		}
	}
}
