package reference_test

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/multitrace"
)

func Example() {
	sig, _ := interaction.NewSignature([]string{"l1", "l2"}, []string{"m"}, nil)
	st := interaction.NewStore(sig)
	t := st.MustParseTerm("seq(strict(l1!m,l2?m),alt(strict(l2!m,l1?m),∅))")
	for _, tr := range reference.Traces(st, t, 4).All() {
		fmt.Println(tr.Format(sig))
	}
	mt, _ := multitrace.ParseResolve("ex.htf", []byte("{ [l1] ; [l2] l2?m }"), sig)
	fmt.Println(reference.Accepts(st, t, *mt), reference.IsMultiPrefix(st, t, *mt, st.NumActions(t)))
	// Output:
	// l1!m.l2?m
	// l1!m.l2?m.l2!m.l1?m
	// false true
}
