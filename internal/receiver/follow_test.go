package receiver_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/logs"
)

// TestFollow: appended lines, a rotation and a truncation, all read.
func TestFollow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := receiver.Follow(ctx, path, receiver.FollowOptions{Poll: 5 * time.Millisecond})
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

// TestFollowCopytruncate: a file truncated in place and written again
// before the follower looks (longer than what was read) is read again
// from its start, with a warning.
func TestFollowCopytruncate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.jsonl")
	if err := os.WriteFile(path, []byte("old 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var warned atomic.Int32
	poll := 300 * time.Millisecond
	r := receiver.Follow(ctx, path, receiver.FollowOptions{Poll: poll, Warn: func(error) { warned.Add(1) }})
	defer r.Close()
	sc := bufio.NewScanner(r)
	if !sc.Scan() || sc.Text() != "old 1" {
		t.Fatalf("read %q, %v", sc.Text(), sc.Err())
	}
	// copytruncate: the file copied away, truncated, then written again
	// at once, within the follower's poll.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("new 1\nnew 2\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, want := range []string{"new 1", "new 2"} {
		if !sc.Scan() || sc.Text() != want {
			t.Fatalf("read %q, want %q (%v)", sc.Text(), want, sc.Err())
		}
	}
	if warned.Load() != 1 {
		t.Errorf("%d warnings of a truncation, want 1", warned.Load())
	}
}

// haltingLogs reads the first bytes of a log (a chunk of 4096 when 0),
// calls then (when set: a rotation, a truncation), closes halt, then reads
// on.
type haltingLogs struct {
	halt  chan struct{}
	first int64
	then  func() error
	read  int64
}

func (h *haltingLogs) ConsumeLog(source string, r io.Reader, f logs.Format) (logs.Stats, error) {
	buf := make([]byte, cmp.Or(h.first, 4096))
	var n int
	var err error
	if h.first > 0 {
		n, err = io.ReadFull(r, buf)
	} else {
		n, err = r.Read(buf)
	}
	h.read += int64(n)
	if err == nil && h.then != nil {
		err = h.then()
	}
	close(h.halt)
	for err == nil {
		n, err = r.Read(buf)
		h.read += int64(n)
	}
	return logs.Stats{}, nil
}

// TestFollowHalt: halted, a follower stops at once and says how much of
// its file it left: after its first read, or before it opened the file (a
// shutdown grace that ends at once: the whole file, not nothing).
func TestFollowHalt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.jsonl")
	data := bytes.Repeat([]byte(`{"session":"a","action":"S?d"}`+"\n"), 10000)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, before := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // shutting down: read to the end, unless halted
		h := &haltingLogs{halt: make(chan struct{})}
		halt := h.halt // closed after the first read
		if before {
			halt = make(chan struct{})
			close(halt)
		}
		left, err := receiver.FollowLog(ctx, h, path, nil, receiver.FollowOptions{Poll: time.Millisecond, Halt: halt})
		if err != nil {
			t.Fatal(err)
		}
		if !left.Halted || left.Bytes != int64(len(data))-h.read || h.read == int64(len(data)) || before != (h.read == 0) {
			t.Errorf("halted before opening %v: read %d bytes of %d, left %+v", before, h.read, len(data), left)
		}
	}
}

// TestFollowHaltAfterRotation: halted once its file was read and another
// put in its place, or the file truncated and written again (shorter or
// longer), a follower says the new content is left, whole.
func TestFollowHaltAfterRotation(t *testing.T) {
	for _, c := range []struct {
		truncate bool
		lines    int
	}{{false, 3}, {true, 3}, {true, 30}} {
		dir := t.TempDir()
		path, next := filepath.Join(dir, "app.jsonl"), filepath.Join(dir, "app.jsonl.new")
		line := []byte(`{"session":"a","action":"S?d"}` + "\n")
		if err := os.WriteFile(path, bytes.Repeat(line, 10), 0o644); err != nil {
			t.Fatal(err)
		}
		content := bytes.Repeat(line, c.lines)
		content[0] = '[' // another first line: the fingerprint changes
		if err := os.WriteFile(next, content, 0o644); err != nil {
			t.Fatal(err)
		}
		h := &haltingLogs{halt: make(chan struct{}), first: int64(10 * len(line)), then: func() error {
			if c.truncate {
				return os.WriteFile(path, content, 0o644)
			}
			return os.Rename(next, path)
		}}
		left, err := receiver.FollowLog(context.Background(), h, path, nil, receiver.FollowOptions{Poll: time.Hour, Halt: h.halt})
		if err != nil {
			t.Fatal(err)
		}
		if !left.Halted || h.read != h.first || left.Bytes != int64(len(content)) {
			t.Errorf("%+v: read %d bytes, left %+v; want %d read, %d left", c, h.read, left, h.first, len(content))
		}
	}
}
