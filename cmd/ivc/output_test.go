package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
