// Package gen generates test multi-traces from an interaction, as
// HIBOU's experiments do: accepted multi-traces by random exploration of the
// operational semantics, their prefixes and slices (partial observations),
// and the three mutants of the benchmarks: noise (an inserted action),
// swapped actions within a component, and components swapped between two
// multi-traces. Everything is deterministic for the *rand.Rand given (use a
// PCG source: rand.New(rand.NewPCG(seed, ...))). `ivc gen` is built on it.
//
//	rng := rand.New(rand.NewPCG(1, 2))
//	tr, err := gen.Accepted(st, t, rng, gen.Options{MaxLength: 20})
//	if err != nil { ... }                         // no accepted trace found within the bounds
//	mt := gen.Project(tr, interaction.DiscreteLocations(sig))
//	pre := gen.Prefix(mt, rng)               // a multi-prefix: Pass or WeakPass in prefix mode
//	bad := gen.Noise(sig, pre, rng)          // usually a Fail
//
// Generate does the whole job for a batch, from a kind and a seed:
//
//	mts, err := gen.Generate(st, t, gen.Config{Kind: gen.KindSlice, N: 100, Seed: 7,
//		Locations: interaction.DiscreteLocations(sig)})
//
// Write writes multi-traces as a log of a format that package logs reads,
// each location with its own clock, as `ivc gen --log-format` does; with
// Location, one log per location, which session.Joiner joins back:
//
//	err := gen.Write(w, logs.JSONL, sig, nil, mts, seed)
package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"unicode/utf8"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// Options bound the random walks of Accepted. Zero fields take the defaults.
type Options struct {
	// MaxLength is the maximum number of events of a trace (default 30).
	// It also bounds loops: a walk never unfolds one past it.
	MaxLength int
	// MinLength is the minimum number of events of a trace (default 0: the
	// empty trace too, when the term accepts it). Where a term accepts the
	// empty trace, a walk stops there with probability StopProbability, so
	// that, of the walks that end within MaxLength, the empty ones can be
	// most: MinLength 1 keeps a sample to traces with events.
	MinLength int
	// StopProbability is the probability of stopping at each step where the
	// term accepts the empty trace (default 0.1). A term with an empty
	// frontier stops at once.
	StopProbability float64
	// MaxTries is how many walks Accepted tries before it gives up (default
	// 1000): a walk fails when it reaches MaxLength, or a term with no
	// executable action, without the term accepting the empty trace (or
	// before MinLength events).
	MaxTries int
	// MaxMemory bounds what the walks add to the store, in bytes (default
	// DefaultMaxMemory): the frontiers of the terms reached, which a deep
	// nesting of operators makes quadratic in its depth (alt or par nested
	// 100,000 deep: billions of elements). Past it, Accepted returns a
	// *MemoryError at once, rather than computing on for minutes.
	MaxMemory int64
}

// DefaultMaxMemory is Options.MaxMemory's default.
const DefaultMaxMemory = 1 << 30

func (o Options) withDefaults() Options {
	if o.MaxLength <= 0 {
		o.MaxLength = 30
	}
	if o.StopProbability <= 0 {
		o.StopProbability = 0.1
	}
	if o.MaxTries <= 0 {
		o.MaxTries = 1000
	}
	if o.MaxMemory <= 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	return o
}

// Accepted returns one random global trace of t: a random walk over the
// operational semantics that executes, at each step, a frontier element
// drawn uniformly, and stops, when the term accepts the empty trace and
// opt.MinLength events are drawn, with probability opt.StopProbability (or
// when nothing else is possible). It returns an error when no walk of at
// most opt.MaxTries reached such a term within opt.MaxLength events.
func Accepted(st *interaction.Store, t interaction.Term, rng *rand.Rand, opt Options) (tr []interaction.MultiAction, err error) {
	opt = opt.withDefaults()
	if opt.MinLength > opt.MaxLength {
		return nil, fmt.Errorf("minimum length %d above the maximum, %d", opt.MinLength, opt.MaxLength)
	}
	// The store calls the hook before it takes memory for frontiers, in
	// the middle of computing one: past the bound, the walk is abandoned
	// by a panic, which leaves the store consistent (see OnGrowth).
	base := st.Bytes()
	st.OnGrowth(func() {
		if st.Bytes()-base > opt.MaxMemory {
			panic(abandon{})
		}
	})
	defer st.OnGrowth(nil)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abandon); !ok {
				panic(r)
			}
			tr, err = nil, &MemoryError{MaxMemory: opt.MaxMemory}
		}
	}()
	return walk(st, t, rng, opt)
}

// abandon is the panic by which Accepted's growth hook stops a walk.
type abandon struct{}

// MemoryError is the error of Accepted (and of Generate and Stream) when
// the walks' frontiers would take more than Options.MaxMemory.
type MemoryError struct {
	MaxMemory int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the frontiers of the interaction's terms take more than %d MiB (operators nested deep?)", e.MaxMemory>>20)
}

// walk is Accepted's walks, within the bounds of opt.
func walk(st *interaction.Store, t interaction.Term, rng *rand.Rand, opt Options) ([]interaction.MultiAction, error) {
	for range opt.MaxTries {
		cur := t
		var tr []interaction.MultiAction
		for {
			n := st.NumFrontier(cur)
			if st.Nullable(cur) && len(tr) >= opt.MinLength && (n == 0 || len(tr) == opt.MaxLength || rng.Float64() < opt.StopProbability) {
				return tr, nil
			}
			if n == 0 || len(tr) == opt.MaxLength {
				break // dead end: try again
			}
			k := rng.IntN(n)
			tr = append(tr, slices.Clone(st.MultiAction(st.FrontierAct(cur, k))))
			cur = st.Step(cur, k)
		}
	}
	return nil, &BoundError{Term: shortTerm(st.Format(t)), MinLength: opt.MinLength, MaxLength: opt.MaxLength, Tries: opt.MaxTries}
}

