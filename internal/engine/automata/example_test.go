package automata_test

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

func Example() {
	sig, _ := interaction.NewSignature([]string{"a", "b"}, []string{"m", "n"}, nil)
	st := interaction.NewStore(sig)
	// a sends m to b, then b answers n, any number of times.
	root := st.MustParseTerm("loopS(seq(strict(a!m,b?m),strict(b!n,a?n)))")
	e, err := automata.New(st, root, automata.Options{Mode: verdict.Accept})
	if err != nil {
		panic(err) // a *compile.LoopError outside the compiled sublanguage
	}
	// Each lifeline logs apart: a multi-trace of two components.
	for _, src := range []string{
		"{ [a] a!m.a?n.a!m.a?n ; [b] b?m.b!n.b?m.b!n }",
		// Each log is fine alone, but b answers twice to one m.
		"{ [a] a!m.a?n ; [b] b?m.b!n.b?m.b!n }",
		// a's log is wrong alone.
		"{ [a] a!m.a!m ; [b] b?m.b!n }",
	} {
		mt, err := multitrace.ParseResolve("mt.htf", []byte(src), sig)
		if err != nil {
			panic(err)
		}
		res := e.Check(mt)
		if res.Verdict == verdict.Pass {
			fmt.Println(res.Verdict)
			continue
		}
		fmt.Println(res.Verdict, res.Text())
	}
	// Output:
	// Pass
	// Fail CentralError
	// Fail LocalError: [a] cannot read event 2 (a!m), expected a?n
}
