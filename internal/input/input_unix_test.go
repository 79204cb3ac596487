//go:build unix

package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(dir, 100); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("directory: %v", err)
	}
	// A device is refused before anything is read: /dev/zero would
	// otherwise fill the memory up to the limit.
	if _, err := os.Stat("/dev/zero"); err == nil {
		link := filepath.Join(dir, "zero.htf")
		if err := os.Symlink("/dev/zero", link); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/dev/zero", link} {
			_, err := ReadFile(p, DefaultLimit)
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
				t.Errorf("%s: %v", p, err)
			}
		}
	}
	// A named pipe with no writer is refused at once, not waited on.
	fifo := filepath.Join(dir, "pipe.htf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(fifo, DefaultLimit)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a named pipe blocks")
	}
}
