package main

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress draws a progress bar on stderr during long batches, with
// github.com/schollz/progressbar (a maintained library: terminal widths,
// rates and estimates are its business, not ivc's). Only on a terminal and
// with text output: a pipe, a file or --format json never gets one.
type progress struct {
	bar     *progressbar.ProgressBar
	total   int
	unknown bool // the total is not known: a spinner and a count
}

// progressThrottle is the least time between two draws (tests draw at once).
var progressThrottle = 100 * time.Millisecond

// newProgress returns the progress of a batch of files, nil when none is to
// be drawn. Each .htf file is one multi-trace; logs hold sessions that are
// only counted once read, so with any log the total is unknown.
func newProgress(w io.Writer, files []string, json bool) *progress {
	if json || !isTerminal(w) {
		return nil
	}
	total := len(files)
	for _, f := range files {
		if !hasExt(f, ".htf") {
			total = -1
		}
	}
	if total >= 0 && total < 2 {
		return nil
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("analyzing"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(progressThrottle),
		progressbar.OptionClearOnFinish(),
		// No spinner of its own: only show draws, between the lines the
		// batch prints, never in the middle of one.
		progressbar.OptionSetSpinnerChangeInterval(0),
	)
	return &progress{bar: bar, total: total, unknown: total < 0}
}

// show sets the count of multi-traces done (throttled to ten draws a
// second).
func (p *progress) show(done int) {
	if p == nil {
		return
	}
	if !p.unknown && done > p.total {
		p.bar.ChangeMax(-1)
		p.unknown = true
	}
	_ = p.bar.Set(done)
}

// clear erases the progress line before other output.
func (p *progress) clear() {
	if p != nil {
		_ = p.bar.Clear()
	}
}
