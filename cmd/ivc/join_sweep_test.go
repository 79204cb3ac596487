//go:build sweep && linux

package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
)

var (
	joinSessions  = flag.Int("join.sessions", 1_000_000, "BenchmarkJoinSpill: sessions of the logs")
	joinRotations = flag.Int("join.rotations", 5, "BenchmarkJoinSpill: files of each service's rotated log")
	joinBudget    = flag.String("join.budget", "256MiB", "BenchmarkJoinSpill: --max-memory of the spilling run")
	joinArgs      = flag.String("join.args", "", "BenchmarkJoinSpill: more flags of both runs of ivc analyze, space-separated (e.g. --huge-pages=false)")
)

// BenchmarkJoinSpill is the large join run: the ABP's four services each
// write their log, rotated into five files (20 files), of 1M sessions and
// about 10M events (multi-prefixes of about 10 events each, drawn by
// package gen and repeated), generated into a temporary directory. ivc analyze
// (built from this package, one worker) judges them twice, as a child
// process: in memory (--join-memory far above what they hold), and under
// --max-memory 256MiB, which the joiner spills past. It reports each run's
// peak RSS (the child's getrusage maxrss) and throughput, per second of
// wall-clock time and per second of CPU time (steadier on a loaded
// machine), and the spilling run's share of the in-memory one. Heavy
// (minutes, about 1 GB of logs): run it once, alone,
//
//	go test -tags sweep -run '^$' -bench JoinSpill -benchtime 1x ./cmd/ivc
//
// (-args -join.sessions 100000 for a tenth of it; -join.args for more flags
// of ivc analyze).
func BenchmarkJoinSpill(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "ivc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	hsf := filepath.Join(testdata, "abp", "abp.hsf")
	in, err := spec.Load(hsf, "")
	if err != nil {
		b.Fatal(err)
	}
	gen, err := gen.Generate(in.Store, in.Root, gen.Config{Kind: gen.KindPrefix, N: 20000, Seed: 1,
		Options: gen.Options{MaxLength: 20}})
	if err != nil {
		b.Fatal(err)
	}
	var pool []*multitrace.MultiTrace
	for i := range gen {
		if gen[i].Len() > 0 {
			pool = append(pool, &gen[i])
		}
	}
	logs := filepath.Join(dir, "logs")
	start := time.Now()
	events, files := writeServiceLogs(b, logs, in, pool, *joinSessions, *joinRotations)
	b.Logf("%d sessions (%d distinct), %d events in %d files, written in %s", *joinSessions, len(pool), events, files, time.Since(start).Round(time.Second))

	type result struct {
		wall, cpu time.Duration
		rssMiB    float64
		stderr    string
	}
	run := func(args ...string) result {
		args = append(args, strings.Fields(*joinArgs)...)
		cmd := exec.Command(bin, append([]string{"analyze", "--jobs", "1", "--format", "json", hsf, logs}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		wall := time.Since(start)
		if err != nil {
			b.Fatalf("ivc analyze %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		want := fmt.Sprintf("%d log files: %d sessions", files, *joinSessions)
		if !strings.Contains(stderr.String(), want) {
			b.Fatalf("ivc analyze %s: no %q in\n%s", strings.Join(args, " "), want, stderr.String())
		}
		return result{wall: wall, cpu: cpu, rssMiB: float64(ru.Maxrss) / 1024, stderr: stderr.String()}
	}
	spilled := regexp.MustCompile(`(?m)^sessions spilled to disk`)
	for b.Loop() {
		mem := run("--join-memory", "64GiB")
		if spilled.MatchString(mem.stderr) {
			b.Fatalf("the in-memory run spilled:\n%s", mem.stderr)
		}
		disk := run("--max-memory", *joinBudget)
		if !spilled.MatchString(disk.stderr) {
			b.Fatalf("the run under --max-memory %s did not spill:\n%s", *joinBudget, disk.stderr)
		}
		b.Logf("in memory: %s\nspilling: %s", mem.stderr, disk.stderr)
		rate := func(d time.Duration) float64 { return float64(events) / d.Seconds() }
		b.ReportMetric(rate(mem.wall), "mem-events/s")
		b.ReportMetric(rate(mem.cpu), "mem-events/cpu-s")
		b.ReportMetric(mem.rssMiB, "mem-peak-RSS-MiB")
		b.ReportMetric(rate(disk.wall), "spill-events/s")
		b.ReportMetric(rate(disk.cpu), "spill-events/cpu-s")
		b.ReportMetric(disk.rssMiB, "spill-peak-RSS-MiB")
		b.ReportMetric(mem.wall.Seconds()/disk.wall.Seconds(), "spill/mem")
		b.ReportMetric(mem.cpu.Seconds()/disk.cpu.Seconds(), "spill/mem-cpu")
	}
}

// writeServiceLogs writes sessions sessions, session i the multi-trace
// pool[i%len(pool)], as the JSON Lines logs of its services (one per
// location), each rotated into rotations files (svc.jsonl the newest,
// svc.1.jsonl before it, ...), with its own clock (a seq of its own). The
// sessions are interleaved 32 at a time. It returns the events and files
// written.
func writeServiceLogs(b *testing.B, dir string, sp *spec.Spec, pool []*multitrace.MultiTrace, sessions, rotations int) (events, files int) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	sig := sp.Sig
	const concurrent = 32
	for k, comp := range pool[0].Components {
		total := 0
		for i := range sessions {
			total += len(pool[i%len(pool)].Components[k].Trace)
		}
		perFile := (total + rotations - 1) / rotations
		name := fmt.Sprintf("loc%d", k+1)
		for l := range comp.Lifelines.All() { // one lifeline a location
			name = sig.Lifelines[l]
		}
		var f *os.File
		var w *bufio.Writer
		written, file := 0, rotations
		next := func() { // the next file, older ones first
			if w != nil {
				if err := w.Flush(); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
			file--
			path := filepath.Join(dir, name+".jsonl")
			if file > 0 {
				path = filepath.Join(dir, name+"."+strconv.Itoa(file)+".jsonl")
			}
			var err error
			if f, err = os.Create(path); err != nil {
				b.Fatal(err)
			}
			w = bufio.NewWriterSize(f, 1<<20)
			files++
		}
		next()
		seq := int64(k+1) * 1_000_000_000 // each service its own clock
		var line []byte
		for base := 0; base < sessions; base += concurrent {
			for e := 0; ; e++ {
				more := false
				for s := base; s < min(base+concurrent, sessions); s++ {
					trace := pool[s%len(pool)].Components[k].Trace
					if e >= len(trace) {
						continue
					}
					more = true
					if written == perFile && file > 0 {
						next()
						written = 0
					}
					line = append(line[:0], `{"session":"s`...)
					line = strconv.AppendInt(line, int64(s+1), 10)
					line = append(line, `","action":"`...)
					line = trace[e][0].AppendFormat(line, sig)
					line = append(line, `","seq":`...)
					line = strconv.AppendInt(line, seq, 10)
					line = append(line, "}\n"...)
					w.Write(line)
					seq++
					written++
					events++
				}
				if !more {
					break
				}
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
	return events, files
}
