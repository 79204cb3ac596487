package monitor_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// checker returns the checker of ABP with the automata engine (early
// failures).
func checker(t testing.TB) (*check.Checker, logs.Options) {
	return checkerOf(t, "../testdata/abp/abp.hsf", "", check.EngineAutomata)
}

func checkerOf(t testing.TB, hsf, hif string, e check.Engine) (*check.Checker, logs.Options) {
	t.Helper()
	sp, err := spec.Load(hsf, hif)
	if err != nil {
		t.Fatal(err)
	}
	opt := check.DefaultOptions()
	opt.Engine = e
	c, err := check.New(sp, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c, logs.Options{Sig: sp.Sig}
}

// batch returns the records ivc analyze gives the log, by session, with the
// fields that depend on time zeroed: read as ivc analyze reads it by
// default (a Joiner, which pairs spans as the monitor's assembly does).
func batch(t *testing.T, c *check.Checker, lopt logs.Options, path string) map[string]check.Record {
	t.Helper()
	j, err := session.NewJoiner(lopt, 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	in, err := logs.Open(path, logs.Auto, lopt)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := j.Read(in, func(err error) { t.Error(err) }); err != nil {
		t.Fatal(err)
	}
	want := map[string]check.Record{}
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		o := c.Judge(s)
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		want[s.ID] = timeless(o.Record())
	}
	return want
}

// timeless is the part of a record that does not depend on when or where
// it was judged: what ivc analyze and the monitor write alike. The origins
// of the events where a Fail stopped keep their times, not their files
// and lines, which are the sources' (a receiver's request, a stream's
// line), as the record's file is.
func timeless(r check.Record) check.Record {
	r.ElapsedUS, r.SetupUS, r.File, r.Live = 0, 0, "", nil
	r.At = slices.Clone(r.At)
	for i := range r.At {
		r.At[i].File, r.At[i].Line = "", 0
	}
	r.Repair = slices.Clone(r.Repair)
	for i, e := range r.Repair { // a deleted event's origin too
		if e.Origin != nil {
			at := *e.Origin
			at.File, at.Line = "", 0
			r.Repair[i].Origin = &at
		}
	}
	return r
}

// compare checks that the monitor's records are analyze's, one per session.
func compare(t *testing.T, want map[string]check.Record, got []check.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d records, want %d", len(got), len(want))
	}
	for _, r := range got {
		w, ok := want[r.Session]
		if !ok {
			t.Errorf("session %q: not in the batch's", r.Session)
			continue
		}
		a, _ := json.Marshal(timeless(r))
		b, _ := json.Marshal(w)
		if !bytes.Equal(a, b) {
			t.Errorf("session %q:\n got %s\nwant %s", r.Session, a, b)
		}
		if r.Revision != 1 || r.ClosedBy != monitor.ClosedShutdown {
			t.Errorf("session %q: revision %d closed by %s", r.Session, r.Revision, r.ClosedBy)
		}
	}
}

func TestReplayJSONL(t *testing.T) {
	c, lopt := checker(t)
	const path = "../testdata/logs/abp.jsonl"
	want := batch(t, c, lopt, path)
	var got []check.Record
	m, err := monitor.NewTable(c, lopt, monitor.Options{}, func(o check.Outcome) {
		got = append(got, o.Record())
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := m.ConsumeLog(path, f, logs.JSONL); err != nil {
		t.Fatal(err)
	}
	m.Close()
	compare(t, want, got)
	n := m.Counts()
	if n.Received != 1001 || n.Received != n.Events+n.Ignored+n.Malformed+n.Late {
		t.Errorf("counts %+v: received is not judged + ignored + malformed + late", n)
	}
}

// TestReplayOTLP feeds the OTLP file one request (line) at a time, as an
// exporter would.
func TestReplayOTLP(t *testing.T) {
	c, lopt := checker(t)
	const path = "../testdata/logs/abp.otlp.json"
	want := batch(t, c, lopt, path)
	var got []check.Record
	m, err := monitor.NewTable(c, lopt, monitor.Options{}, func(o check.Outcome) {
		got = append(got, o.Record())
	})
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var u ptrace.JSONUnmarshaler
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		td, err := u.UnmarshalTraces(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if n, err := m.ConsumeTraces("otlp", td); err != nil || n != 0 {
			t.Fatal(n, err)
		}
	}
	m.Close()
	compare(t, want, got)
}

// TestLifecycle: idle and max closing, a late event within the grace
// (revision 2), past it (late), and eviction. The runtime engine judges, so
// that no session fails early (TestEarly).
// TestClosedReused: the table assembles each session it closes in the
// storage of the session before (session.Scratch.Reuse); an outcome, as
// emit sees it, is the outcome of its session assembled alone, in a table
// of its own. Sessions of several sizes, so that the storage is reused
// as it is and grown.
func TestClosedReused(t *testing.T) {
	c, lopt := checkerOf(t, "../testdata/abp/abp.hsf", "", check.EngineRuntime)
	sessions := []string{
		`{"session":"a","action":"R?zero"}` + "\n" + `{"session":"a","action":"S?d"}`,
		`{"session":"b","action":"S?d"}` + "\n" + `{"session":"b","action":"S!d_zero"}` + "\n" + `{"session":"b","action":"R?d_zero"}`,
		`{"session":"c","action":"S!d_zero"}`,
		`{"session":"d","action":"S!d_zero"}` + "\n" + `{"session":"d","action":"R?d_zero"}` + "\n" + `{"session":"d","action":"R!ce"}` + "\n" + `{"session":"d","action":"S?ce"}`,
	}
	// judge returns, for each session given in turn to one table, the
	// outcome emit saw: its multi-trace, origins and record, all taken
	// during the call.
	judge := func(logs_ ...string) []string {
		now := time.Unix(0, 0)
		var got []string
		m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: time.Second, Now: func() time.Time { return now }},
			func(o check.Outcome) {
				o.Elapsed, o.Setup = 0, 0 // times differ
				r, err := json.Marshal(o.Record())
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprint(*o.MT, *o.Origins)+string(r))
			})
		if err != nil {
			t.Fatal(err)
		}
		for _, lines := range logs_ {
			if _, err := m.ConsumeLog("in", strings.NewReader(lines+"\n"), logs.JSONL); err != nil {
				t.Fatal(err)
			}
			now = now.Add(2 * time.Second)
			m.Tick(now)
		}
		return got
	}
	together := judge(sessions...)
	if len(together) != len(sessions) {
		t.Fatalf("%d outcomes for %d sessions", len(together), len(sessions))
	}
	for i, lines := range sessions {
		if alone := judge(lines); len(alone) != 1 || alone[0] != together[i] {
			t.Errorf("session %d, after the others:\n%s\nalone:\n%v", i, together[i], alone)
		}
	}
}

