package automata

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

var seeds = flag.Int("seeds", 0, "random interactions in TestDifferentialRuntime (default 150, 4000 with -tags sweep)")

// engines are the automata configurations compared with the runtime.
var engines = []struct {
	name string
	opt  Options
}{
	{"AS", Options{}},
	{"AS-nopruning", Options{NoPruning: true}},
	{"AC", Options{Procedure: AC}},
}

// TestDifferentialRuntime draws random interactions of the compiled
// sublanguage (loopS, <synch> messages, broadcasts, coregions, sometimes
// sync) and random multi-traces derived from accepted ones (the traces
// themselves, prefixes, noise, swaps, slices, mixed components) on the
// discrete partition and on locations of several lifelines, and requires
// the automata engine (AS with and without pruning, AC) to give the runtime
// engine's verdict in accept and prefix modes.
func TestDifferentialRuntime(t *testing.T) {
	t.Parallel()
	n := *seeds
	if n == 0 {
		n = 20 // a sample; the sweep's 4000 are the differential's full run
		if testutil.Sweep() {
			n = 4000
		}
	}
	sig := random.Signature(4, 2)
	w := random.Conservative()
	w.Coreg = 1
	msgs := random.DefaultMessages()
	msgs.Synch = 2
	msgs.Broadcast = 1
	counts := map[string]int{}
	runtimeWrong := 0
	for seed := range n {
		rng := random.New(uint64(seed) + 1000)
		st := interaction.NewStore(sig)
		ww := w
		if seed%5 == 0 {
			ww.Sync = 1
		}
		term := random.Interaction(st, rng, random.Params{MaxDepth: 4, MinActions: 4, Weights: ww, Messages: msgs, Compilable: true})
		var es [2][]*Engine
		for mi, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
			for _, eng := range engines {
				opt := eng.opt
				opt.Mode = mode
				e, err := New(st, term, opt)
				if err != nil {
					t.Fatalf("seed %d: %s: %v", seed, st.Format(term), err)
				}
				es[mi] = append(es[mi], e)
			}
		}
		rt := [2]*rewrite.Analyzer{
			rewrite.New(st, term, rewrite.Options{Mode: verdict.Accept, POR: true, LOC: true}),
			rewrite.New(st, term, rewrite.Options{Mode: verdict.Prefix, POR: true, LOC: true}),
		}
		for k := range 8 {
			mt, ok := draw(st, term, rng, k)
			if !ok {
				continue
			}
			for mi := range 2 {
				want := rt[mi].Check(&mt)
				if want.Verdict == verdict.Inconc {
					continue
				}
				oracle := verdict.Verdict(255)
				for ei, e := range es[mi] {
					got := e.Check(&mt)
					if got.Verdict == want.Verdict {
						continue
					}
					// The runtime may be the one that is wrong: ask the oracle.
					if oracle == 255 {
						oracle = oracleVerdict(st, term, mt, want.Mode)
					}
					if got.Verdict != oracle {
						t.Errorf("seed %d: %s on %s %s: %s gives %s (%s), runtime %s, oracle %s", seed, st.Format(term),
							mt.Format(sig), want.Mode, engines[ei].name, got.Verdict, got.Text(), want.Verdict, oracle)
					}
				}
				if oracle != 255 && oracle != want.Verdict {
					runtimeWrong++
					t.Errorf("seed %d: %s on %s %s: runtime %s, oracle and automata %s", seed, st.Format(term),
						mt.Format(sig), want.Mode, want.Verdict, oracle)
				}
				counts[want.Mode.String()+" "+want.Verdict.String()]++
			}
		}
	}
	t.Logf("verdicts compared: %v; %d where the runtime differs from the oracle", counts, runtimeWrong)
}

