package engine_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/nfa/engine"
)

// TestProbeFreeMoves: in prefix mode the probe takes the free moves of a
// consumed location where it is stuck, as the search does: with a consumed
// (here empty) first location, b, which only an a of it enables, is read;
// the multi-trace is a multi-prefix, decided without the search. With 0,
// 70 and 140 more states, the three probes (automata of one, two and more
// words of states) do it.
func TestProbeFreeMoves(t *testing.T) {
	for _, extra := range []int{0, 70, 140} {
		b := nfa.NewBuilder()
		a, bb, c := b.Symbol("a"), b.Symbol("b"), b.Symbol("c")
		q0, q1, q2 := b.State(false), b.State(false), b.State(true)
		b.Initial(q0)
		b.Transition(q0, a, q1)
		b.Transition(q1, bb, q2)
		// A chain of c's from the initial state, for the states.
		prev := q0
		for i := range extra {
			q := b.State(i == extra-1)
			b.Transition(prev, c, q)
			prev = q
		}
		n := b.Build().Trim()
		locs, err := nfa.PartitionSymbols(n.Symbols(), [][]string{{"a", "c"}, {"b"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		chk, err := nfa.NewChecker(n, locs, nfa.CheckerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mt := [][]engine.Action{{}, {0}} // L1 empty, L2: b
		if !chk.Engine().Probe(mt, true) {
			t.Errorf("%d states: the probe does not decide {L1: ; L2: b} in prefix mode", n.NumStates())
		}
		if r := chk.CheckAS(mt, nfa.Prefix); r.Verdict != nfa.WeakPass {
			t.Errorf("%d states: %v, want WeakPass", n.NumStates(), r.Verdict)
		}
	}
}

// TestProbeSound: on random automata and multi-traces, what the probe
// decides the search decides too: a multi-prefix in prefix mode, an
// accepted multi-trace in accept mode.
func TestProbeSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 27))
	decided := 0
	for range 400 {
		c := randomChecker(t, rng, 1+rng.IntN(100), 2+rng.IntN(5), 4, nfa.CheckerOptions{})
		if c == nil {
			continue
		}
		tb := c.Tables()
		for range 10 {
			mt := make([][]engine.Action, tb.NumLocations())
			for i := range mt {
				mt[i] = randomTrace(rng, &tb.Projs[i], 6)
			}
			for _, mode := range []engine.Mode{engine.Accept, engine.Prefix} {
				if !c.Engine().Probe(mt, mode == engine.Prefix) {
					continue
				}
				decided++
				if !c.Engine().Search(mt, mode == engine.Prefix) {
					t.Fatalf("%v %s: the probe decides it, the search does not", mt, mode)
				}
			}
		}
	}
	if decided < 100 {
		t.Errorf("the probe decided %d multi-traces, want many", decided)
	}
}

// TestBackRows: on random automata of one word of states or more and
// multi-traces of one to five locations, of different lengths and with
// letters outside the alphabets, the backward rows of the search are
// those of the backward DFAs read one letter at a time (bwdRows walks two
// locations together on automata of one word, the longer trace's first
// events alone, and an odd location alone).
func TestBackRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 43))
	walked := 0
	for range 300 {
		c := randomChecker(t, rng, 1+rng.IntN(100), 2+rng.IntN(6), 5, nfa.CheckerOptions{})
		if c == nil {
			continue
		}
		tb := c.Tables()
		if tb.Projs[0].Back == nil {
			continue
		}
		for range 5 {
			mt := make([][]engine.Action, tb.NumLocations())
			for i := range mt {
				mt[i] = randomTrace(rng, &tb.Projs[i], 12)
				if len(mt[i]) > 0 && rng.IntN(4) == 0 { // far outside
					mt[i][rng.IntN(len(mt[i]))] = tb.Projs[i].Base + engine.Action(tb.Projs[i].K+1+rng.IntN(3)) - engine.Action(rng.IntN(2)*(tb.Projs[i].K+4))
				}
			}
			for _, prefix := range []bool{false, true} {
				got, want := c.Engine().BackRows(mt, prefix)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%d states, %v (prefix %v): rows %v, want %v", tb.NumStates, mt, prefix, got, want)
				}
				walked++
			}
		}
	}
	if walked < 500 {
		t.Errorf("%d multi-traces walked, want many", walked)
	}
}
