package logs_test

import (
	"fmt"
	"os"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/spec"
)

// Scan the ABP example's event log: its events, as they are read.
func Example() {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		panic(err)
	}
	in, err := logs.Open("../testdata/logs/abp.jsonl", logs.Auto, logs.Options{Sig: sp.Sig})
	if err != nil {
		panic(err)
	}
	defer in.Close()
	var ids []string
	events := map[string]int{}
	stats, err := in.Scan(func(e logs.Event) {
		if events[e.Session] == 0 {
			ids = append(ids, e.Session)
		}
		events[e.Session]++
	}, func(err error) { fmt.Fprintln(os.Stderr, err) })
	if err != nil {
		panic(err)
	}
	for _, id := range ids {
		fmt.Printf("%s: %d events\n", id, events[id])
	}
	fmt.Printf("%s, %+v\n", in.Format, stats)
	// Output:
	// trace1: 250 events
	// trace1_error_1: 251 events
	// trace2: 500 events
	// jsonl, {Sessions:0 Events:1001 Ignored:0 Malformed:0 Unkinded:0}
}
