package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxLine: --max-line moves the limit on one line, down and up, past
// the share of --max-memory (a 64th) that bounds it by default.
func TestMaxLine(t *testing.T) {
	log := filepath.Join(t.TempDir(), "app.jsonl")
	pad := strings.Repeat("x", 6000)
	if err := os.WriteFile(log, []byte(`{"session":"s","action":"S?d","pad":"`+pad+`"}`+"\n"+`{"session":"t","action":"S?d"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hsf := filepath.Join(testdata, "abp/abp.hsf")
	for _, c := range []struct {
		args []string
		want string // in stderr; "" for no line refused
	}{
		{[]string{"--max-memory", "64KiB"}, "app.jsonl:1: line longer than 4096 bytes"},
		{[]string{"--max-memory", "64KiB", "--max-line", "8KiB"}, ""},
		{[]string{"--max-line", "2KiB"}, "app.jsonl:1: line longer than 2048 bytes"},
	} {
		var out, errs bytes.Buffer
		run(append(append([]string{"analyze"}, c.args...), hsf, log), testEnv(&out, &errs))
		if c.want == "" && strings.Contains(errs.String(), "longer than") || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%v: stderr %s, want %q", c.args, errs.String(), c.want)
		}
		if c.want == "" && !strings.Contains(out.String(), "(session s)") {
			t.Errorf("%v: session s not judged: %s", c.args, out.String())
		}
	}
}
