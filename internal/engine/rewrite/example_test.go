package rewrite_test

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// The runtime engine answers for the full language: here a loopH (a loop
// whose iterations may overlap, not regular) that the automata engine
// refuses.
func Example() {
	sig, _ := interaction.NewSignature([]string{"a", "b"}, []string{"m", "n"}, nil)
	st := interaction.NewStore(sig)
	// a sends m to b any number of times, the messages in flight together;
	// then b answers n.
	root := st.MustParseTerm("seq(loopH(strict(a!m,b?m)),strict(b!n,a?n))")
	for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
		opts := rewrite.DefaultOptions()
		opts.Mode = mode
		a := rewrite.New(st, root, opts)
		for _, src := range []string{
			"{ [a] a!m.a!m.a?n ; [b] b?m.b?m.b!n }",
			// b has not answered yet: a multi-prefix only.
			"{ [a] a!m.a!m ; [b] b?m }",
			// b answers before it received m.
			"{ [a] a!m ; [b] b!n.b?m }",
		} {
			mt, err := multitrace.ParseResolve("mt.htf", []byte(src), sig)
			if err != nil {
				panic(err)
			}
			res := a.Check(mt) // an Analyzer and its Store belong to one goroutine
			fmt.Printf("%s: %s\n", mode, res.Verdict)
		}
	}
	// Output:
	// accept: Pass
	// accept: Fail
	// accept: Fail
	// prefix: Pass
	// prefix: WeakPass
	// prefix: Fail
}
