package receiver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/syntax"
)

// Logs is what the followers hand the stream of a log to: its events are
// read as they come, as the log is written.
type Logs interface {
	ConsumeLog(source string, r io.Reader, f logs.Format) (logs.Stats, error)
}

// FollowOptions are how a log is followed.
type FollowOptions struct {
	// Poll is how often a file read to its end is looked at again.
	Poll time.Duration
	// Halt, once closed, ends the reading at once, wherever it is: the
	// shutdown grace is over. What was left unread is returned (Left).
	Halt <-chan struct{}
	// Warn, when set, is told of what the reading cannot help: a file
	// truncated (copytruncate rotation), read again from its start.
	Warn func(error)
}

// Left is what a follower left unread when it was halted.
type Left struct {
	// Halted: the reading was halted before the log's end.
	Halted bool
	// Bytes is, for a file, what it held past what was read (for standard
	// input, unknown: 0).
	Bytes int64
}

// FollowLog hands next the JSON Lines log at path, its source: followed as
// tail -F does (Follow) until ctx is done, then read to its end; "-" is
// stdin, read until ctx is done and it is quiet (Stream). It returns once
// the log is read or opt.Halt is closed, with what was left unread and the
// reading's error (none for the end of ctx).
func FollowLog(ctx context.Context, next Logs, path string, stdin io.Reader, opt FollowOptions) (Left, error) {
	var r io.ReadCloser
	var left func() Left
	if path == input.Stdin {
		s := newStream(ctx, stdin, opt.Halt)
		r, left = io.NopCloser(s), func() Left { return Left{Halted: s.halted.Load()} }
	} else {
		f := Follow(ctx, path, opt)
		r, left = f, f.left
	}
	defer r.Close()
	if _, err := next.ConsumeLog(path, r, logs.JSONL); err != nil && !errors.Is(err, context.Canceled) {
		return left(), err
	}
	return left(), nil
}

// Follow returns a reader of the file at path that follows it as tail -F
// does: at its end it waits for more (looking again every opt.Poll), and
// when the file is replaced (rotation: a new file at path) it reads the
// old one to its end, then the new one from its start. When the file was
// truncated (copytruncate: its size below what was read, or its first
// bytes changed, as new lines are written at its start) it reads it again
// from its start, and tells opt.Warn. A file not there yet is waited for.
// The reader returns io.EOF once ctx is done and the file is read to its
// end, or at once when opt.Halt is closed.
func Follow(ctx context.Context, path string, opt FollowOptions) *Follower {
	return &Follower{ctx: ctx, path: path, opt: opt}
}

// A Follower is the reader of a followed file (Follow).
type Follower struct {
	ctx    context.Context
	path   string
	opt    FollowOptions
	f      *os.File
	fi     fs.FileInfo // of f
	off    int64
	halted bool

	// head holds the file's first bytes as read, up to headSize: its
	// fingerprint, which a copytruncate rotation changes even when the
	// new lines are already longer than what was read.
	head    []byte
	scratch []byte
	checked time.Time // when head was last compared with the file's
}

// headSize is the length of a file's fingerprint: a few lines of a log.
const headSize = 1024

func (t *Follower) Read(p []byte) (int, error) {
	for {
		select {
		case <-t.opt.Halt:
			t.halted = true
			return 0, io.EOF
		default:
		}
		if t.f == nil {
			f, err := os.Open(t.path)
			if err == nil {
				t.fi, err = f.Stat()
				if err != nil {
					f.Close()
				} else {
					t.f, t.off, t.head = f, 0, t.head[:0]
				}
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return 0, err
			}
		}
		if t.f != nil {
			// While a backlog is read, the fingerprint is compared at the
			// pace of the polls: a truncation under way is seen within one.
			if len(t.head) > 0 && time.Since(t.checked) >= t.opt.Poll && t.headChanged() {
				if err := t.restart(); err != nil {
					return 0, err
				}
			}
			n, err := t.f.Read(p)
			if n > 0 && t.off < headSize {
				t.head = append(t.head, p[:min(n, headSize-int(t.off))]...)
			}
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
				case fi.Size() < t.off || t.headChanged():
					if err := t.restart(); err != nil {
						return 0, err
					}
					continue
				}
			}
		}
		if t.ctx.Err() != nil {
			return 0, io.EOF // read to its end
		}
		select {
		case <-t.ctx.Done():
		case <-t.opt.Halt:
		case <-time.After(t.opt.Poll):
		}
	}
}

// headChanged reports whether the file's first bytes differ from those
// read: it was truncated and written again.
func (t *Follower) headChanged() bool {
	t.checked = time.Now()
	if t.scratch == nil {
		t.scratch = make([]byte, headSize)
	}
	n, _ := t.f.ReadAt(t.scratch[:len(t.head)], 0)
	return !bytes.Equal(t.scratch[:n], t.head)
}

// restart reads the truncated file again from its start.
func (t *Follower) restart() error {
	if t.opt.Warn != nil {
		t.opt.Warn(fmt.Errorf("%s: truncated after %d bytes read: read again from its start", syntax.FileName(t.path), t.off))
	}
	if _, err := t.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	t.off, t.head = 0, t.head[:0]
	return nil
}

// left returns what the reading left of the file: when halted, the rest
// of the file open (all of it when truncated and written again), and
// the whole of a file that replaced it at its path (rotated) or, when none
// was open yet, of the file at its path.
func (t *Follower) left() Left {
	l := Left{Halted: t.halted}
	if !t.halted {
		return l
	}
	if t.f != nil {
		if fi, err := t.f.Stat(); err == nil {
			switch {
			case fi.Size() < t.off || len(t.head) > 0 && t.headChanged():
				l.Bytes = fi.Size() // truncated since: it would be read again, whole
			case fi.Size() > t.off:
				l.Bytes = fi.Size() - t.off
			}
		}
	}
	if fi, err := os.Stat(t.path); err == nil && fi.Mode().IsRegular() && (t.f == nil || !os.SameFile(fi, t.fi)) {
		l.Bytes += fi.Size()
	}
	return l
}

func (t *Follower) Close() error {
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
	return newStream(ctx, r, nil)
}

// newStream is Stream, halted at once when halt is closed.
func newStream(ctx context.Context, r io.Reader, halt <-chan struct{}) *stream {
	s := &stream{ctx: ctx, halt: halt, ch: make(chan []byte)}
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
				select {
				case s.ch <- buf[:n]:
				case <-halt:
					return
				}
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
	ctx    context.Context
	halt   <-chan struct{} // closed: io.EOF at once
	halted atomic.Bool     // Read returned io.EOF at halt
	ch     chan []byte
	rest   []byte

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
		case <-s.halt:
			s.mu.Lock()
			s.ended = true
			s.mu.Unlock()
			s.halted.Store(true)
			return 0, io.EOF
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
				case <-s.halt:
					s.mu.Lock()
					s.ended = true
					s.mu.Unlock()
					s.halted.Store(true)
					return 0, io.EOF
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
