package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// full is a standard output on a full disk, as /dev/full is.
type full struct{ writes int }

func (f *full) Write(p []byte) (int, error) {
	f.writes++
	return 0, syscall.ENOSPC
}

// TestOutputLost: results that cannot be written are an error (exit
// status 2, said once on stderr), never a silent exit 0, whatever the
// command; after the first failed write nothing more is
// tried.
func TestOutputLost(t *testing.T) {
	abp := filepath.Join(testdata, "abp")
	for _, args := range [][]string{
		{"analyze", filepath.Join(abp, "abp.hsf"), filepath.Join(abp, "traces")},
		{"analyze", "--format", "json", filepath.Join(abp, "abp.hsf"), filepath.Join(abp, "traces", "trace1.htf")},
		{"stats", filepath.Join(abp, "abp.hsf")},
		{"draw", filepath.Join(abp, "abp.hsf")},
	} {
		var stderr bytes.Buffer
		out := &full{}
		status := run(args, testEnv(out, &stderr))
		if status != exitInput || strings.Count(stderr.String(), "no space left on device") != 1 || out.writes != 1 {
			t.Errorf("ivc %s: status %d, %d writes, stderr:\n%s", strings.Join(args, " "), status, out.writes, stderr.String())
		}
	}
}

// short takes the first n bytes written to it, then fails as a full disk.
type short struct {
	bytes.Buffer
	n int
}

func (s *short) Write(p []byte) (int, error) {
	k := min(len(p), s.n-s.Len())
	s.Buffer.Write(p[:k])
	if k < len(p) {
		return k, syscall.ENOSPC
	}
	return k, nil
}

// TestRecordOutputFlush: ivc monitor's records are written together at a
// flush, not one by one; of a write the disk took in part, the records it
// took whole are written and the others counted unwritten, and the error
// is reported.
func TestRecordOutputFlush(t *testing.T) {
	w := &short{n: 25}
	var reported []error
	o, err := openOutput("", w, func(err error) { reported = append(reported, err) })
	if err != nil {
		t.Fatal(err)
	}
	record := func(s string) {
		o.mu.Lock()
		o.buf.WriteString(s)
		o.ends = append(o.ends, o.buf.Len())
		o.mu.Unlock()
	}
	record("{\"a\":1}\n")
	record("{\"b\":2}\n")
	if w.Len() != 0 {
		t.Errorf("written before a flush: %q", w.String())
	}
	record("{\"c\":3}\n")
	record("{\"d\":4}\n")
	o.flush()
	if w.String() != "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n{" || o.unwritten.Load() != 1 || len(reported) != 1 || o.healthy() == nil {
		t.Errorf("written %q, %d unwritten, reported %v", w.String(), o.unwritten.Load(), reported)
	}
	w.n = 1 << 10
	record("{\"e\":5}\n")
	if err := o.Close(); err != nil || !strings.HasSuffix(w.String(), "{\"e\":5}\n") || o.healthy() != nil || len(reported) != 2 {
		t.Errorf("at Close: %v, written %q, reported %v", err, w.String(), reported)
	}
}

// shortFile takes n bytes of a write into its file, then fails as a full
// disk does.
type shortFile struct {
	f *os.File
	n int
}

func (s *shortFile) Write(p []byte) (int, error) {
	k := min(len(p), s.n)
	s.n -= k
	if _, err := s.f.Write(p[:k]); err != nil {
		return 0, err
	}
	if k < len(p) {
		return k, syscall.ENOSPC
	}
	return k, nil
}

// TestRecordOutputCut: a record a full disk took in part is taken back
// from the file, so that the next records, written once there is room,
// are whole lines.
func TestRecordOutputCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.jsonl")
	o, err := openOutput(path, nil, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	w := &shortFile{f: o.f, n: 12}
	o.out = w
	for _, s := range []string{"{\"a\":1}\n", "{\"b\":2}\n"} {
		o.buf.WriteString(s)
		o.ends = append(o.ends, o.buf.Len())
	}
	o.flush()
	w.n = 1 << 10
	o.buf.WriteString("{\"c\":3}\n")
	o.ends = append(o.ends, o.buf.Len())
	o.flush()
	o.Close()
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "{\"a\":1}\n{\"c\":3}\n" || o.unwritten.Load() != 1 {
		t.Errorf("file %q (%v), %d unwritten", got, err, o.unwritten.Load())
	}
}

// writes is one stream for both of a run's standard output and error (as
// 2>&1 makes them), counting the writes to the first.
type writes struct {
	mu      sync.Mutex
	all     bytes.Buffer
	results int
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.results++
	return w.all.Write(p)
}

func (w *writes) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// errors is the run's standard error on the same stream as w.
type errorsOf struct{ w *writes }

