package check_test

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestStops: a Fail names the event where it stopped down to its origin,
// for a span (its id, its start, the line of its object, the link to a
// trace viewer) and for an event of an event log (its time and line), in
// its record and in its text, whichever engine judged it.
func TestStops(t *testing.T) {
	const testdata = "../testdata"
	sp, err := spec.Load(filepath.Join(testdata, "abp/abp.hsf"), filepath.Join(testdata, "abp/abp.hif"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, session string
		want          check.Stop
	}{
		{"logs/abp.otlp.json", "2765a36e123a70845f37a60a4bf6b33c", check.Stop{Lifelines: "R", Event: 76, Action: "R!zero",
			Origin:  session.Origin{Line: 172, Time: time.Date(2025, 1, 1, 0, 8, 53, 604152511, time.UTC), SpanID: "fde8bf557fd6b280"},
			TraceID: "2765a36e123a70845f37a60a4bf6b33c", URL: "http://jaeger/trace/2765a36e123a70845f37a60a4bf6b33c?uiFind=fde8bf557fd6b280"}},
		{"logs/abp.jsonl", "trace1_error_1", check.Stop{Lifelines: "R", Event: 76, Action: "R!zero",
			Origin: session.Origin{Line: 807, Time: time.Date(2025, 1, 1, 0, 8, 53, 604152511, time.UTC)}}},
	} {
		path := filepath.Join(testdata, tc.file)
		tc.want.File = path
		sessions, _, err := session.Read(path, logs.Auto, logs.Options{Sig: sp.Sig}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, engine := range []check.Engine{check.EngineAutomata, check.EngineRuntime} {
			opt := check.DefaultOptions()
			opt.Engine, opt.TraceURL = engine, "http://jaeger/trace/{trace_id}?uiFind={span_id}"
			c, err := check.New(sp, opt)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, s := range sessions {
				o := c.Judge(s)
				if s.ID != tc.session {
					if stops := o.Stops(); stops != nil {
						t.Errorf("%s %s, session %s (%s): stops %+v", tc.file, engine, s.ID, o.Result.Verdict, stops)
					}
					continue
				}
				found = true
				rec := o.Record()
				if len(rec.At) != 1 || rec.At[0] != tc.want {
					t.Errorf("%s %s: stopped at %+v, want %+v", tc.file, engine, rec.At, tc.want)
				}
				var text bytes.Buffer
				o.WriteText(&text)
				first, _, _ := strings.Cut(text.String(), "\n")
				want := "cannot read event 76 (R!zero, "
				if tc.want.SpanID != "" {
					want += "span fde8bf557fd6b280, "
				}
				want += "00:08:53.604, " + path + ":" + map[bool]string{true: "172", false: "807"}[tc.want.SpanID != ""]
				if !strings.Contains(first, want) {
					t.Errorf("%s %s: %q, want it to hold %q", tc.file, engine, first, want)
				}
			}
			if !found {
				t.Errorf("%s: no session %s", tc.file, tc.session)
			}
		}
	}
}

// TestUnfinished: a WeakPass of the automata engine says which locations
// look unfinished (their logs are no whole traces of theirs) and what each
// could do next, in its record and its text; a Pass or a Fail says none.
func TestUnfinished(t *testing.T) {
	const testdata = "../testdata"
	sp, err := spec.Load(filepath.Join(testdata, "abp/abp.hsf"), filepath.Join(testdata, "abp/abp.hif"))
	if err != nil {
		t.Fatal(err)
	}
	sessions, _, err := session.Read(filepath.Join(testdata, "logs/abp.jsonl"), logs.Auto, logs.Options{Sig: sp.Sig}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		o := c.Judge(s)
		rec := o.Record()
		if o.Result.Verdict != verdict.WeakPass {
			if rec.Unfinished != nil {
				t.Errorf("session %s (%s): unfinished %v", s.ID, o.Result.Verdict, rec.Unfinished)
			}
			continue
		}
		if s.ID != "trace1" {
			continue
		}
		want := []verdict.Unfinished{{Lifelines: "S", Events: 67, Expected: []string{"S?ce", "S?one", "S?zero"}},
			{Lifelines: "L", Events: 50, Expected: []string{"L!one", "L?one"}}}
		if !reflect.DeepEqual(rec.Unfinished, want) {
			t.Errorf("session trace1: unfinished %v, want %v", rec.Unfinished, want)
		}
		var text bytes.Buffer
		o.WriteText(&text)
		if !strings.Contains(text.String(), "\n\t[L] looks unfinished after 50 events, expected L!one L?one\n") {
			t.Errorf("session trace1:\n%s", text.String())
		}
	}
}
