package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ivc-project/ivc/beam/pipeline"
)

// TestMain runs the pipelines on Prism, in process.
func TestMain(m *testing.M) { ptest.Main(m) }

// setFlags sets the command line flags, and resets them when t ends.
func setFlags(t *testing.T, kv ...string) {
	t.Helper()
	t.Cleanup(func() { inputs, fields = nil, nil }) // last: the repeated flags, which Set appends to
	for i := 0; i < len(kv); i += 2 {
		f := flag.Lookup(kv[i])
		old := f.Value.String()
		if err := flag.Set(kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Value.Set(old) })
	}
}

// TestRun runs ivc-beam on the ABP example's logs, and checks the summary
// it prints against what the logs hold (testdata/logs: 3 sessions each,
// 2 of them WeakPass and 1 Fail).
func TestRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "abp")
	setFlags(t, "spec", "../../../testdata/abp/abp.hsf", "input", "../../../testdata/logs/abp.*", "output", out,
		"shards", "2", "field", "session=session")
	var stdout bytes.Buffer
	if err := run(context.Background(), &stdout); err != nil {
		t.Fatal(err)
	}
	var s pipeline.SummaryFile
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatalf("%q: %v", stdout.String(), err)
	}
	if s.Files != 2 || s.MultiTraces != 6 || s.Verdicts["WeakPass"] != 4 || s.Verdicts["Fail"] != 2 || s.Reasons["Fail"]["LocalError"] != 2 {
		t.Errorf("summary %+v", s)
	}
	files, _ := filepath.Glob(out + "-sessions-*-of-00002.jsonl")
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(b), "\n")
	}
	if n != 6 {
		t.Errorf("%d records in %v", n, files)
	}
}

// TestRunErrors: what is wrong on the command line is said before any
// pipeline runs.
func TestRunErrors(t *testing.T) {
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, "no interaction: give --spec FILE.hsf"},
		{[]string{"spec", "nothere.hsf"}, "nothere.hsf: no such file or directory"},
		{[]string{"spec", "../../../testdata/abp/abp.hsf"}, "no input: give --input GLOB"},
		{[]string{"spec", "../../../testdata/abp/abp.hsf", "input", "x.jsonl"}, "no output: give --output PREFIX"},
		{[]string{"spec", "../../../testdata/abp/abp.hsf", "input", "x.jsonl", "output", "o", "field", "session"}, `invalid --field "session": want ROLE=NAME`},
		{[]string{"spec", "../../../testdata/abp/abp.hsf", "input", "x.jsonl", "output", "o", "mode", "all"}, `invalid mode "all"`},
		{[]string{"spec", "../../../testdata/abp/abp.hsf", "input", "nope://x", "output", "o"}, `file system scheme "nope" not registered`},
		{[]string{"spec", "../../../testdata/abp/abp.hsf", "input", "../../../testdata/logs/*.nothing", "output", "o"}, `--input "../../../testdata/logs/*.nothing" matches no file`},
	} {
		t.Run(c.want, func(t *testing.T) {
			setFlags(t, c.flags...)
			err := run(context.Background(), new(bytes.Buffer))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: %v, want %q", c.flags, err, c.want)
			}
		})
	}
}

// TestRunNothingJudged: a job that judges no event (here, every span's
// lifeline read from an attribute that is not there) is an input error,
// exit status 2, as with ivc analyze.
func TestRunNothingJudged(t *testing.T) {
	out := filepath.Join(t.TempDir(), "abp")
	setFlags(t, "spec", "../../../testdata/abp/abp.hsf", "input", "../../../testdata/logs/abp.otlp.json", "output", out,
		"lifeline-attr", "service")
	err := run(context.Background(), new(bytes.Buffer))
	if err == nil || !errors.As(err, new(inputError)) || !strings.Contains(err.Error(), "nothing judged: the logs hold ") {
		t.Errorf("%v, want nothing judged", err)
	}
}

// TestRunStaleOutputs: a previous run's outputs of the same prefix are
// refused before the pipeline runs, and with --force removed (exactly the
// files of the run's patterns): a run of 6 sessions leaves 6 records in
// PREFIX-sessions-*, not 6 plus the previous run's.
func TestRunStaleOutputs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "abp")
	stale := []string{"abp-sessions-00000-of-00002.jsonl", "abp-sessions-00001-of-00002.jsonl", "abp-errors-00001-of-00002.txt", "abp-summary.json"}
	kept := []string{"abp-notes.txt", "abp-sessions-mine.jsonl", "abpx-summary.json"}
	for _, name := range append(stale, kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{\"session\":\"old\"}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setFlags(t, "spec", "../../../testdata/abp/abp.hsf", "input", "../../../testdata/logs/abp.*", "output", out,
		"field", "session=session")
	err := run(context.Background(), new(bytes.Buffer))
	if err == nil || !errors.As(err, new(inputError)) || !strings.Contains(err.Error(), "4 files of a previous run exist") {
		t.Fatalf("%v, want the previous run's files refused", err)
	}
	for _, name := range append(stale, kept...) {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("refused, yet: %v", err)
		}
	}
	setFlags(t, "force", "true")
	if err := run(context.Background(), new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	for _, name := range stale[:3] { // 2 shards and an error file, gone (the summary is rewritten)
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s: stale, not removed", name)
		}
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("not the run's: %v", err)
		}
	}
	files, _ := filepath.Glob(out + "-sessions-*-of-*.jsonl")
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(b), "\n")
	}
	if n != 6 || len(files) != 1 {
		t.Errorf("%d records in %v, want 6 in one shard", n, files)
	}
}