func (e errorsOf) Write(p []byte) (int, error) {
	e.w.mu.Lock()
	defer e.w.mu.Unlock()
	return e.w.all.Write(p)
}

// TestOutputGathered: a batch's records are written together rather than
// one write each, and what stderr says (a bad file in the batch, the
// summary) still comes after the records before it and before those after
// it.
func TestOutputGathered(t *testing.T) {
	abp := filepath.Join(testdata, "abp")
	dir := t.TempDir()
	for name, from := range map[string]string{"a.htf": "trace1.htf", "c.htf": "trace2.htf", "d.htf": "trace1_error_1.htf"} {
		b, err := os.ReadFile(filepath.Join(abp, "traces", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "b.htf"), []byte("[ nonsense"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &writes{}
	status := run([]string{"analyze", filepath.Join(abp, "abp.hsf"), filepath.Join(abp, "abp.hif"), dir}, testEnv(w, errorsOf{w}))
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	var order []string
	for _, l := range lines {
		if name := strings.TrimPrefix(l, dir+string(filepath.Separator)); name != l && len(name) > 5 && name[5] == ':' {
			order = append(order, name[:1]) // a.htf: ..., b.htf:1:11: ...
		}
		switch {
		case strings.Contains(l, "multi-traces:"):
			order = append(order, "summary")
		}
	}
	if status != exitInput || strings.Join(order, " ") != "a b c d summary" {
		t.Errorf("status %d, order %v:\n%s", status, order, w.String())
	}
	// The three records: one write before the error, one after.
	if w.results != 2 {
		t.Errorf("%d writes of results, want 2", w.results)
	}
}

// TestOutputDelay: what output gathers is written outputDelay after it
// came, without a write after it, and at once by flushOutputs (SIGINT);
// nothing of a closed output is left to flush.
func TestOutputDelay(t *testing.T) {
	w := &writes{}
	o := newOutput(w)
	o.Write([]byte("first\n"))
	if w.String() != "" {
		t.Fatalf("written at once: %q", w.String())
	}
	deadline := time.Now().Add(20 * outputDelay)
	for w.String() == "" && time.Now().Before(deadline) {
		time.Sleep(outputDelay / 10)
	}
	if w.String() != "first\n" {
		t.Fatalf("after %v: %q", 20*outputDelay, w.String())
	}
	o.Write([]byte("second\n"))
	flushOutputs(time.Minute)
	if w.String() != "first\nsecond\n" {
		t.Errorf("after flushOutputs: %q", w.String())
	}
	o.Write([]byte("third\n"))
	if err := o.Close(); err != nil || w.String() != "first\nsecond\nthird\n" || w.results != 3 {
		t.Errorf("after Close: %v, %q in %d writes", err, w.String(), w.results)
	}
	if _, ok := outputs.Load(o); ok {
		t.Error("a closed output is still flushed at SIGINT")
	}
}

// TestRecordOutputStdout: ivc monitor's records, gathered and written at
// its flushes, are not gathered again by standard output: a flush writes
// them.
func TestRecordOutputStdout(t *testing.T) {
	w := &writes{}
	stdout := newOutput(w)
	defer stdout.Close()
	o, err := openOutput("", stdout, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	o.mu.Lock()
	o.buf.WriteString("{\"a\":1}\n")
	o.ends = append(o.ends, o.buf.Len())
	o.mu.Unlock()
	o.flush()
	if w.String() != "{\"a\":1}\n" {
		t.Errorf("after the monitor's flush: %q", w.String())
	}
}

// TestSameDestination: stderr flushes the results first unless both
// streams are files known to differ.
func TestSameDestination(t *testing.T) {
	dir := t.TempDir()
	open := func(name string) *os.File {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b, a2 := open("a"), open("b"), open("a")
	for _, c := range []struct {
		x, y io.Writer
		want bool
	}{{a, b, false}, {a, a2, true}, {a, &bytes.Buffer{}, true}, {&bytes.Buffer{}, b, true}} {
		if got := sameDestination(c.x, c.y); got != c.want {
			t.Errorf("sameDestination(%T, %T) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// blocked is a pipe nobody reads: its writes never return.
type blocked struct{ never chan struct{} }

func (b blocked) Write(p []byte) (int, error) {
	<-b.never
	return len(p), nil
}

// TestFlushOutputsBlocked: at SIGINT, a standard output that cannot be
// written does not keep ivc from exiting.
func TestFlushOutputsBlocked(t *testing.T) {
	o := newOutput(blocked{make(chan struct{})})
	defer outputs.Delete(o)
	o.Write([]byte("stuck\n"))
	done := make(chan struct{})
	go func() {
		flushOutputs(10 * time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("flushOutputs waits for a write that never ends")
	}
}
