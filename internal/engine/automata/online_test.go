package automata

import (
	"math/rand/v2"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// TestOnline: on random traces of each location, Step gets stuck exactly
// when Check finds the location's local error, and StepSub empties its set
// exactly when no trace of the location's DFA holds the events read as a
// subsequence (a search of the product of the DFA and the positions in the
// trace).
func TestOnline(t *testing.T) {
	sig, _ := interaction.NewSignature([]string{"a", "b"}, []string{"m", "n"}, nil)
	for _, src := range []string{
		"loopS(seq(strict(a!m,b?m),strict(b!n,a?n)))",
		"seq(strict(a!m,b?m),alt(strict(b!n,a?n),strict(b!m,a?m)),strict(a!n,b?n))",
	} {
		st := interaction.NewStore(sig)
		e, err := New(st, st.MustParseTerm(src), Options{Mode: verdict.Prefix})
		if err != nil {
			t.Fatal(err)
		}
		locs := interaction.Locations{interaction.LifelinesOf(0), interaction.LifelinesOf(1)}
		o, err := e.Online(locs)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		stucks, empties := 0, 0
		for range 2000 {
			i := rng.IntN(2)
			var acts []interaction.Action
			for range rng.IntN(6) {
				acts = append(acts, interaction.MakeAction(interaction.LifelineID(i), interaction.Kind(rng.IntN(2)), interaction.MessageID(rng.IntN(2))))
			}
			q, stuck := o.Start(i), -1
			set, tmp := make([]uint64, o.SubWords(i)), make([]uint64, o.SubWords(i))
			o.StartSub(i, set)
			sub := true
			for k, a := range acts {
				if q = o.Step(i, q, a); q < 0 && stuck < 0 {
					stuck = k
				}
				sub = o.StepSub(i, set, tmp, a)
			}
			mt := multitrace.MultiTrace{Components: make([]multitrace.Component, 2)}
			for l := range mt.Components {
				mt.Components[l].Lifelines = locs[l]
			}
			for _, a := range acts {
				mt.Components[i].Trace = append(mt.Components[i].Trace, interaction.MultiAction{a})
			}
			res := e.Check(&mt)
			if (stuck >= 0) != (res.Verdict == verdict.Fail && res.Reason == verdict.LocalError) {
				t.Errorf("%s: %v: stuck at %d, Check %s", src, acts, stuck, res.Text())
			}
			if want := holds(o, i, acts); sub != want {
				t.Errorf("%s: %v: StepSub %v, a trace holds it: %v", src, acts, sub, want)
			}
			if stuck < 0 && !sub {
				t.Errorf("%s: %v: read, but StepSub is empty", src, acts)
			}
			if stuck >= 0 {
				stucks++
			}
			if !sub {
				empties++
			}
		}
		t.Logf("%s: %d of 2000 stuck, %d with no trace holding them", src, stucks, empties)
		if stucks == 0 || empties == 0 || empties == stucks {
			t.Errorf("%s: the random traces do not tell the walks apart", src)
		}
	}
}

// holds reports whether some trace of location i's DFA holds acts as a
// subsequence: a search of the pairs (state, events of acts matched).
func holds(o *Online, i int, acts []interaction.Action) bool {
	p := &o.l.c.Tables().Projs[i]
	if p.Start < 0 {
		return len(acts) == 0
	}
	type node struct{ q, k int }
	seen := map[node]bool{{int(p.Start), 0}: true}
	todo := []node{{int(p.Start), 0}}
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if n.k == len(acts) {
			return true
		}
		for x := range p.K {
			r := int(p.Next[n.q*p.K+x])
			if r < 0 {
				continue
			}
			next := []node{{r, n.k}}
			if o.letter(i, acts[n.k]) == x {
				next = append(next, node{r, n.k + 1})
			}
			for _, m := range next {
				if !seen[m] {
					seen[m] = true
					todo = append(todo, m)
				}
			}
		}
	}
	return false
}