func TestLifecycle(t *testing.T) {
	c, lopt := checkerOf(t, "../testdata/abp/abp.hsf", "", check.EngineRuntime)
	now := time.Unix(0, 0)
	var got []check.Record
	m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: time.Second, Max: 10 * time.Second, Grace: 5 * time.Second,
		MaxSessions: 2, Now: func() time.Time { return now }}, func(o check.Outcome) {
		got = append(got, o.Record())
	})
	if err != nil {
		t.Fatal(err)
	}
	feed := func(lines ...string) {
		t.Helper()
		if _, err := m.ConsumeLog("in", strings.NewReader(strings.Join(lines, "\n")+"\n"), logs.JSONL); err != nil {
			t.Fatal(err)
		}
	}
	closed := func() string {
		var s []string
		for _, r := range got {
			s = append(s, r.Session+":"+r.ClosedBy+":"+r.Verdict+":"+string(rune('0'+r.Revision)))
		}
		got = nil
		sort.Strings(s)
		return strings.Join(s, " ")
	}
	feed(`{"session":"a","action":"S?d"}`)
	now = now.Add(500 * time.Millisecond)
	m.Tick(now)
	if s := closed(); s != "" {
		t.Fatalf("closed too early: %s", s)
	}
	now = now.Add(time.Second)
	m.Tick(now)
	if s := closed(); s != "a:idle:WeakPass:1" {
		t.Fatalf("idle: %s", s)
	}
	feed(`{"session":"a","action":"S!d_zero"}`) // late, within the grace
	now = now.Add(2 * time.Second)
	m.Tick(now)
	if s := closed(); s != "a:idle:WeakPass:2" {
		t.Fatalf("revision: %s", s)
	}
	now = now.Add(10 * time.Second)
	m.Tick(now)
	feed(`{"session":"a","action":"K!d_zero"}`) // past the grace
	for range 22 {
		feed(`{"session":"b","action":"S?d"}`)
		now = now.Add(500 * time.Millisecond)
		m.Tick(now)
	}
	if s := closed(); s != "b:max:Fail:1" {
		t.Fatalf("max: %s", s)
	}
	feed(`{"session":"c","action":"S?d"}`, `{"session":"d","action":"R?zero"}`)
	if s := closed(); s != "b:evicted:Fail:2" {
		t.Fatalf("evicted: %s", s)
	}
	m.Close()
	if s := closed(); s != "c:shutdown:WeakPass:1 d:shutdown:Fail:1" {
		t.Fatalf("shutdown: %s", s)
	}
	n := m.Counts()
	if n.Late != 1 || n.Evicted != 1 || n.Received != n.Events+n.Ignored+n.Malformed+n.Late {
		t.Errorf("counts %+v", n)
	}
}

// TestSourcesOrder: a session whose events come from two sources (one log
// per service) is ordered as ivc analyze orders the same files joined:
// events of one location tied on their time by their source's name, not
// by their arrival. Here S's two events share their time, and the one of
// a.jsonl (S!d_zero) comes first whatever the arrival: a Fail, early or at
// the end, however the files are fed.
func TestSourcesOrder(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.jsonl": `{"session":"s","time":"2025-01-01T00:00:01Z","lifeline":"S","kind":"send","message":"d_zero"}`,
		"b.jsonl": `{"session":"s","time":"2025-01-01T00:00:01Z","lifeline":"S","kind":"receive","message":"d"}`,
	}
	var paths []string
	for _, name := range []string{"a.jsonl", "b.jsonl"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, e := range []check.Engine{check.EngineAutomata, check.EngineRuntime} {
		c, lopt := checkerOf(t, "../testdata/abp/abp.hsf", "", e)
		var want []string
		c.Run((&session.Source{Options: lopt}).Sessions(paths), check.RunOptions{}, func(o check.Outcome) {
			want = append(want, o.Result.Verdict.String())
		})
		if len(want) != 1 || want[0] != "Fail" {
			t.Fatalf("%s: ivc analyze's verdicts %v, want one Fail", e, want)
		}
		for _, order := range [][]string{{paths[0], paths[1]}, {paths[1], paths[0]}} {
			var got []string
			m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: time.Hour}, func(o check.Outcome) {
				got = append(got, o.Result.Verdict.String())
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range order {
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := m.ConsumeLog(p, f, logs.JSONL); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
			m.Close()
			if !slices.Equal(got, want) {
				t.Errorf("%s, %s then %s: the monitor's verdicts %v, want %v", e, filepath.Base(order[0]), filepath.Base(order[1]), got, want)
			}
		}
	}
}
