package main

import (
	"bytes"
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
