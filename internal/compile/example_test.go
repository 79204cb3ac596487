package compile_test

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/compile"
	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/verdict"
)

func Example() {
	sig, _ := interaction.NewSignature([]string{"a", "b"}, []string{"m"}, nil)
	st := interaction.NewStore(sig)
	// The caller that has the interaction compiles it...
	e, err := automata.New(st, st.MustParseTerm("loopS(strict(a!m,b?m))"), automata.Options{Mode: verdict.Accept})
	if err != nil {
		panic(err)
	}
	// ...and builds the checker of its locations: here one per lifeline.
	c, err := e.Checker([]interaction.Lifelines{interaction.LifelinesOf(0), interaction.LifelinesOf(1)})
	if err != nil {
		panic(err)
	}
	files, err := compile.Generate(compile.Config{Package: "ping", Source: "ping.hsf", Checker: c,
		Lifelines: sig.Lifelines, Messages: sig.Messages, Locations: [][]int{{0}, {1}}})
	if err != nil {
		panic(err)
	}
	// compile.WriteDir(dir, "ping", files, false) would write them.
	engine := 0
	for _, f := range files {
		if strings.HasPrefix(f.Name, "engine_") {
			engine++ // package internal/nfa/engine's files, copied
			continue
		}
		fmt.Println(f.Name, compile.IsGenerated(f.Data))
	}
	fmt.Println(engine > 0)
	// Output:
	// verifier.go true
	// verifier_htf.go true
	// verifier_jsonl.go true
	// verifier_tables.go true
	// verifier_example_test.go true
	// true
}
