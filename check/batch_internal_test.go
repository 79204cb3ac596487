package check

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
	judge := func(i int, s *session.Session, o *Outcome) {
		if s.Pending() || s.MT == nil {
			t.Errorf("%s judged unread", s.File)
		}
		log = append(log, "judge "+s.File)
		names = append(names, s.File)
		*o = Outcome{Index: i}
	}
	run(slices.Values(in), 1, judge, readAhead, readAlready, 0, func(*Outcome) {})
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

// TestRunBatches: with several workers, inputs handed over in batches
// (together) or alone come out in order, each outcome its own input's,
// however long each judgment takes and however slow emit is; no more than
// the window's inputs are taken and not yet emitted (4 a worker of those
// handed over alone, as before the batches).
func TestRunBatches(t *testing.T) {
	for _, c := range []struct {
		name      string
		jobs, n   int
		slowJudge func(i int) bool
		slowEmit  bool
		together  func(*int) bool
	}{
		{"cheap inputs", 2, 5000, func(int) bool { return false }, false, func(*int) bool { return true }},
		{"some slow judgments", 3, 3000, func(i int) bool { return i%97 == 0 }, false, func(p *int) bool { return *p%5 != 0 }},
		{"slow emit, full window", 2, 3000, func(int) bool { return false }, true, func(*int) bool { return true }},
		{"none together", 4, 500, func(i int) bool { return i%3 == 0 }, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var taken, emitted, most atomic.Int64
			inputs := func(yield func(int) bool) {
				for i := range c.n {
					if n := taken.Add(1) - emitted.Load(); n > most.Load() {
						most.Store(n)
					}
					if !yield(i) {
						return
					}
				}
			}
			judge := func(i int, in *int, o *Outcome) {
				if *in != i {
					t.Errorf("input %d judged as %d", *in, i)
				}
				if c.slowJudge(i) {
					time.Sleep(200 * time.Microsecond)
				}
				*o = Outcome{Index: i, Meta: session.Meta{Line: *in}}
			}
			next := 0
			run(inputs, c.jobs, judge, nil, c.together, 0, func(o *Outcome) {
				emitted.Add(1)
				if o.Index != next || o.Line != next {
					t.Fatalf("outcome %d (input %d) emitted at %d", o.Index, o.Line, next)
				}
				next++
				if c.slowEmit && next%50 == 0 {
					time.Sleep(time.Millisecond)
				}
			})
			if next != c.n {
				t.Fatalf("%d outcomes of %d", next, c.n)
			}
			// The window: 4 inputs a worker handed over alone, or 64 times
			// as many cheap ones (and the one being taken).
			size := int64(4 * c.jobs * handInputs)
			if c.together == nil {
				size = int64(4 * c.jobs)
			}
			if most.Load() > size+1 {
				t.Errorf("%d inputs taken and not emitted, window %d", most.Load(), size)
			}
		})
	}
}
