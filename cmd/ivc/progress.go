package main

import (
	"fmt"
	"io"
	"time"
)

// progress draws "[done/total]" on stderr during long batches, only when
// stderr is a terminal, at most ten times a second.
type progress struct {
	w     io.Writer
	total int
	last  time.Time
	shown bool
}

func newProgress(w io.Writer, total int) *progress {
	if total < 2 || !isTerminal(w) {
		return nil
	}
	return &progress{w: w, total: total, last: time.Now()}
}

func (p *progress) show(done int) {
	if p == nil || done == p.total || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, "\r[%d/%d]", done, p.total)
	p.shown = true
}

// clear erases the progress line before other output.
func (p *progress) clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
