package logs_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// checkScan reads in again with Scan, sends every event through its binary
// encoding, groups the events by session, shuffles each group, assembles
// it, and checks that this gives what Read gave: sessions, stats and
// reports (the way a pipeline reads a log, against the way ivc analyze
// does).
func checkScan(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options, want []session.Session, wantStats logs.Stats, wantReports []string) {
	t.Helper()
	var reports []string
	groups := map[string][]logs.Event{}
	var order []string // the sessions, in order of first event
	st, err := logs.Scan(name, bytes.NewReader(in), f, opt, func(e logs.Event) {
		d, err := session.DecodeEvent(session.AppendEvent(nil, e))
		if err != nil {
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
	a, err := session.NewAssembler(opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(len(in)), 1))
	var got []session.Session
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
	// Assembled in turn in one Scratch, each session kept as it was.
	var sc session.Scratch
	var again []session.Session
	for _, id := range order {
		s, err := a.AssembleWith(&sc, name, id, groups[id])
		if err != nil {
			t.Fatalf("AssembleWith %q: %v", id, err)
		}
		again = append(again, s)
	}
	for i := range again {
		if !reflect.DeepEqual(again[i], got[i]) {
			t.Errorf("AssembleWith, once the next sessions were assembled:\n%+v\nAssemble:\n%+v", again[i], got[i])
		}
	}
	for i, s := range got {
		w := want[i]
		if s.File != w.File || s.ID != w.ID || s.Line != w.Line || s.Events != w.Events || s.Ignored != w.Ignored ||
			(s.Err == nil) != (w.Err == nil) || s.Err != nil && s.Err.Error() != w.Err.Error() || !reflect.DeepEqual(s.MT, w.MT) {
			t.Errorf("Scan and Assemble:\n%+v\nRead:\n%+v", s, w)
		}
		if s.Duplicates != w.Duplicates || s.Conflicts != w.Conflicts || s.Unpaired != w.Unpaired {
			t.Errorf("session %q: Scan and Assemble: %d unpaired, %d duplicates, %d conflicts; Read: %d, %d, %d",
				s.ID, s.Unpaired, s.Duplicates, s.Conflicts, w.Unpaired, w.Duplicates, w.Conflicts)
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
	sessions, st, err := session.ReadFrom("big.jsonl", bytes.NewReader(in), logs.JSONL, opt, nil)
	if err != nil || len(sessions) != 2 || sessions[0].Events != 20000 {
		t.Fatal(sessions, st, err)
	}
	checkScan(t, "big.jsonl", in, logs.JSONL, opt, sessions, st, nil)
}
