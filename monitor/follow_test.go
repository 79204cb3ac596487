package monitor_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ivc-project/ivc/monitor"
)

// TestFollow: appended lines, a rotation and a truncation, all read.
func TestFollow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := monitor.Follow(ctx, path, 5*time.Millisecond)
	defer r.Close()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	expect := func(want string) {
		t.Helper()
		select {
		case got := <-lines:
			if got != want {
				t.Fatalf("read %q, want %q", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q never read", want)
		}
	}
	write := func(name string, flag int, s string) {
		t.Helper()
		f, err := os.OpenFile(name, flag|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	write(path, os.O_APPEND, "one\n")
	expect("one")
	write(path, os.O_APPEND, "two\n")
	expect("two")
	if err := os.Rename(path, path+".1"); err != nil { // rotation
		t.Fatal(err)
	}
	write(path, os.O_APPEND, "three\n")
	expect("three")
	write(path, os.O_TRUNC, "4\n") // truncation: shorter than what was read
	expect("4")
	cancel()
	for range lines {
	}
}
