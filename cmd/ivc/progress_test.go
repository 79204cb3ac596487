//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
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

// until returns what the terminal showed until what it showed satisfies
// done, failing the test if the terminal closes first or stays silent for
// long. Nothing waits on a clock otherwise: each step of the test waits for
// what it draws.
func until(t *testing.T, ch chan string, done func(string) bool) string {
	t.Helper()
	var out strings.Builder
	for !done(out.String()) {
		select {
		case s, ok := <-ch:
			if !ok {
				t.Fatalf("the terminal closed after %q", out.String())
			}
			out.WriteString(s)
		case <-time.After(time.Minute):
			t.Fatalf("the terminal shows %q and nothing more for a minute", out.String())
		}
	}
	return out.String()
}

// shows is the condition that the terminal showed want.
func shows(want string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, want) }
}

// cleared is the condition that the line was erased last: a carriage
// return, blanks and a carriage return, with nothing drawn after them.
func cleared(s string) bool { return regexp.MustCompile(`\r +\r$`).MatchString(s) }

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
	// (The first draw of a bar is never throttled.)
	p := newProgress(term, files, false)
	if p == nil {
		t.Fatal("no progress bar on a terminal")
	}
	p.show(1)
	if got := until(t, shown, shows("(1/3")); !strings.Contains(got, "analyzing") {
		t.Errorf("the terminal shows %q", got)
	}
	p.clear()
	until(t, shown, cleared)
	// Logs: sessions are counted, with no total. (A bar draws at most ten
	// times a second; here, at every count.)
	defer func(d time.Duration) { progressThrottle = d }(progressThrottle)
	progressThrottle = 0
	logs := newProgress(term, []string{"a.jsonl"}, false)
	if logs == nil {
		t.Fatal("no progress bar for a log")
	}
	logs.show(5)
	logs.show(6)
	if got := until(t, shown, shows("(6/")); !strings.Contains(got, "analyzing (6/-)") {
		t.Errorf("the terminal shows %q", got)
	}
	// More sessions than files: the total becomes unknown.
	p = newProgress(term, files, false)
	p.show(4)
	p.show(5)
	if got := until(t, shown, shows("(5/")); !strings.Contains(got, "analyzing (5/-)") {
		t.Errorf("past the total, the terminal shows %q", got)
	}
}
