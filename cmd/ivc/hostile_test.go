//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"github.com/ivc-project/ivc/internal/hostile"
	"github.com/ivc-project/ivc/internal/testutil"
)

// Limits of TestHostileMemory: the --max-memory of the runs, the margin
// beside it (the Go runtime, the specification and the analyses' own
// structures: about 25 MiB for a log refused at its first value, 95 MiB
// for 200,000 sessions judged, whatever the budget), and the address space
// of each run (Go itself needs about 2 GiB of it; without the limits of
// reading, the first three logs took 0.2 to 0.9 GB at this scale, and
// gigabytes at the issue's).
const (
	hostileBudget = 32 << 20
	hostileMargin = 96 << 20
	hostileAS     = 3 << 30
)

// TestHostileMemory runs ivc analyze on the hostile logs
// (package hostile, at its Small scale) with a small --max-memory, each
// in a child process under an address-space cap (ulimit -v): none may
// crash, each says which limit it met, and the peak resident memory of
// each (getrusage's ru_maxrss) stays under the budget and a margin. It
// writes 0.9 MB of gzip that read as about 190 MB; sweep only.
func TestHostileMemory(t *testing.T) {
	if !testutil.Sweep() {
		t.Skip("sweep only: go test -tags sweep -run TestHostileMemory ./cmd/ivc/")
	}
	ivc, err := exec.LookPath("ivc-peak") // the test binary as ivc, writing its peak memory (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := hostile.Write(dir, hostile.Small); err != nil {
		t.Fatal(err)
	}
	spec, err := filepath.Abs(filepath.Join(testdata, "abp", "abp.hsf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file   string
		status int
		stderr string // a line of stderr
	}{
		{"jaeger-huge.json.gz", 2, `^outside the signature, most seen: message "d{256}…" \(256 events\)$`},
		{"jaeger-tags.json.gz", 2, `^jaeger-tags.json.gz:1:\d+: a JSON value longer than 524288 bytes, the most one value may hold \(--max-memory raises it, up to 16777216\)$`},
		{"otlp-huge.jsonl.gz", 2, `^otlp-huge.jsonl.gz:1:\d+: a JSON value longer than 524288 bytes, the most one value may hold \(--max-memory raises it, up to 16777216\)$`},
		{"otlp-spans.json.gz", 2, `^otlp-spans.json.gz:\d+:\d+: the spans read so far take more than 8388608 bytes, the most a file may hold until it is read \(to pair them; --max-memory raises it\)$`},
		{"session.jsonl.gz", 2, `^session.jsonl.gz:233017: session "s" holds more than 233016 events \(8388576 bytes\), the most one session may hold \(--max-memory raises it\)$`},
		{"sessions.jsonl.gz", 1, `^200000 multi-traces: 200000 Fail in `},
	} {
		t.Run(c.file, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", `ulimit -v "$1" && shift && exec "$@"`, "sh", strconv.Itoa(hostileAS>>10),
				ivc, "analyze", "--max-memory", strconv.Itoa(hostileBudget), spec, c.file)
			cmd.Dir = dir
			peakFile := filepath.Join(t.TempDir(), "peak")
			cmd.Env = append(os.Environ(), "IVC_PEAK_FILE="+peakFile)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			status := cmd.ProcessState.ExitCode()
			if err != nil && status < 0 {
				t.Fatalf("%v\n%s", err, stderr.Bytes())
			}
			if status != c.status || bytes.Contains(stderr.Bytes(), []byte("fatal error")) || bytes.Contains(stderr.Bytes(), []byte("panic")) {
				t.Fatalf("exit status %d, want %d; stderr:\n%.2000s", status, c.status, stderr.Bytes())
			}
			if !regexp.MustCompile(`(?m)` + c.stderr).Match(stderr.Bytes()) {
				t.Errorf("no line of stderr matches %s:\n%.2000s", c.stderr, stderr.Bytes())
			}
			// The child's own peak (VmHWM), or, where /proc is not, its
			// rusage (which may carry this process's own peak).
			rss := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10
			if b, err := os.ReadFile(peakFile); err == nil {
				if kb, err := strconv.ParseInt(string(b), 10, 64); err == nil {
					rss = kb << 10
				}
			}
			t.Logf("peak RSS %d MiB (budget %d MiB)", rss>>20, hostileBudget>>20)
			if rss > hostileBudget+hostileMargin {
				t.Errorf("peak RSS %d bytes, more than --max-memory %d + %d", rss, hostileBudget, hostileMargin)
			}
		})
	}
}
