package random

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

func TestSignature(t *testing.T) {
	sig := Signature(3, 2)
	if got := strings.Join(sig.Lifelines, ","); got != "l1,l2,l3" {
		t.Errorf("lifelines = %s", got)
	}
	if got := strings.Join(sig.Messages, ","); got != "m1,m2" {
		t.Errorf("messages = %s", got)
	}
}

// generate returns n formatted terms drawn from one generator.
func generate(seed uint64, n int, p Params) []string {
	st := interaction.NewStore(Signature(3, 3))
	rng := New(seed)
	var out []string
	for range n {
		out = append(out, st.Format(Interaction(st, rng, p)))
	}
	return out
}

func TestDeterministic(t *testing.T) {
	p := Params{MaxDepth: 5, MinActions: 4, Weights: All()}
	a, b := generate(7, 50, p), generate(7, 50, p)
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different terms")
	}
	if c := generate(8, 50, p); slices.Equal(a, c) {
		t.Fatal("different seeds, same terms")
	}
}

// walk calls f on every subterm of t with its depth.
func walk(st *interaction.Store, t interaction.Term, depth int, f func(t interaction.Term, depth int)) {
	f(t, depth)
	switch op := st.Op(t); {
	case op.IsLoop():
		walk(st, st.Left(t), depth+1, f)
	case op.IsBinary():
		walk(st, st.Left(t), depth+1, f)
		walk(st, st.Right(t), depth+1, f)
	}
}

func ops(st *interaction.Store, t interaction.Term) map[interaction.Op]int {
	n := map[interaction.Op]int{}
	walk(st, t, 0, func(t interaction.Term, _ int) { n[st.Op(t)]++ })
	return n
}

func TestParams(t *testing.T) {
	tests := []struct {
		name  string
		p     Params
		check func(st *interaction.Store, t interaction.Term) error
	}{
		{"min actions", Params{MaxDepth: 3, MinActions: 12}, func(st *interaction.Store, t interaction.Term) error {
			if n := st.NumActions(t); n < 12 {
				return fmt.Errorf("%d actions", n)
			}
			return nil
		}},
		{"compilable", Params{MaxDepth: 5, Weights: All(), Compilable: true}, func(st *interaction.Store, t interaction.Term) error {
			n := ops(st, t)
			if n[interaction.OpLoopH]+n[interaction.OpLoopW]+n[interaction.OpLoopP] > 0 {
				return fmt.Errorf("a loop other than loopS")
			}
			return nil
		}},
		{"no sync by default", Params{MaxDepth: 5}, func(st *interaction.Store, t interaction.Term) error {
			if ops(st, t)[interaction.OpSync] > 0 {
				return fmt.Errorf("a sync")
			}
			return nil
		}},
		{"only messages and par", Params{MaxDepth: 4, Weights: Weights{Message: 1, Par: 1},
			Messages: MessageKinds{Emission: 1}}, func(st *interaction.Store, t interaction.Term) error {
			for op := range ops(st, t) {
				if op != interaction.OpAct && op != interaction.OpPar {
					return fmt.Errorf("operator %s", op)
				}
			}
			return nil
		}},
		{"synch messages", Params{MaxDepth: 3, Weights: Weights{Message: 1, Seq: 1},
			Messages: MessageKinds{Synch: 1}}, func(st *interaction.Store, t interaction.Term) error {
			var err error
			walk(st, t, 0, func(t interaction.Term, _ int) {
				if st.Op(t) == interaction.OpAct && len(st.Action(t)) != 2 {
					err = fmt.Errorf("action %s is not a <synch> message", st.Action(t).Format(st.Signature()))
				}
			})
			return err
		}},
		{"depth", Params{MaxDepth: 3, Weights: Weights{Message: 1, Strict: 5, LoopW: 5}, KeepEmpty: true},
			func(st *interaction.Store, t interaction.Term) error {
				var err error
				walk(st, t, 0, func(t interaction.Term, d int) {
					// A message leaf below the last operator adds at most
					// two levels: strict(a!m, b?m).
					if d > 3+1 {
						err = fmt.Errorf("subterm at depth %d", d)
					}
				})
				return err
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := interaction.NewStore(Signature(3, 2))
			rng := New(1)
			for range 200 {
				term := Interaction(st, rng, tc.p)
				if err := tc.check(st, term); err != nil {
					t.Fatalf("%s: %v", st.Format(term), err)
				}
			}
		})
	}
}

func TestCoversOperators(t *testing.T) {
	st := interaction.NewStore(Signature(3, 2))
	rng := New(3)
	seen := map[interaction.Op]bool{}
	for range 300 {
		for op := range ops(st, Interaction(st, rng, Params{MaxDepth: 4, Weights: All()})) {
			seen[op] = true
		}
	}
	for op := interaction.OpAct; op <= interaction.OpLoopP; op++ {
		if !seen[op] {
			t.Errorf("operator %s never generated", op)
		}
	}
}
