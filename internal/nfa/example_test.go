package nfa_test

import (
	"fmt"

	"github.com/ivc-project/ivc/internal/nfa"
)

func Example() {
	b := nfa.NewBuilder()
	a, m := b.Symbol("a!m"), b.Symbol("b?m")
	q0, q1, q2, q3 := b.State(false), b.State(false), b.State(false), b.State(true)
	b.Initial(q0)
	// a!m.b?m reached twice: the two middle states have the same future.
	b.Transition(q0, a, q1)
	b.Transition(q0, a, q2)
	b.Transition(q1, m, q3)
	b.Transition(q2, m, q3)
	n := b.Build()
	fmt.Println(n)
	fmt.Println(n.AcceptsNames("a!m", "b?m"), n.AcceptsNames("a!m"))
	fmt.Println(n.Reduce())
	d, err := n.Determinize(1 << 20)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Minimize())
	// Output:
	// init=0 final=3 0-a!m->1 0-a!m->2 1-b?m->3 2-b?m->3
	// true false
	// init=0 final=2 0-a!m->1 1-b?m->2
	// init=0 final=2 0-a!m->1 1-b?m->2
}
