package receiver

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/logs"
)

// Logs is what the followers hand the stream of a log to: its events are
// read as they come, as the log is written.
type Logs interface {
	ConsumeLog(source string, r io.Reader, f logs.Format) (logs.Stats, error)
}

// FollowLog hands next the JSON Lines log at path, its source: followed as
// tail -F does (Follow, polling every poll) until ctx is done, then read to
// its end; "-" is stdin, read until ctx is done and it is quiet (Stream).
// It returns once the log is read, with the reading's error (none for the
// end of ctx).
func FollowLog(ctx context.Context, next Logs, path string, stdin io.Reader, poll time.Duration) error {
	var r io.ReadCloser
	if path == input.Stdin {
		r = io.NopCloser(Stream(ctx, stdin))
	} else {
		r = Follow(ctx, path, poll)
	}
	defer r.Close()
	if _, err := next.ConsumeLog(path, r, logs.JSONL); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// Follow returns a reader of the file at path that follows it as tail -F
// does: at its end it waits for more (polling every poll), and when the
// file is replaced (rotation: a new file at path) it reads the old one to
// its end, then the new one from its start; when the file shrinks
// (truncation) it reads again from the start. A file not there yet is
// waited for. The reader returns io.EOF once ctx is done.
func Follow(ctx context.Context, path string, poll time.Duration) io.ReadCloser {
	return &follower{ctx: ctx, path: path, poll: poll}
}

type follower struct {
	ctx  context.Context
	path string
	poll time.Duration
	f    *os.File
	fi   fs.FileInfo // of f
	off  int64
}

func (t *follower) Read(p []byte) (int, error) {
	for {
		if t.f == nil {
			f, err := os.Open(t.path)
			if err == nil {
				t.fi, err = f.Stat()
				if err != nil {
					f.Close()
				} else {
					t.f, t.off = f, 0
				}
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return 0, err
			}
		}
		if t.f != nil {
			n, err := t.f.Read(p)
			t.off += int64(n)
			if n > 0 {
				return n, nil
			}
			if err != nil && err != io.EOF {
				return 0, err
			}
			// At the end: rotated, truncated, or nothing new yet.
			if fi, err := os.Stat(t.path); err == nil {
				switch {
				case !os.SameFile(fi, t.fi):
					t.f.Close()
					t.f = nil
					continue
				case fi.Size() < t.off:
					if _, err := t.f.Seek(0, io.SeekStart); err != nil {
						return 0, err
					}
					t.off = 0
					continue
				}
			}
		}
		select {
		case <-t.ctx.Done():
			return 0, io.EOF
		case <-time.After(t.poll):
		}
	}
}

func (t *follower) Close() error {
	if t.f != nil {
		return t.f.Close()
	}
	return nil
}

// Stream returns a reader of r, a stream that may never end (standard
// input), that ends once ctx is done: it then returns what r gives until r
// has been quiet for streamQuiet, then io.EOF. A goroutine reads r ahead,
// a chunk at a time; what its read under way at the end brings later is
// not received (as what is still in the pipe).
func Stream(ctx context.Context, r io.Reader) io.Reader {
	s := &stream{ctx: ctx, ch: make(chan []byte)}
	go func() {
		defer close(s.ch)
		for {
			s.mu.Lock()
			if s.ended {
				s.mu.Unlock()
				return
			}
			s.reading, s.since = true, time.Now()
			s.mu.Unlock()
			buf := make([]byte, 64<<10)
			n, err := r.Read(buf)
			s.mu.Lock()
			s.reading = false
			ended := s.ended
			s.mu.Unlock()
			if ended {
				return
			}
			if n > 0 {
				s.ch <- buf[:n]
			}
			if err != nil {
				if err != io.EOF {
					s.err = err
				}
				return
			}
		}
	}()
	return s
}

// streamQuiet is how long a Stream's source is waited for at the end.
const streamQuiet = 10 * time.Millisecond

type stream struct {
	ctx  context.Context
	ch   chan []byte
	rest []byte

	mu      sync.Mutex
	reading bool      // the goroutine waits in a read of r
	since   time.Time // since then
	ended   bool      // Read returned io.EOF at the end of ctx
	err     error     // of r, set before ch is closed
}

func (s *stream) Read(p []byte) (int, error) {
	for len(s.rest) == 0 {
		var ok bool
		select {
		case s.rest, ok = <-s.ch:
		case <-s.ctx.Done():
			// The end: what r gives until it is quiet.
			for wait := true; wait; {
				s.mu.Lock()
				if s.reading && time.Since(s.since) >= streamQuiet {
					s.ended = true
					s.mu.Unlock()
					return 0, io.EOF
				}
				s.mu.Unlock()
				select {
				case s.rest, ok = <-s.ch:
					wait = false
				case <-time.After(time.Millisecond):
				}
			}
		}
		if !ok {
			if s.err != nil {
				return 0, s.err
			}
			return 0, io.EOF
		}
	}
	n := copy(p, s.rest)
	s.rest = s.rest[n:]
	return n, nil
}
