package session_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// TestEventEncoding: a truncated or extended encoding is an error, never a
// panic nor a wrong event.
func TestEventEncoding(t *testing.T) {
	var evs []logs.Event
	log := "{\"session\":\"s1\",\"action\":\"a!m\",\"time\":\"2025-01-01T00:00:00.5Z\"}\n{\"session\":\"s1\",\"action\":\"z!m\"}\n"
	if _, err := logs.Scan("x.jsonl", strings.NewReader(log), logs.JSONL, logs.Options{Sig: testSig(t)},
		func(e logs.Event) { evs = append(evs, e) }, nil); err != nil || len(evs) != 2 {
		t.Fatal(evs, err)
	}
	for _, e := range evs {
		b := session.AppendEvent(nil, e)
		for n := range len(b) {
			if d, err := session.DecodeEvent(b[:n]); err == nil {
				t.Errorf("%+v: %d of %d bytes decoded as %+v", e, n, len(b), d)
			}
		}
		if _, err := session.DecodeEvent(append(b, 0)); err == nil {
			t.Errorf("%+v: a byte too many decoded", e)
		}
	}
}

// FuzzEventBinary: any bytes decode as an event or an error, never a
// panic, and what decodes encodes back to the same bytes (the events
// ivc-beam moves between machines, spans held for pairing among them).
func FuzzEventBinary(f *testing.F) {
	sig := testSig(f)
	for _, in := range []string{
		otlpLine("a", linkedSpan(t1, c1, "", "3", "HTTP GET", 10, "", "")),
		otlpLine("b", linkedSpan(t1, s1, c1, "4", "n", 10, dest("m"), `{"traceId":"`+t1+`","spanId":"`+p1+`"}`)),
		`{"session":"s","action":"a!m","seq":1}`,
	} {
		logs.Scan("f", strings.NewReader(in), logs.Auto, logs.Options{Sig: sig}, func(e logs.Event) {
			f.Add(session.AppendEvent(nil, e))
		}, nil)
	}
	// Read strictly, a CLIENT span alone in its file: its event marked
	// unpaired (logs.Event.Unpaired).
	logs.Scan("f", strings.NewReader(otlpLine("a", linkedSpan(t1, c1, "", "3", "n", 10, "", ""))), logs.Auto, logs.Options{Sig: sig, Strict: true}, func(e logs.Event) {
		if !e.Unpaired {
			f.Errorf("%+v: not marked unpaired", e)
		}
		f.Add(session.AppendEvent(nil, e))
	}, nil)
	f.Fuzz(func(t *testing.T, in []byte) {
		e, err := session.DecodeEvent(in)
		if err != nil {
			return
		}
		out := session.AppendEvent(nil, e)
		if d, err := session.DecodeEvent(out); err != nil || !reflect.DeepEqual(d, e) {
			t.Errorf("%+v encodes as %x, which decodes as %+v (%v)", e, out, d, err)
		}
	})
}
