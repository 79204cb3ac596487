package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/testutil"
)

// BenchmarkCommand times ivc analyze as its users run it: a process of its
// own, its results written to a file, on a JSON Lines log of 100,000
// lfrem-like sessions (i1, about 706k events, drawn by ivc gen), with one
// worker and with its default --jobs; beside it, the bare scan of the same
// file (testutil.BareScan). The logs rows of check's BenchmarkLogs time the
// library's loop, pass after pass in one process; this row sees what they
// do not: the process's start and setup, the output, memory written for
// the first time, and the hand-over between workers (with the default
// --jobs, one run took 1.8 times as long as with one worker until the
// workers took the sessions in batches). It reports the child's CPU time
// an event (its user and system time) and events per second of wall time.
func BenchmarkCommand(b *testing.B) {
	ivc, err := exec.LookPath("ivc") // the test binary as ivc (TestMain)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	lfrem := filepath.Join(testdata, "lfrem")
	spec := []string{filepath.Join(lfrem, "signature.hsf"), filepath.Join(lfrem, "i1.hif")}
	var stderr bytes.Buffer
	if status := run(append([]string{"gen"}, append(spec, "--kind", "accepted", "-n", "100000", "--seed", "1",
		"--log-format", "jsonl", "-o", dir)...), testEnv(&bytes.Buffer{}, &stderr)); status != 0 {
		b.Fatalf("ivc gen: status %d: %s", status, stderr.String())
	}
	log := filepath.Join(dir, "accepted.jsonl")
	data, err := os.ReadFile(log)
	if err != nil {
		b.Fatal(err)
	}
	events := bytes.Count(data, []byte("\n"))
	data = nil
	b.Run("bare", func(b *testing.B) { testutil.BenchmarkBareScan(b, []string{log}, events) })
	for _, jobs := range []string{"1", "default"} {
		b.Run("analyze/jobs="+jobs, func(b *testing.B) {
			args := []string{"analyze"}
			if jobs != "default" {
				args = append(args, "--jobs", jobs)
			}
			args = append(append(args, spec...), log)
			var cpu time.Duration
			for b.Loop() {
				out, err := os.Create(filepath.Join(dir, "records.txt"))
				if err != nil {
					b.Fatal(err)
				}
				var stderr bytes.Buffer
				cmd := exec.Command(ivc, args...)
				cmd.Stdout, cmd.Stderr = out, &stderr
				err = cmd.Run()
				out.Close()
				if err != nil || !strings.Contains(stderr.String(), fmt.Sprintf("events: %d judged", events)) {
					b.Fatalf("ivc %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(events*b.N), "cpu-ns/event")
		})
	}
}
