package testutil

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LfremRow is a row of corpus/lfrem/verdicts.tsv: a multi-trace, its
// interaction, how it was made, and its prefix-mode and accept-mode verdicts.
type LfremRow struct{ HTF, HIF, Kind, Prefix, Accept string }

// LfremRows reads the verdicts.tsv of the lfrem corpus directory dir.
func LfremRows(t testing.TB, dir string) []LfremRow {
	t.Helper()
	var rows []LfremRow
	for _, fs := range fields(t, filepath.Join(dir, "verdicts.tsv"), "\t") {
		if len(fs) == 5 && fs[0] != "htf" {
			rows = append(rows, LfremRow{fs[0], fs[1], fs[2], fs[3], fs[4]})
		}
	}
	return rows
}

// LongTrace is a global trace of corpus/long-traces with HIBOU's verdict.
type LongTrace struct {
	Model   string // abp or rover; its spec is Dir/Model.hsf
	Name    string
	Kind    string // ACP: a prefix of an accepted trace; ERR: one wrong action appended
	Verdict string // HIBOU's prefix-mode verdict
	HTF     string // the multi-trace's path
}

// LongTraces reads the CSVs of corpus/long-traces (dir) for the models.
func LongTraces(t testing.TB, dir string, models ...string) []LongTrace {
	t.Helper()
	var out []LongTrace
	for _, model := range models {
		for _, fs := range fields(t, filepath.Join(dir, model+".csv"), ";") {
			if fs[0] == "name" || len(fs) < 6 {
				continue
			}
			sub := "tracegen_" + model + "_explo"
			if fs[1] == "ERR" {
				sub = "tracegen_" + model + "_error"
			}
			out = append(out, LongTrace{model, fs[0], fs[1], fs[5], filepath.Join(dir, sub, fs[0]+".htf")})
		}
	}
	return out
}

// fields splits each line of the file at path by sep.
func fields(t testing.TB, path, sep string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, strings.Split(sc.Text(), sep))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
