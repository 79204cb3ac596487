package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/testutil"
)

// verdictRow is a row of an lfrem verdicts.tsv: a multi-trace and its
// expected verdicts in prefix and accept modes.
type verdictRow struct{ htf, hif, prefix, accept string }

func readVerdicts(t *testing.T, path string) []verdictRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []verdictRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) == 5 && fs[0] != "htf" {
			rows = append(rows, verdictRow{fs[0], fs[1], fs[3], fs[4]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// checkVerdicts runs "ivc analyze --format json" on the rows of one
// interaction, in both modes, and compares the verdicts with the table. The
// batch goes through the worker pool: results must come back in input order.
func checkVerdicts(t *testing.T, dir string, rows []verdictRow, jobs int) {
	t.Helper()
	byHIF := map[string][]verdictRow{}
	var hifs []string
	for _, r := range rows {
		if byHIF[r.hif] == nil {
			hifs = append(hifs, r.hif)
		}
		byHIF[r.hif] = append(byHIF[r.hif], r)
	}
	for _, hif := range hifs {
		rows := byHIF[hif]
		for _, mode := range []string{"prefix", "accept"} {
			// The verdicts only: the repairs of the corpus's Fails are
			// check's TestRepairCorpus.
			args := []string{"analyze", "--format", "json", "--repair=false", "--mode", mode, "--jobs", fmt.Sprint(jobs),
				filepath.Join(dir, "signature.hsf"), filepath.Join(dir, hif)}
			for _, r := range rows {
				args = append(args, filepath.Join(dir, r.htf))
			}
			var stdout, stderr bytes.Buffer
			status := run(args, testEnv(&stdout, &stderr))
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if len(lines) != len(rows) {
				t.Fatalf("%s %s: %d results for %d multi-traces (status %d)\n%s", hif, mode, len(lines), len(rows), status, stderr.String())
			}
			fails := false
			for i, line := range lines {
				var res check.Record
				if err := json.Unmarshal([]byte(line), &res); err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				r := rows[i]
				want := r.prefix
				if mode == "accept" {
					want = r.accept
				}
				if res.File != filepath.Join(dir, r.htf) {
					t.Fatalf("result %d is for %s, want %s (out of order)", i, res.File, r.htf)
				}
				if want != "?" && !strings.Contains("|"+want+"|", "|"+res.Verdict+"|") {
					t.Errorf("%s %s --mode %s: %s, want %s", hif, r.htf, mode, res.Verdict, want)
				}
				// auto: the automata engine when the interaction compiles.
				if res.Mode != mode || res.Engine != "runtime" && res.Engine != "automata" {
					t.Errorf("%s: mode %q engine %q", line, res.Mode, res.Engine)
				}
				if (res.Verdict == "Fail") != (res.Explanation != nil) {
					t.Errorf("%s: a Fail and only a Fail has an explanation", line)
				}
				fails = fails || res.Verdict == "Fail" || res.Verdict == "Inconc"
			}
			if want := map[bool]int{false: exitOK, true: exitFail}[fails]; status != want {
				t.Errorf("%s --mode %s: exit status %d, want %d\n%s", hif, mode, status, want, stderr.String())
			}
		}
	}
}

// TestShippedVerdicts checks the example shipped in testdata/lfrem.
func TestShippedVerdicts(t *testing.T) {
	dir := filepath.Join(testdata, "lfrem")
	checkVerdicts(t, dir, readVerdicts(t, filepath.Join(dir, "verdicts.tsv")), 2)
}

// TestCorpusVerdicts runs the CLI over the lifeline-removal benchmark of the
// shared corpus: one interaction (TestShippedVerdicts runs the shipped
// example), or all 50 with -tags sweep.
func TestCorpusVerdicts(t *testing.T) {
	dir := filepath.Join(testutil.Shared(t), "corpus", "lfrem")
	rows := readVerdicts(t, filepath.Join(dir, "verdicts.tsv"))
	if !testutil.Sweep() {
		var sample []verdictRow
		for _, r := range rows {
			if r.hif == "i17.hif" {
				sample = append(sample, r)
			}
		}
		rows = sample
	}
	checkVerdicts(t, dir, rows, 4)
}
