package check_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestPatterns: the Fails of the shipped ABP logs, one in JSON Lines and
// the same session in OTLP, are repaired by Run (DefaultOptions) and make
// one failure pattern, however the run is split into summaries merged.
func TestPatterns(t *testing.T) {
	sp, err := spec.Load(filepath.Join(testdata, "abp", "abp.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(testdata, "logs", "abp.jsonl"), filepath.Join(testdata, "logs", "abp.otlp.json")}
	run := func(files ...string) check.Summary {
		src := &session.Source{Options: logs.Options{Sig: sp.Sig}}
		return c.Run(src.Sessions(files), check.RunOptions{Jobs: 2}, func(o check.Outcome) {
			if o.Err != nil {
				t.Fatal(o.Err)
			}
			if o.Result.Verdict == verdict.Fail && (o.Repair == nil || len(o.Repair.Edits) != 1) {
				t.Errorf("%s (session %s): repair %+v, want one edit", o.File, o.ID, o.Repair)
			}
		})
	}
	whole := run(files...)
	var merged check.Summary
	for _, f := range []string{files[1], files[0]} {
		merged.Merge(run(f))
	}
	for _, s := range []check.Summary{whole, merged} {
		ps := s.TopPatterns(-1)
		if len(ps) != 1 || ps[0].Count != 2 || ps[0].Key != "[R] unexpected R!zero" || len(ps[0].Examples) != 2 {
			t.Fatalf("patterns %+v, want one of 2 Fails: [R] unexpected R!zero", ps)
		}
		if ex := ps[0].Examples[0]; ex.File != files[0] || ex.Session != "trace1_error_1" {
			t.Errorf("first example %+v, want the session trace1_error_1 of %s", ex, files[0])
		}
		if p := ps[0]; p.First.IsZero() || p.Last.Before(p.First) {
			t.Errorf("first seen %v, last %v", p.First, p.Last)
		}
	}
	var text bytes.Buffer
	whole.WritePatterns(&text, 0)
	if want := "failure patterns: 1 in 2 Fails:\n\t2 (100%) [R] unexpected R!zero, e.g. " + files[0] + " (session trace1_error_1)\n"; text.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", text.String(), want)
	}
	j := whole.JSON()
	if len(j.Patterns) != 1 || j.Patterns[0].Share != 1 || len(j.Patterns[0].Edits) != 1 || j.Patterns[0].Edits[0].Op != verdict.Delete {
		t.Errorf("summary's patterns %+v", j.Patterns)
	}
}

// TestPatternsBounded: past MaxPatterns distinct patterns, a summary counts
// the Fails of new ones together; the text shows the 10 most frequent.
func TestPatternsBounded(t *testing.T) {
	var s check.Summary
	fail := func(action string, i int) check.Outcome {
		return check.Outcome{Meta: session.Meta{File: "log.jsonl", ID: fmt.Sprint(i)},
			Result: verdict.Result{Verdict: verdict.Fail},
			Repair: &verdict.Repair{Verdict: verdict.WeakPass, Edits: []verdict.Edit{{Op: verdict.Delete, Location: []string{"a"}, Index: i, Action: action}}}}
	}
	for i := range check.MaxPatterns + 5 {
		o := fail(fmt.Sprintf("a!m%d", i), i)
		s.Add(&o)
	}
	for i := range 4 { // a frequent one, at other indices
		o := fail("a!m7", 100+i)
		s.Add(&o)
	}
	if len(s.Patterns) != check.MaxPatterns || s.OtherPatterns != 5 {
		t.Errorf("%d patterns and %d Fails of others, want %d and 5", len(s.Patterns), s.OtherPatterns, check.MaxPatterns)
	}
	if top := s.TopPatterns(1); top[0].Key != "[a] unexpected a!m7" || top[0].Count != 5 || len(top[0].Examples) != check.MaxExamples {
		t.Errorf("most frequent %+v", top[0])
	}
	var text bytes.Buffer
	s.WritePatterns(&text, 0)
	lines := strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n")
	if len(lines) != 1+check.MaxPatternsShown+1 || !strings.HasPrefix(lines[0], "failure patterns: more than 1000 in 1009 Fails") ||
		lines[len(lines)-1] != "\tand 995 Fails of other patterns" {
		t.Errorf("text:\n%s", text.String())
	}
}
