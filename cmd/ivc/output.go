package main

import (
	"io"
	"os"
	"sync"
	"time"
)

// output is standard output as commands write it.
//
// It gathers what they write into writes of up to outputBuffer bytes: ivc
// analyze writes a record a session, and a write(2) each took a third of
// the CPU time of a run over a log of short sessions (400,000 sessions of
// lfrem's i1, 2.8M events). What it gathers is written at most outputDelay
// after it came (a reader of a pipe sees the records of a long run as they
// come), before anything is said on standard error where both may go to
// one place (flushFirst, so that 2>&1 keeps their order), at the end of the
// run, and at SIGINT or SIGTERM (flushOutputs). To a terminal it writes as
// it comes.
//
// It keeps the first write error, after which it writes nothing more, so
// that run reports lost results once, with exit status 2, whichever write
// failed.
type output struct {
	mu     sync.Mutex
	w      io.Writer
	direct bool // a terminal: written as it comes
	closed bool // the run is over: written as it comes
	buf    []byte
	timer  *time.Timer // set to flush buf outputDelay after its first byte
	err    error
}

const (
	outputBuffer = 64 << 10
	outputDelay  = 100 * time.Millisecond
)

// outputs are the outputs of the runs under way, flushed by flushOutputs.
var outputs sync.Map // *output → struct{}

func newOutput(w io.Writer) *output {
	o := &output{w: w, direct: isTerminal(w)}
	outputs.Store(o, struct{}{})
	return o
}

// flushOutputs writes what the runs under way have gathered, waiting for
// it at most wait (a write to a pipe nobody reads blocks): main calls it
// before it exits at SIGINT or SIGTERM.
func flushOutputs(wait time.Duration) {
	done := make(chan struct{})
	go func() {
		outputs.Range(func(o, _ any) bool {
			o.(*output).Flush()
			return true
		})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
	}
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	through := o.direct || o.closed || len(p) >= outputBuffer
	if through || len(o.buf)+len(p) > outputBuffer {
		if err := o.flushLocked(); err != nil {
			return 0, err
		}
		if through {
			return o.write(p)
		}
	}
	if o.err != nil {
		return 0, o.err
	}
	if len(o.buf) == 0 {
		if o.timer == nil {
			o.timer = time.AfterFunc(outputDelay, func() { o.Flush() })
		} else {
			o.timer.Reset(outputDelay)
		}
	}
	o.buf = append(o.buf, p...)
	return len(p), nil
}

// Flush writes what o has gathered and returns o's first write error.
func (o *output) Flush() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.flushLocked()
}

// Close flushes o, which then writes as it comes, and returns its first
// write error. It may be called again.
func (o *output) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	if o.timer != nil {
		o.timer.Stop()
	}
	outputs.Delete(o)
	return o.flushLocked()
}

func (o *output) flushLocked() error {
	if len(o.buf) > 0 {
		o.write(o.buf)
		o.buf = o.buf[:0]
	}
	return o.err
}

func (o *output) write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}

// flushFirst is standard error as commands write it where it may share
// standard output's destination (sameDestination): what it says comes after
// the results written to out before it.
type flushFirst struct {
	out *output
	w   io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(p)
}

// sameDestination reports whether what is written to a and b may end up in
// one place (2>&1), where their order shows: unless both are files known
// to be different (results to a file, a progress bar on a terminal, which
// clears its line before each result).
func sameDestination(a, b io.Writer) bool {
	fa, ok := a.(*os.File)
	fb, okb := b.(*os.File)
	if !ok || !okb {
		return true
	}
	sa, err := fa.Stat()
	sb, errb := fb.Stat()
	return err != nil || errb != nil || os.SameFile(sa, sb)
}
