package monitor_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
)

// feed replays the lines of log through a new monitor one at a time (its
// clock stopped, its sessions closed at Close only) and returns the records
// by session, each with the number of lines fed when it came.
func feed(t *testing.T, c *check.Checker, lopt logs.Options, name string, lines []string) (map[string][]check.Record, map[string][]int, *monitor.Table) {
	t.Helper()
	recs, at := map[string][]check.Record{}, map[string][]int{}
	n := 0
	m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: time.Hour, Now: func() time.Time { return time.Unix(0, 0) }},
		func(o check.Outcome) {
			r := o.Record()
			recs[r.Session] = append(recs[r.Session], r)
			at[r.Session] = append(at[r.Session], n)
		})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range lines {
		n++
		if _, err := m.ConsumeLog(name, strings.NewReader(line+"\n"), logs.JSONL); err != nil {
			t.Fatal(err)
		}
	}
	m.Close()
	return recs, at, m
}

// TestEarlyLineOrder replays the shipped JSON Lines log without its times
// (each location's lines are in time order in it: line order is the same
// order) one line at a time: each session's last record is ivc analyze's,
// a session fails early only if analyze says Fail, and then as soon as the
// event that fails arrives.
func TestEarlyLineOrder(t *testing.T) {
	c, lopt := checker(t)
	src, err := os.ReadFile("../testdata/logs/abp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	last := map[string]int{}     // the line of each session's last event
	lineOf := map[string][]int{} // the lines of each session's events, by lifeline
	for line := range strings.Lines(string(src)) {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		delete(ev, "time")
		b, _ := json.Marshal(ev)
		lines = append(lines, string(b))
		id := ev["session"].(string)
		last[id] = len(lines)
		k := id + " " + ev["lifeline"].(string)
		lineOf[k] = append(lineOf[k], len(lines))
	}
	path := filepath.Join(t.TempDir(), "abp-lines.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := batch(t, c, lopt, path)
	timed := batch(t, c, lopt, "../testdata/logs/abp.jsonl")
	recs, at, m := feed(t, c, lopt, path, lines)
	if len(recs) != len(want) {
		t.Errorf("%d sessions judged, want %d", len(recs), len(want))
	}
	early, before := 0, 0
	for id, w := range want {
		if timed[id].Verdict != w.Verdict {
			t.Errorf("session %q: %s without times, %s with", id, w.Verdict, timed[id].Verdict)
		}
		rs := recs[id]
		if len(rs) == 0 {
			t.Errorf("session %q: no record", id)
			continue
		}
		final := rs[len(rs)-1]
		a, _ := json.Marshal(timeless(final))
		b, _ := json.Marshal(w)
		if string(a) != string(b) {
			t.Errorf("session %q: last record\n got %s\nwant %s", id, a, b)
		}
		for k, r := range rs {
			if r.Revision != k+1 {
				t.Errorf("session %q: record %d is revision %d", id, k+1, r.Revision)
			}
			if r.ClosedBy != monitor.ClosedEarly {
				continue
			}
			early++
			if r.Verdict != w.Verdict || k != 0 {
				t.Errorf("session %q: early record %d %s, analyze says %s", id, k+1, r.Verdict, w.Verdict)
			}
			// It came with the event its location could not read.
			loc := r.Explanation.LocalFailure
			for _, cp := range r.Explanation.Components {
				if cp.Lifelines == loc {
					if ls := lineOf[id+" "+loc]; cp.Consumed >= len(ls) || at[id][k] != ls[cp.Consumed] {
						t.Errorf("session %q: early record after line %d, its location [%s] fails at its event %d", id, at[id][k], loc, cp.Consumed+1)
					}
				}
			}
			if at[id][k] < last[id] {
				before++
				if len(rs) != 2 || rs[1].ClosedBy != monitor.ClosedShutdown {
					t.Errorf("session %q: events after its early record, and records %+v", id, rs)
				}
			}
		}
	}
	fails := 0
	for _, w := range want {
		if w.Verdict == "Fail" {
			fails++
		}
	}
	t.Logf("%d sessions, %d Fail, %d early (%d before the session's last event)", len(want), fails, early, before)
	if early != fails {
		t.Errorf("%d sessions fail early, %d fail", early, fails)
	}
	if n := m.Counts(); n.Received != n.Events+n.Ignored+n.Malformed+n.Late {
		t.Errorf("counts %+v", n)
	}
}

// TestEarlyKeyed: with times, events may arrive out of their location's
// order, so the early check asks whether any trace of the location holds
// the events so far as a subsequence (events still to come may be placed
// among them).
func TestEarlyKeyed(t *testing.T) {
	c, lopt := checkerOf(t, "e2e/testdata/shop.hsf", "e2e/testdata/shop.hif", check.EngineAutomata)
	ev := func(session, sec, lifeline, kind, message string) string {
		return `{"session":"` + session + `","time":"2025-01-01T00:00:0` + sec + `Z","lifeline":"` + lifeline +
			`","kind":"` + kind + `","message":"` + message + `"}`
	}
	lines := []string{
		// a: the database answers twice, its query arriving last: no
		// trace of db holds two answers, whatever comes before them.
		ev("a", "3", "db", "send", "rows"),
		ev("a", "5", "db", "send", "rows"),
		ev("a", "1", "db", "receive", "query"),
		// b: an answer before its query arrives: a walk of the DFA in
		// arrival order would be stuck, but the query comes before it.
		ev("b", "3", "db", "send", "rows"),
		ev("b", "1", "db", "receive", "query"),
		// c: the shop sends rows, which it never does.
		ev("c", "2", "shop", "send", "rows"),
		ev("c", "1", "shop", "receive", "order"),
	}
	path := filepath.Join(t.TempDir(), "shop.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := batch(t, c, lopt, path)
	recs, at, _ := feed(t, c, lopt, path, lines)
	got := map[string]string{}
	for id, rs := range recs {
		var s []string
		for k, r := range rs {
			s = append(s, r.ClosedBy+":"+r.Verdict+"@"+string(rune('0'+at[id][k])))
		}
		got[id] = strings.Join(s, " ")
		if final := rs[len(rs)-1]; final.Verdict != want[id].Verdict {
			t.Errorf("session %q: %s, analyze says %s", id, final.Verdict, want[id].Verdict)
		}
	}
	for id, w := range map[string]string{
		"a": "early:Fail@2 shutdown:Fail@7",
		"b": "shutdown:WeakPass@7",
		"c": "early:Fail@6 shutdown:Fail@7",
	} {
		if got[id] != w {
			t.Errorf("session %q: %s, want %s", id, got[id], w)
		}
	}
}

// TestAfterClose: events read after Close are counted (late), not lost.
func TestAfterClose(t *testing.T) {
	c, lopt := checker(t)
	var got []check.Record
	m, err := monitor.NewTable(c, lopt, monitor.Options{}, func(o check.Outcome) {
		got = append(got, o.Record())
	})
	if err != nil {
		t.Fatal(err)
	}
	scan := func(s string) {
		t.Helper()
		if _, err := m.ConsumeLog("-", strings.NewReader(s), logs.JSONL); err != nil {
			t.Fatal(err)
		}
	}
	scan(`{"session":"a","action":"S?d"}` + "\n")
	m.Close()
	scan(`{"session":"a","action":"S!d_zero"}` + "\n" + `{"session":"b","action":"S?d"}` + "\n" +
		`{"session":"b","action":"X?y"}` + "\n" + `{"session":"b","action":` + "\n")
	n := m.Counts()
	if len(got) != 1 || n.Received != 5 || n.Events != 1 || n.Late != 2 || n.Ignored != 1 || n.Malformed != 1 ||
		n.Received != n.Events+n.Ignored+n.Malformed+n.Late {
		t.Errorf("%d records, counts %+v", len(got), n)
	}
}

// TestFollowMalformed: the malformed lines of a followed file are counted
// as they are read, not when the stream ends.
func TestFollowMalformed(t *testing.T) {
	c, lopt := checker(t)
	m, err := monitor.NewTable(c, lopt, monitor.Options{}, func(check.Outcome) {})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "app.jsonl")
	if err := os.WriteFile(path, []byte(`{"session":"a","action":"S?d"}`+"\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := receiver.FollowLog(ctx, m, path, nil, receiver.FollowOptions{Poll: 5 * time.Millisecond}); err != nil {
			t.Error(err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for m.Counts().Malformed != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("counts %+v: the malformed line is not counted while the file is followed", m.Counts())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	m.Close()
	if n := m.Counts(); n.Received != 2 || n.Received != n.Events+n.Ignored+n.Malformed+n.Late {
		t.Errorf("counts %+v", n)
	}
}

// TestEarlyPairedSpans: a CLIENT span whose SERVER partner comes in
// another request takes the server's naming of the call at assembly; its
// own name (an action its location never does) fails nothing early.
func TestEarlyPairedSpans(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"spec.hsf": "@message{ get; other }\n@lifeline{ gw; user }\n", "spec.hif": "gw -- get -> user\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, lopt := checkerOf(t, filepath.Join(dir, "spec.hsf"), filepath.Join(dir, "spec.hif"), check.EngineAutomata)
	var got []string
	m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: time.Hour}, func(o check.Outcome) {
		r := o.Record()
		got = append(got, r.ClosedBy+":"+r.Verdict)
	})
	if err != nil {
		t.Fatal(err)
	}
	span := func(service, id, parent string, kind int, method string) string {
		return `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"` + service +
			`"}}]},"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"` + id +
			`","parentSpanId":"` + parent + `","name":"call","kind":` + string(rune('0'+kind)) +
			`,"startTimeUnixNano":"1000","endTimeUnixNano":"2000","attributes":[{"key":"rpc.method","value":{"stringValue":"` + method + `"}}]}]}]}]}` + "\n"
	}
	for _, req := range []struct{ name, doc string }{
		{"gateway", span("gw", "1111111111111111", "", 3, "other")},
		{"user", span("user", "2222222222222222", "1111111111111111", 2, "get")},
	} {
		if _, err := m.ConsumeLog(req.name, strings.NewReader(req.doc), logs.OTLP); err != nil {
			t.Fatal(err)
		}
	}
	m.Close()
	if s := strings.Join(got, " "); s != "shutdown:Pass" {
		t.Errorf("records %s, want shutdown:Pass", s)
	}
}
