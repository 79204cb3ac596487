package logs_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// checkScan reads in again with Scan, sends every event through its binary
// encoding, groups the events by session, shuffles each group, assembles
// it, and checks that this gives what Read gave: sessions, stats and
// reports (the way a pipeline reads a log, against the way ivc analyze
// does).
func checkScan(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options, want []logs.Session, wantStats logs.Stats, wantReports []string) {
	t.Helper()
	var reports []string
	groups := map[string][]logs.Event{}
	var order []string // the sessions, in order of first event
	st, err := logs.Scan(name, bytes.NewReader(in), f, opt, func(e logs.Event) {
		b, err := e.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var d logs.Event
		if err := d.UnmarshalBinary(b); err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
		if !reflect.DeepEqual(d, e) {
			t.Fatalf("event %+v decodes as %+v", e, d)
		}
		if _, ok := groups[e.Session]; !ok {
			order = append(order, e.Session)
		}
		groups[e.Session] = append(groups[e.Session], d)
	}, func(err error) { reports = append(reports, err.Error()) })
	if err != nil {
		t.Fatalf("Scan: %v, Read had none", err)
	}
	wantStats.Sessions = 0
	if st != wantStats {
		t.Errorf("Scan: stats %+v, Read %+v", st, wantStats)
	}
	if !slices.Equal(reports, wantReports) {
		t.Errorf("Scan reports:\n%s\nRead:\n%s", strings.Join(reports, "\n"), strings.Join(wantReports, "\n"))
	}
	a, err := logs.NewAssembler(opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(len(in)), 1))
	var got []logs.Session
	for _, id := range order {
		evs := groups[id]
		rng.Shuffle(len(evs), func(i, j int) { evs[i], evs[j] = evs[j], evs[i] })
		s, err := a.Assemble(name, id, evs)
		if err != nil {
			t.Fatalf("Assemble %q: %v", id, err)
		}
		got = append(got, s)
	}
	if len(got) != len(want) {
		t.Fatalf("Scan and Assemble: %d sessions, Read %d", len(got), len(want))
	}
	for i, s := range got {
		w := want[i]
		if s.File != w.File || s.ID != w.ID || s.Line != w.Line || s.Events != w.Events || s.Ignored != w.Ignored ||
			(s.Err == nil) != (w.Err == nil) || s.Err != nil && s.Err.Error() != w.Err.Error() || !reflect.DeepEqual(s.MT, w.MT) {
			t.Errorf("Scan and Assemble:\n%+v\nRead:\n%+v", s, w)
		}
	}
}

// TestAssembleErrors: events Scan cannot have given are refused.
func TestAssembleErrors(t *testing.T) {
	sig := testSig(t)
	a, err := logs.NewAssembler(logs.Options{Sig: sig})
	if err != nil {
		t.Fatal(err)
	}
	var evs []logs.Event
	_, err = logs.Scan("x.jsonl", strings.NewReader(`{"session":"s","action":"a!m"}`), logs.JSONL, logs.Options{Sig: sig},
		func(e logs.Event) { evs = append(evs, e) }, nil)
	if err != nil || len(evs) != 1 {
		t.Fatal(evs, err)
	}
	bad := evs[0]
	bad.Action = interaction.MakeAction(7, interaction.Emission, 0)
	for _, c := range []struct {
		id   string
		evs  []logs.Event
		want string
	}{
		{"s", nil, `x.jsonl: session "s" has no events`},
		{"t", evs, `x.jsonl:1: an event of session "s" among those of "t"`},
		{"s", []logs.Event{bad}, `x.jsonl:1: event 0 of session "s": action 458752 is not in the signature`},
	} {
		if _, err := a.Assemble("x.jsonl", c.id, c.evs); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %s", c.evs, err, c.want)
		}
	}
	if _, err := logs.NewAssembler(logs.Options{Sig: sig, Locations: []interaction.Lifelines{interaction.LifelinesOf(0), interaction.LifelinesOf(0, 1)}}); err == nil {
		t.Error("overlapping locations accepted")
	}
}

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
		b, _ := e.MarshalBinary()
		for n := range len(b) {
			var d logs.Event
			if err := d.UnmarshalBinary(b[:n]); err == nil {
				t.Errorf("%+v: %d of %d bytes decoded as %+v", e, n, len(b), d)
			}
		}
		var d logs.Event
		if err := d.UnmarshalBinary(append(b, 0)); err == nil {
			t.Errorf("%+v: a byte too many decoded", e)
		}
	}
}

// TestScanLarge: sessions of more events than a chunk of records are
// assembled as Read builds them.
func TestScanLarge(t *testing.T) {
	var b strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&b, `{"session":"s%d","time":%d,"action":"%s"}`+"\n", i%2, 40000-i, []string{"a!m", "b?m", "c!n"}[i%3])
	}
	in := []byte(b.String())
	opt := logs.Options{Sig: testSig(t)}
	sessions, st, err := logs.ReadFrom("big.jsonl", bytes.NewReader(in), logs.JSONL, opt, nil)
	if err != nil || len(sessions) != 2 || sessions[0].Events != 20000 {
		t.Fatal(sessions, st, err)
	}
	checkScan(t, "big.jsonl", in, logs.JSONL, opt, sessions, st, nil)
}
