package session_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// joinLog is a JSON Lines log of sessions of perSession events each, over
// the lifelines of sig, sessions interleaved by tens.
func joinLog(sig *interaction.Signature, sessions, perSession int) []byte {
	var b bytes.Buffer
	for base := 0; base < sessions; base += 10 {
		for e := range perSession {
			for s := base; s < min(base+10, sessions); s++ {
				l := sig.Lifelines[(s+e)%len(sig.Lifelines)]
				fmt.Fprintf(&b, `{"session":"s%d","action":"%s!%s","seq":%d}`+"\n", s, l, sig.Messages[0], e)
			}
		}
	}
	return b.Bytes()
}

// BenchmarkJoinHeld measures what a Joiner holds in memory once it has
// read a log, per event (B/event) and per session (B/session), and its
// reading speed; lifelines=100 checks that a session holds nothing per
// location (sessions are sparse).
func BenchmarkJoinHeld(b *testing.B) {
	for _, nl := range []int{3, 100} {
		b.Run(fmt.Sprintf("lifelines=%d", nl), func(b *testing.B) {
			var names []string
			for i := range nl {
				names = append(names, fmt.Sprintf("l%d", i))
			}
			sig, err := interaction.NewSignature(names, []string{"m"}, nil)
			if err != nil {
				b.Fatal(err)
			}
			const sessions, per = 20000, 10
			data := joinLog(sig, sessions, per)
			held := joinHeld(b, logs.Options{Sig: sig}, "bench.jsonl", logs.JSONL, data)
			b.ReportMetric(float64(held)/(sessions*per), "B/event")
			b.ReportMetric(float64(held)/sessions, "B/session")
			b.ReportMetric(float64(b.N*sessions*per)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkJoinHeldSpans measures what a Joiner holds per span left
// without a partner in its file (a run split by service: each call's
// CLIENT span in one file, its SERVER span in another), held with what
// pairs it at assembly: one OTLP file of such spans, half CLIENT, half
// SERVER whose parents are elsewhere.
func BenchmarkJoinHeldSpans(b *testing.B) {
	sig, err := interaction.NewSignature([]string{"a", "b"}, []string{"m"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	const sessions, per = 20000, 10
	var data bytes.Buffer
	for s := range sessions {
		var spans []string
		for e := range per {
			kind, parent := "3", ""
			if e%2 == 1 {
				kind, parent = "2", fmt.Sprintf("%016x", int64(s*per+e)+1<<40)
			}
			spans = append(spans, fmt.Sprintf(`{"traceId":"%032x","spanId":"%016x","parentSpanId":"%s","name":"m","kind":%s,"startTimeUnixNano":"%d"}`,
				s+1, s*per+e+1, parent, kind, 1e9+e))
		}
		fmt.Fprintf(&data, `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},"scopeSpans":[{"spans":[%s]}]}]}`+"\n",
			strings.Join(spans, ","))
	}
	held := joinHeld(b, logs.Options{Sig: sig}, "bench.json", logs.OTLP, data.Bytes())
	b.ReportMetric(float64(held)/(sessions*per), "B/event")
	b.ReportMetric(float64(b.N*sessions*per)/b.Elapsed().Seconds(), "events/s")
}

// joinHeld reads data into a Joiner b.N times and returns the bytes it
// held once it had read it.
func joinHeld(b *testing.B, opt logs.Options, name string, f logs.Format, data []byte) (held uint64) {
	b.ResetTimer()
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		j, err := session.NewJoiner(opt, 0, "")
		if err != nil {
			b.Fatal(err)
		}
		in, err := logs.NewInput(name, bytes.NewReader(data), f, opt)
		if err != nil {
			b.Fatal(err)
		}
		if st, err := j.Read(in, nil); err != nil || st.Events == 0 || st.Ignored > 0 {
			b.Fatal(st, err)
		}
		b.StopTimer()
		in = nil
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(j)
		b.StartTimer()
	}
	return held
}
