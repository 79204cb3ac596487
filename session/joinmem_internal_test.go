package session

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
)

// TestJoinerAccounting checks that what a Joiner counts against its
// budget (gatherer.bytes) is what it holds on the heap, within a factor:
// the budget then bounds its memory. Measured (at the sweep's sizes): the
// live heap is 0.91 times the count for one-event sessions (0.84 before
// the sessions' states grew by doubling), 0.91 times for a few sessions
// of many events (the process's RSS may reach twice the live heap, as the
// collector lets it grow).
func TestJoinerAccounting(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"S", "R"}, []string{"d"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name               string
		sessions, perEvent int
	}{
		{"one-event sessions", 50_000, 1},
		{"long sessions", 10, 5_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testutil.Sweep() { // the sizes the ratios above were measured at
				c.sessions, c.perEvent = 4*c.sessions, 2*c.perEvent
			}
			var log bytes.Buffer
			for i := range c.sessions {
				for k := range c.perEvent {
					fmt.Fprintf(&log, `{"session":"session-%d","action":"S!d","seq":%d}`+"\n", i, k)
				}
			}
			opt := logs.Options{Sig: sig}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			j, err := NewJoiner(opt, 0, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			in, err := logs.NewInput("log.jsonl", bytes.NewReader(log.Bytes()), logs.JSONL, opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := j.Read(in, func(err error) { t.Error(err) }); err != nil {
				t.Fatal(err)
			}
			in = nil
			runtime.GC()
			runtime.ReadMemStats(&after)
			heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
			ratio := heap / float64(j.g.bytes)
			t.Logf("counted %d bytes, heap grew by %.0f: %.2f times (%d sessions, room for %d)", j.g.bytes, heap, ratio, len(j.g.sess), cap(j.g.sess))
			if ratio < 0.5 || ratio > 2 {
				t.Errorf("the heap holds %.2f times what the joiner counts (want 0.5 to 2)", ratio)
			}
			runtime.KeepAlive(j)
			runtime.KeepAlive(&log)
		})
	}
}
