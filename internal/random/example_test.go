package random_test

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
)

func ExampleInteraction() {
	st := interaction.NewStore(random.Signature(3, 2))
	st.SetCanonical(false) // print the terms as drawn
	rng := random.New(42)
	for range 3 {
		t := random.Interaction(st, rng, random.Params{MaxDepth: 3, MinActions: 4})
		fmt.Println(st.Format(t))
	}
	// Output:
	// seq(loopW(alt(l2?m1,strict(l1!m2,l3?m2))),seq(alt(l3?m1,l2!m1),seq(strict(l3!m1,l2?m1),strict(l3!m1,l1?m1))))
	// loopW(seq(strict(l1!m1,l2?m1),strict(l3!m2,l2?m2)))
	// seq(loopH(seq(strict(l2!m2,l3?m2),strict(l1!m2,l2?m2))),coreg(l1,l2,l3)(alt(l1!m1,l3?m1),strict(l2!m2,l3?m2)))
}
