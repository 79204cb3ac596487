package gen_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
)

func Example() {
	sig, _ := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	st := interaction.NewStore(sig)
	t := st.MustParseTerm("seq(loopW(strict(a!m,b?m)),strict(b!n,c?n))")
	rng := rand.New(rand.NewPCG(1, 2))
	tr, err := gen.Accepted(st, t, rng, gen.Options{MaxLength: 8})
	if err != nil {
		panic(err)
	}
	part, _ := interaction.ParseLocations(sig, "a,b;c")
	mt := gen.Project(tr, part)
	fmt.Print(string(mt.Format(sig)))
	pre := gen.Prefix(mt, rng)
	fmt.Print(string(pre.Format(sig)))
	// Output:
	// {
	// 	[a,b] a!m.b?m.a!m.b?m.a!m.b?m.b!n;
	// 	[c] c?n
	// }
	// {
	// 	[a,b] a!m;
	// 	[c] ;
	// }
}
