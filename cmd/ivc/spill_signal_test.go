//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpillInterrupted interrupts ivc analyze (SIGINT, then SIGTERM) while
// it holds sessions spilled to disk, and checks that it leaves no file in
// --tmp-dir: the spill files are open (seen in /proc/PID/fd) but have no
// name. The run reads a log, spills past --join-memory, then waits on its
// standard input, a pipe the test keeps open.
func TestSpillInterrupted(t *testing.T) {
	ivc, err := exec.LookPath("ivc") // the test binary as ivc (TestMain)
	if err != nil {
		t.Skip(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			tmp := filepath.Join(dir, "tmp")
			if err := os.Mkdir(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			for s := range 200 {
				fmt.Fprintf(&log, "{\"session\":\"s%d\",\"action\":\"S?d\",\"seq\":1}\n{\"session\":\"s%d\",\"action\":\"S!d_zero\",\"seq\":2}\n", s, s)
			}
			logFile := filepath.Join(dir, "S.jsonl")
			if err := os.WriteFile(logFile, []byte(log.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(ivc, "analyze", "--join-memory", "1KB", "--tmp-dir", tmp,
				filepath.Join(testdata, "abp", "abp.hsf"), logFile, "-")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for the spill: files of tmp, open and deleted.
			fds := filepath.Join("/proc", fmt.Sprint(cmd.Process.Pid), "fd")
			open := 0
			for deadline := time.Now().Add(30 * time.Second); open == 0 && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
				entries, _ := os.ReadDir(fds)
				for _, e := range entries {
					if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil &&
						strings.HasPrefix(target, tmp+string(filepath.Separator)) && strings.HasSuffix(target, " (deleted)") {
						open++
					}
				}
			}
			if open == 0 {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("ivc analyze never held a spill file open in %s\n%s", tmp, stderr.String())
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("%d spill files named in %s while the run holds them", len(left), tmp)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("after %v: %v, want exit status 130\n%s", sig, err, stderr.String())
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("after %v: %d files left in %s", sig, len(left), tmp)
			}
		})
	}
}
