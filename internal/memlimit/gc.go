package memlimit

import (
	"os"
	"runtime/debug"
)

// BatchGCPercent is the collector's setting TuneGC gives a process that
// runs checks in batch: a heap goal of five times the live heap, where Go's
// default is twice.
const BatchGCPercent = 400

// TuneGC sets Go's collector for a process that runs checks in batch, as
// ivc analyze does, and returns a function that puts back what it changed.
// A check allocates little that lives beyond it, and the live heap of a
// batch is mostly its interactions' stores, a few megabytes: at Go's default
// (GOGC=100) the collector runs every few megabytes allocated, and took a
// tenth to a fifth of the time of small checks. TuneGC sets GOGC to
// BatchGCPercent under a soft memory limit of limit bytes (0: the memory
// available to the process), so that a large heap is collected as before
// when it nears what the run may take. It changes nothing when no limit
// can be set: given in the environment (GOMEMLIMIT, which then wins with
// GOGC), or the available memory unknown.
func TuneGC(limit int64) (restore func()) {
	if limit <= 0 {
		limit = Available()
	}
	if limit <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	mem := debug.SetMemoryLimit(limit)
	gc := -2 // unchanged
	if os.Getenv("GOGC") == "" {
		gc = debug.SetGCPercent(BatchGCPercent)
	}
	return func() {
		if gc != -2 {
			debug.SetGCPercent(gc)
		}
		debug.SetMemoryLimit(mem)
	}
}