// FuzzDifferential is TestDifferentialRuntime for longer runs, one random
// interaction per input (its seed and generation knobs), compared on every
// kind of derived multi-trace with the oracle as well:
//
//	go test ./automata -run '^$' -fuzz FuzzDifferential -fuzztime 10m
func FuzzDifferential(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed, uint8(seed), uint8(4))
	}
	sig := random.Signature(4, 2)
	f.Fuzz(func(t *testing.T, seed uint64, knobs uint8, depth uint8) {
		rng := random.New(seed)
		st := interaction.NewStore(sig)
		w := random.Conservative()
		w.Coreg = int(knobs & 1)
		w.Sync = int(knobs >> 1 & 1)
		msgs := random.DefaultMessages()
		msgs.Synch = int(knobs >> 2 & 3)
		msgs.Broadcast = int(knobs >> 4 & 1)
		term := random.Interaction(st, rng, random.Params{MaxDepth: 2 + int(depth%3), MinActions: 3, Weights: w, Messages: msgs, Compilable: true})
		for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
			rts := []*rewrite.Analyzer{
				rewrite.New(st, term, rewrite.Options{Mode: mode, POR: true, LOC: true}),
				rewrite.New(st, term, rewrite.Options{Mode: mode, MaxNodes: 1 << 18}),
			}
			var es []*Engine
			for _, eng := range engines {
				opt := eng.opt
				opt.Mode = mode
				// Bounded, so that no input takes seconds to build the
				// checkers' pruning (an input took 4 s unbounded, 2.4 s
				// now); past the bound, an Inconc.
				opt.MaxMemory = 16 << 20
				e, err := New(st, term, opt)
				if err != nil {
					t.Fatalf("%s: %v", st.Format(term), err)
				}
				es = append(es, e)
			}
			for k := range 8 {
				mt, ok := draw(st, term, rng, k)
				if !ok {
					continue
				}
				// Every engine and configuration must agree; on a
				// disagreement the oracle names the wrong ones.
				var names []string
				var got []verdict.Verdict
				for i, rt := range rts {
					names = append(names, fmt.Sprintf("runtime(config %d)", i))
					got = append(got, rt.Check(&mt).Verdict)
				}
				for i, e := range es {
					names = append(names, engines[i].name)
					got = append(got, e.Check(&mt).Verdict)
				}
				// An Inconc (a limit, such as the memory bound below)
				// agrees with any verdict: the oracle, exponential, is
				// asked only when two verdicts decided differ.
				agree, decided := true, verdict.Inconc
				for _, v := range got {
					if v != verdict.Inconc {
						agree = agree && (decided == verdict.Inconc || v == decided)
						decided = v
					}
				}
				if agree {
					continue
				}
				want := oracleVerdict(st, term, mt, mode)
				for i, v := range got {
					if v != want && v != verdict.Inconc {
						t.Errorf("%s on %s %s: %s gives %s, oracle %s", st.Format(term), mt.Format(sig), mode, names[i], v, want)
					}
				}
			}
		}
	})
}

// oracleVerdict is the reference oracle's verdict. Its traces are bounded
// by the multi-trace's length plus 8 events, exact for the loop-free terms
// and the short witnesses of these tests.
func oracleVerdict(st *interaction.Store, term interaction.Term, mt multitrace.MultiTrace, mode verdict.Mode) verdict.Verdict {
	switch {
	case reference.Accepts(st, term, mt):
		return verdict.Pass
	case mode == verdict.Prefix && reference.IsMultiPrefix(st, term, mt, mt.Len()+8):
		return verdict.WeakPass
	}
	return verdict.Fail
}

// draw returns the k-th kind of random multi-trace of term.
func draw(st *interaction.Store, term interaction.Term, rng *rand.Rand, k int) (multitrace.MultiTrace, bool) {
	sig := st.Signature()
	tr, err := gen.Accepted(st, term, rng, gen.Options{MaxLength: 12})
	if err != nil {
		return multitrace.MultiTrace{}, false
	}
	var part interaction.Locations
	switch rng.IntN(4) {
	case 0:
		part, _ = interaction.ParseLocations(sig, "l1,l2;l3,l4")
	case 1:
		part, _ = interaction.ParseLocations(sig, "l1,l3;l2")
	case 2:
		part = interaction.TrivialLocations(sig)
	default:
		part = interaction.DiscreteLocations(sig)
	}
	mt := gen.Project(tr, part)
	switch k {
	case 0:
		return mt, true
	case 1, 2:
		return gen.Prefix(mt, rng), true
	case 3:
		return gen.Noise(sig, mt, rng), true
	case 4:
		return gen.Noise(sig, gen.Prefix(mt, rng), rng), true
	case 5:
		return gen.SwapActions(mt, rng)
	case 6:
		return gen.Slice(mt, rng), true
	default:
		other, err := gen.Accepted(st, term, rng, gen.Options{MaxLength: 12})
		if err != nil {
			return mt, true
		}
		return gen.SwapComponents(mt, gen.Project(other, part), rng)
	}
}
