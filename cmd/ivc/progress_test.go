//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the terminal side, where ivc writes,
// and the controller side, where the test reads what a user would see.
func openPTY(t *testing.T) (term, ctl *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ctl.Close() })
	fd := int(ctl.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	return term, ctl
}

// screen collects what the terminal shows, from the controller side.
func screen(ctl *os.File) chan string {
	ch := make(chan string, 64)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ctl.Read(buf)
			if n > 0 {
				ch <- string(buf[:n])
			}
			if err != nil {
				close(ch)
				return
			}
		}
	}()
	return ch
}

// read returns what the terminal showed until it is quiet for 200ms.
func read(ch chan string) string {
	var out strings.Builder
	for {
		select {
		case s, ok := <-ch:
			if !ok {
				return out.String()
			}
			out.WriteString(s)
		case <-time.After(200 * time.Millisecond):
			return out.String()
		}
	}
}

func TestProgress(t *testing.T) {
	files := []string{"a.htf", "b.htf", "c.htf"}
	// Never in a pipe or a file, never with --format json, not for one file.
	var buf bytes.Buffer
	if newProgress(&buf, files, false) != nil {
		t.Error("a progress bar into a buffer")
	}
	term, ctl := openPTY(t)
	shown := screen(ctl)
	if newProgress(term, files, true) != nil {
		t.Error("a progress bar with --format json")
	}
	if newProgress(term, files[:1], false) != nil {
		t.Error("a progress bar for one multi-trace")
	}
	// On a terminal: the bar, its count, and a clean line once cleared.
	p := newProgress(term, files, false)
	if p == nil {
		t.Fatal("no progress bar on a terminal")
	}
	p.show(1)
	if got := read(shown); !strings.Contains(got, "analyzing") || !strings.Contains(got, "(1/3") {
		t.Errorf("the terminal shows %q", got)
	}
	p.clear()
	if got := read(shown); !strings.Contains(got, "\r") {
		t.Errorf("clearing writes %q", got)
	}
	// Logs: sessions are counted, with no total.
	logs := newProgress(term, []string{"a.jsonl"}, false)
	if logs == nil {
		t.Fatal("no progress bar for a log")
	}
	logs.show(5)
	time.Sleep(110 * time.Millisecond)
	logs.show(6)
	if got := read(shown); !strings.Contains(got, "analyzing (6/-)") {
		t.Errorf("the terminal shows %q", got)
	}
	// More sessions than files: the total becomes unknown.
	p.show(4)
	time.Sleep(110 * time.Millisecond)
	p.show(5)
	if got := read(shown); !strings.Contains(got, "analyzing (5/-)") {
		t.Errorf("past the total, the terminal shows %q", got)
	}
}
