package session_test

import (
	"fmt"
	"os"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// Read the ABP example's event log and judge each session.
func Example() {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		panic(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		panic(err)
	}
	sessions, stats, err := session.Read("../testdata/logs/abp.jsonl", logs.Auto, logs.Options{Sig: sp.Sig},
		func(err error) { fmt.Fprintln(os.Stderr, err) })
	if err != nil {
		panic(err)
	}
	for _, s := range sessions {
		if s.Err != nil {
			fmt.Println(s.Err)
			continue
		}
		fmt.Printf("%s (line %d, %d events): %s\n", s.ID, s.Line, s.Events, c.Check(s.MT).Verdict)
	}
	fmt.Printf("%+v\n", stats)
	// Output:
	// trace1 (line 1, 250 events): WeakPass
	// trace1_error_1 (line 2, 251 events): Fail
	// trace2 (line 3, 500 events): WeakPass
	// {Sessions:3 Events:1001 Ignored:0 Malformed:0 Unkinded:0}
}
