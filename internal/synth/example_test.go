package synth_test

import (
	"errors"
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/synth"
)

func ExampleCompile() {
	sig, _ := interaction.NewSignature([]string{"a", "b"}, []string{"m", "n"}, nil)
	st := interaction.NewStore(sig)
	// a sends m to b, then b may answer n, any number of times.
	root := st.MustParseTerm("loopS(seq(strict(a!m,b?m),alt(strict(b!n,a?n),∅)))")
	a, err := synth.Compile(st, root, synth.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.NFA)
	fmt.Println(a.NFA.AcceptsNames("a!m", "b?m", "b!n", "a?n"), a.NFA.AcceptsNames("a!m"))

	// A loop whose iterations pile up has no finite automaton.
	_, err = synth.Compile(st, st.MustParseTerm("loopW(strict(a!m,b?m))"), synth.Options{})
	var le *synth.LoopError
	fmt.Println(errors.As(err, &le), le.Op)
	// Output:
	// init=0 final=0,2 0-a!m->1 1-b?m->2 2-a!m->1 2-b!n->3 3-a?n->0
	// true false
	// true loopW
}
