package check_test

import (
	"fmt"
	"path/filepath"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/spec"
)

// A batch: the shipped example of the alternating bit protocol, its
// multi-traces checked by two workers, the outcomes in input order.
func Example() {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		panic(err) // a *syntax.Error at the file:line:col of the mistake
	}
	c, err := check.New(sp, check.DefaultOptions()) // prefix mode, engine auto
	if err != nil {
		panic(err)
	}
	// The interaction compiles: the automata engine answers. In prefix
	// mode, a multi-trace that could still be completed into an accepted
	// one is a WeakPass.
	fmt.Println("engine:", c.Engine())
	traces, _ := filepath.Glob("../testdata/abp/traces/*.htf")
	c.Run(check.Files(c, traces), check.RunOptions{Jobs: 2}, func(o check.Outcome) {
		if o.Err != nil {
			fmt.Println(filepath.Base(o.File), o.Err)
			return
		}
		line := fmt.Sprint(filepath.Base(o.File), " ", o.Result.Verdict)
		if text := o.Result.Text(); text != "" {
			line += ": " + text
		}
		fmt.Println(line)
	})
	// Output:
	// engine: automata
	// trace1.htf WeakPass
	// trace1_error_1.htf Fail: LocalError: [S,K,L,R] cannot read event 251 (R!zero), expected L!one R!ce
	// trace2.htf WeakPass
}
