package multitrace_test

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

func Example() {
	sf, err := interaction.ParseHSF("spec.hsf", []byte("@message{m;n} @lifeline{a;b;c;d} @gate{g}"))
	if err != nil {
		panic(err)
	}
	sig, _, err := sf.Signature("spec.hsf") // no warnings: no name declared twice
	if err != nil {
		panic(err)
	}
	src := []byte(`{
	[a,b] a!m.{a?n,b!n};  /* a and b share a clock */
	[#any] c?m
}`)
	mt, err := multitrace.ParseResolve("run.htf", src, sig)
	if err != nil {
		panic(err)
	}
	for _, c := range mt.Components {
		fmt.Printf("[%s] %d events\n", c.Lifelines.Format(sig), len(c.Trace))
	}
	fmt.Printf("%s", mt.Format(sig))

	_, err = multitrace.ParseResolve("bad.htf", []byte("{ [a] a!m.b?m }"), sig)
	fmt.Println(err)
	// Output:
	// [a,b] 2 events
	// [c] 1 events
	// [d] 0 events
	// {
	// 	[a,b] a!m.{a?n,b!n};
	// 	[c] c?m;
	// 	[d] ;
	// }
	// bad.htf:1:11: b?m is on b, outside component [a]
}

func ExampleFormat() {
	f, err := multitrace.Parse("legacy.htf", []byte("[#all] a!m1.b?m1 ; [c] /* unobserved */ ;"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s", multitrace.Format(f))
	// Output:
	// {
	// 	[#all] a!m1.b?m1;
	// 	[c] ;
	// }
}
