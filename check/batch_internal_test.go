package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
)

// TestReadAhead checks the reading ahead of one worker: .htf sessions read
// in batches of aheadSessions, or fewer when they hold aheadEvents events,
// before the first of the batch is judged; a session already read (of a
// log) judged after the batch before it and before any later one is read;
// every session judged once, in order, read.
func TestReadAhead(t *testing.T) {
	var log []string
	later := func(name string, events int) session.Session {
		return session.Later(session.Meta{File: name, HTF: true}, func() (*multitrace.MultiTrace, error) {
			log = append(log, "read "+name)
			return &multitrace.MultiTrace{Components: []multitrace.Component{{Trace: make([]interaction.MultiAction, events)}}}, nil
		})
	}
	var in []session.Session
	for i := range 40 {
		in = append(in, later(fmt.Sprint("f", i), 1))
	}
	in = append(in, session.Session{Meta: session.Meta{File: "log"}, MT: &multitrace.MultiTrace{}})
	in = append(in, later("big", aheadEvents), later("g", 1))
	var names []string
	judge := func(i int, s session.Session) Outcome {
		if s.Pending() || s.MT == nil {
			t.Errorf("%s judged unread", s.File)
		}
		log = append(log, "judge "+s.File)
		names = append(names, s.File)
		return Outcome{Index: i}
	}
	run(slices.Values(in), 1, judge, readAhead, 0, func(Outcome) {})
	var want []string
	for i := range 40 {
		want = append(want, fmt.Sprint("f", i))
	}
	want = append(want, "log", "big", "g")
	if !slices.Equal(names, want) {
		t.Fatalf("judged %v, want %v", names, want)
	}
	// The first batch: 32 reads, then 32 judgments; then the 8 left, read
	// before the log's session; "big" alone fills a batch.
	var wantLog []string
	step := func(verb string, from, to int) {
		for i := from; i < to; i++ {
			wantLog = append(wantLog, fmt.Sprint(verb, " f", i))
		}
	}
	step("read", 0, aheadSessions)
	step("judge", 0, aheadSessions)
	step("read", aheadSessions, 40)
	step("judge", aheadSessions, 40)
	wantLog = append(wantLog, "judge log", "read big", "judge big", "read g", "judge g")
	if !slices.Equal(log, wantLog) {
		t.Errorf("reads and judgments:\n%s\nwant\n%s", strings.Join(log, "\n"), strings.Join(wantLog, "\n"))
	}
}
