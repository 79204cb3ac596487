package monitor

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

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
