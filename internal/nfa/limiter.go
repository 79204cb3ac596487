package nfa

import (
	"fmt"
	"time"
)

// DefaultMaxMemory bounds the bytes of a construction (an NFA synthesis,
// the projections and tables of a checker) whose options give no bound.
const DefaultMaxMemory int64 = 2 << 30

// Limit names the budget that stopped a construction.
type Limit uint8

const (
	LimitTime   Limit = iota + 1 // its deadline passed
	LimitMemory                  // it needed more bytes than its memory budget
	LimitStates                  // it needed more states than its state bound
	LimitWork                    // its least work was over its work bound: refused before it started
)

// LimitError reports a construction stopped by its limiter: the NFA
// synthesis of package internal/synth, or the projection of one location by
// NewChecker. It never stands for a wrong input: the same construction
// with a larger budget (or the runtime engine, which builds no automaton)
// may succeed. A LimitStates error wraps ErrTooManyStates.
type LimitError struct {
	File    string        // the file of what was being built, when known
	Stage   string        // what was being built: "NFA synthesis", "projection of location [a]"
	Limit   Limit         // which budget stopped it
	Max     int64         // LimitMemory: the budget in bytes; LimitStates: the state bound; LimitWork: the work bound
	Work    int64         // LimitWork: the least work of the construction (see CheckerWork)
	Elapsed time.Duration // how long it ran
}

func (e *LimitError) Error() string {
	file := ""
	if e.File != "" {
		file = e.File + ": "
	}
	switch e.Limit {
	case LimitTime:
		elapsed := e.Elapsed.Round(time.Millisecond)
		if e.Elapsed < time.Millisecond {
			elapsed = e.Elapsed.Round(time.Microsecond)
		}
		return fmt.Sprintf("%s%s stopped at its deadline, after %v (raise --timeout, or use the runtime engine)",
			file, e.Stage, elapsed)
	case LimitMemory:
		return fmt.Sprintf("%s%s stopped: it needs more than its memory budget of %s (raise --max-memory, or use the runtime engine)",
			file, e.Stage, FormatBytes(e.Max))
	case LimitWork:
		return fmt.Sprintf("%s%s not built: its least work, %d (locations × states of the NFA), is more than its bound of %d (use the runtime engine)",
			file, e.Stage, e.Work, e.Max)
	default:
		return fmt.Sprintf("%s%s stopped: more than %d states (raise its state limit, or use the runtime engine): %v",
			file, e.Stage, e.Max, ErrTooManyStates)
	}
}

// Unwrap returns ErrTooManyStates for a LimitStates error, nil otherwise.
func (e *LimitError) Unwrap() error {
	if e.Limit == LimitStates {
		return ErrTooManyStates
	}
	return nil
}

// FormatBytes writes a number of bytes for people: "512 B", "1.5 KiB",
// "2 GiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/unit, 0
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.3g %ciB", v, "KMGTP"[i])
}

// A Limiter bounds the time and the memory of one construction. The
// construction reports the bytes of what it keeps (Alloc: rows of bitsets,
// tables, states) as it allocates them, and checks the deadline where it
// loops (Tick); past either, the call returns a *LimitError and the
// construction stops. Counting is a few additions per state: the budget
// reads no memory statistics. A nil *Limiter has no bounds.
type Limiter struct {
	stage    string
	start    time.Time
	deadline time.Time // zero: none
	max      int64
	used     int64
	ticks    uint32
}

// NewLimiter returns the limiter of the construction stage (named as in
// LimitError.Stage), ending at deadline (the zero Time: never) and of
// maxMemory bytes (0: DefaultMaxMemory; negative: no bound).
func NewLimiter(stage string, deadline time.Time, maxMemory int64) *Limiter {
	if maxMemory == 0 {
		maxMemory = DefaultMaxMemory
	}
	return &Limiter{stage: stage, start: time.Now(), deadline: deadline, max: maxMemory}
}

// SetStage names the stage of the construction that runs next, for the
// errors: the bytes of one stage count against the next.
func (b *Limiter) SetStage(name string) {
	if b != nil {
		b.stage = name
	}
}

// Stage returns the name of the stage that runs ("" for a nil budget).
func (b *Limiter) Stage() string {
	if b == nil {
		return ""
	}
	return b.stage
}

// Used returns the bytes reported so far.
func (b *Limiter) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used
}

// Alloc reports n more bytes kept by the construction; past the budget it
// returns a *LimitError.
func (b *Limiter) Alloc(n int64) error {
	if b == nil {
		return nil
	}
	b.used += n
	if b.max > 0 && b.used > b.max {
		return &LimitError{Stage: b.stage, Limit: LimitMemory, Max: b.max, Elapsed: time.Since(b.start)}
	}
	return nil
}

// Free reports n bytes the construction no longer keeps.
func (b *Limiter) Free(n int64) {
	if b != nil {
		b.used -= n
	}
}

// tickEvery is the number of Tick calls between two readings of the clock.
const tickEvery = 32

// Tick checks the deadline every few calls: a loop calls it once per unit
// of work (a state, a transition) that costs well under a millisecond.
func (b *Limiter) Tick() error {
	if b == nil || b.deadline.IsZero() {
		return nil
	}
	b.ticks++
	if b.ticks%tickEvery != 0 {
		return nil
	}
	return b.Check()
}

// Check checks the deadline now.
func (b *Limiter) Check() error {
	if b == nil || b.deadline.IsZero() {
		return nil
	}
	if now := time.Now(); !now.Before(b.deadline) {
		return &LimitError{Stage: b.stage, Limit: LimitTime, Elapsed: now.Sub(b.start)}
	}
	return nil
}
