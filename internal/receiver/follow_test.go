package receiver_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/receiver"
)

// TestFollow: appended lines, a rotation and a truncation, all read.
func TestFollow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := receiver.Follow(ctx, path, 5*time.Millisecond)
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

// TestStream: at the end of its context, a stream returns what its
// source has given (a chunk read ahead), then io.EOF while its source
// would make it wait.
func TestStream(t *testing.T) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	sc := bufio.NewScanner(receiver.Stream(ctx, pr))
	go pw.Write([]byte("one\n"))
	if !sc.Scan() || sc.Text() != "one" {
		t.Fatalf("read %q, %v", sc.Text(), sc.Err())
	}
	if _, err := pw.Write([]byte("two\n")); err != nil { // read ahead
		t.Fatal(err)
	}
	cancel()
	if !sc.Scan() || sc.Text() != "two" {
		t.Fatalf("read %q, %v: what was read ahead is lost", sc.Text(), sc.Err())
	}
	if sc.Scan() {
		t.Fatalf("read %q after the end", sc.Text())
	}
	go pw.Write([]byte("three\n")) // to the read under way at the end: not received
	pw.Close()
}