// maxTermText is the most bytes of an interaction an error prints.
const maxTermText = 200

// shortTerm returns the text of a term cut to maxTermText bytes (at a
// character's start), ending in "…" when cut.
func shortTerm(s string) string {
	if len(s) <= maxTermText {
		return s
	}
	i := maxTermText
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// BoundError is the error of Accepted (and of Generate and Stream) when no
// walk ended within the bounds of Options, so that a caller can say which
// setting to raise.
type BoundError struct {
	Term                 string // the interaction, formatted (its first 200 bytes, then "…")
	MinLength, MaxLength int    // the bounds of the walks' lengths
	Tries                int    // the walks tried
}

func (e *BoundError) Error() string {
	return fmt.Sprintf("no accepted trace of %s %s after %d tries", e.Term, e.Lengths(), e.Tries)
}

// Lengths says what lengths were allowed: "within 30 events", or "of 1 to
// 30 events".
func (e *BoundError) Lengths() string {
	if e.MinLength > 0 {
		return fmt.Sprintf("of %d to %d events", e.MinLength, e.MaxLength)
	}
	return fmt.Sprintf("within %d events", e.MaxLength)
}

// Prefix returns a random multi-prefix of mt: each component cut at a
// uniformly random point (possibly empty, possibly whole).
func Prefix(mt multitrace.MultiTrace, rng *rand.Rand) multitrace.MultiTrace {
	out := *mt.Clone() // a copy: a derivation never aliases its input
	for k := range out.Components {
		c := &out.Components[k]
		c.Trace = c.Trace[:rng.IntN(len(c.Trace)+1)]
	}
	return out
}

// Slice returns a random slice of mt: each component loses a random prefix
// and a random suffix (the pair of cut points is uniform).
func Slice(mt multitrace.MultiTrace, rng *rand.Rand) multitrace.MultiTrace {
	out := *mt.Clone()
	for k := range out.Components {
		c := &out.Components[k]
		i, j := rng.IntN(len(c.Trace)+1), rng.IntN(len(c.Trace)+1)
		if i > j {
			i, j = j, i
		}
		c.Trace = c.Trace[i:j]
	}
	return out
}

// Noise returns mt with one random action inserted: a random component
// (among those with lifelines), a random lifeline of it, a random message
// and kind of sig, at a random position of the component's trace.
func Noise(sig *interaction.Signature, mt multitrace.MultiTrace, rng *rand.Rand) multitrace.MultiTrace {
	out := *mt.Clone()
	var comps []int
	for k, c := range out.Components {
		if !c.Lifelines.IsEmpty() {
			comps = append(comps, k)
		}
	}
	if len(comps) == 0 || len(sig.Messages) == 0 {
		return out
	}
	c := &out.Components[comps[rng.IntN(len(comps))]]
	ls := c.Lifelines.Slice()
	a := interaction.MakeAction(ls[rng.IntN(len(ls))], interaction.Kind(rng.IntN(2)),
		interaction.MessageID(rng.IntN(len(sig.Messages))))
	c.Trace = slices.Insert(c.Trace, rng.IntN(len(c.Trace)+1), interaction.MultiAction{a})
	return out
}

// SwapActions returns mt with two different events of one component
// swapped (a component and then a pair of positions holding different
// events, uniformly), and false if no component has two different events.
func SwapActions(mt multitrace.MultiTrace, rng *rand.Rand) (multitrace.MultiTrace, bool) {
	out := *mt.Clone()
	var comps []int
	for k, c := range out.Components {
		if hasTwoDifferent(c.Trace) {
			comps = append(comps, k)
		}
	}
	if len(comps) == 0 {
		return out, false
	}
	tr := out.Components[comps[rng.IntN(len(comps))]].Trace
	type pair struct{ i, j int }
	var pairs []pair
	for i := range tr {
		for j := i + 1; j < len(tr); j++ {
			if !slices.Equal(tr[i], tr[j]) {
				pairs = append(pairs, pair{i, j})
			}
		}
	}
	p := pairs[rng.IntN(len(pairs))]
	tr[p.i], tr[p.j] = tr[p.j], tr[p.i]
	return out, true
}

func hasTwoDifferent(tr []interaction.MultiAction) bool {
	for i := 1; i < len(tr); i++ {
		if !slices.Equal(tr[0], tr[i]) {
			return true
		}
	}
	return false
}

// SwapComponents returns a with the component of one location taken from
// b: a random location, among those that both have and on which their
// traces differ; false if there is none.
func SwapComponents(a, b multitrace.MultiTrace, rng *rand.Rand) (multitrace.MultiTrace, bool) {
	out := *a.Clone()
	type pair struct{ i, j int }
	var cand []pair
	for i, ca := range a.Components {
		for j, cb := range b.Components {
			if ca.Lifelines == cb.Lifelines && !equalTraces(ca.Trace, cb.Trace) {
				cand = append(cand, pair{i, j})
			}
		}
	}
	if len(cand) == 0 {
		return out, false
	}
	p := cand[rng.IntN(len(cand))]
	out.Components[p.i].Trace = cloneTrace(b.Components[p.j].Trace)
	return out, true
}

func equalTraces(a, b []interaction.MultiAction) bool {
	return slices.EqualFunc(a, b, func(x, y interaction.MultiAction) bool { return slices.Equal(x, y) })
}

func cloneTrace(tr []interaction.MultiAction) []interaction.MultiAction {
	out := make([]interaction.MultiAction, len(tr))
	for i, e := range tr {
		out[i] = slices.Clone(e)
	}
	return out
}
