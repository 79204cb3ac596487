package session_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/verdict"
)

// abpLogs are the logs of the ABP example shipped in testdata/logs: the
// multi-traces of testdata/abp/traces, one session each, every service
// (lifeline) with its own clock.
var abpLogs = []struct {
	file string
	f    logs.Format
}{
	{"abp.jsonl", logs.JSONL},
	{"abp.otlp.json", logs.OTLP},
}

// TestABPLogs checks that the shipped logs hold the ABP traces, projected
// on one location per lifeline, and get the verdicts of the .htf traces.
// With -update, it writes them again.
func TestABPLogs(t *testing.T) {
	sp, projected, names := abpTraces(t)
	sig := sp.Sig
	var htf []*multitrace.MultiTrace
	for i, n := range names {
		mt, err := multitrace.Read(filepath.Join("..", "testdata", "abp", "traces", n), sig)
		if err != nil {
			t.Fatal(err)
		}
		htf = append(htf, mt)
		names[i] = strings.TrimSuffix(n, ".htf")
	}
	files := names
	for _, l := range abpLogs {
		path := filepath.Join("..", "testdata", "logs", l.file)
		ids := names
		if l.f == logs.OTLP {
			ids = gen.IDs(l.f, len(names), 1)
		}
		if *update {
			var buf bytes.Buffer
			if err := gen.Write(&buf, l.f, sig, ids, projected, 1); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		sessions, st, err := session.Read(path, logs.Auto, logs.Options{Sig: sig}, func(err error) { t.Error(err) })
		if err != nil {
			t.Fatal(err)
		}
		if len(sessions) != len(ids) || st.Malformed+st.Ignored != 0 {
			t.Fatalf("%s: %d sessions, %+v", l.file, len(sessions), st)
		}
		for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
			opt := check.DefaultOptions()
			opt.Mode = mode
			c, err := check.New(sp, opt)
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range ids {
				var s *session.Session
				for j := range sessions {
					if sessions[j].ID == id {
						s = &sessions[j]
					}
				}
				if s == nil || s.Err != nil || !s.MT.Equal(projected[i]) {
					t.Fatalf("%s: session %s is not %s projected", l.file, id, files[i])
				}
				if got, want := c.Check(s.MT).Verdict, c.Check(htf[i]).Verdict; got != want {
					t.Errorf("%s, %s mode: session %s: %s, but %s is %s", l.file, mode, id, got, files[i], want)
				}
			}
		}
	}
}
