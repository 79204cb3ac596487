package gen

import (
	"fmt"
	"iter"
	"math/rand/v2"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/multitrace"
)

// Kind is a kind of generated multi-trace.
type Kind uint8

const (
	KindAccepted Kind = iota // projections of accepted global traces
	KindPrefix               // random multi-prefixes of accepted multi-traces
	KindSlice                // random slices of accepted multi-traces
	KindNoise                // one random action inserted (Noise)
	KindSwapAct              // two actions of a component swapped (SwapActions)
	KindSwapComp             // a component taken from another multi-trace (SwapComponents)
)

// kindNames are the kinds as flags spell them ("swap-act"): not stringer's
// identifiers.
var kindNames = enum.New("Kind", map[Kind]string{KindAccepted: "accepted", KindPrefix: "prefix", KindSlice: "slice",
	KindNoise: "noise", KindSwapAct: "swap-act", KindSwapComp: "swap-comp"})

// String returns the name ParseKind reads: accepted, prefix, slice, noise,
// swap-act or swap-comp.
func (k Kind) String() string { return kindNames.Name(k) }

// ParseKind reads the name of a kind.
func ParseKind(s string) (Kind, error) {
	if k, ok := kindNames.Value(s); ok {
		return k, nil
	}
	return 0, fmt.Errorf("unknown kind %q (want accepted, prefix, slice, noise, swap-act or swap-comp)", s)
}

// IsMutant reports whether k is one of the three mutants.
func (k Kind) IsMutant() bool { return k >= KindNoise }

// Base is what mutants are made from.
type Base uint8

const (
	FromPrefix   Base = iota // prefixes of accepted multi-traces, as in the lifeline-removal benchmark
	FromSlice                // slices, as in the slice paper's experiments
	FromAccepted             // accepted multi-traces themselves
)

// baseNames are the bases as flags spell them: not stringer's identifiers.
var baseNames = enum.New("Base", map[Base]string{FromPrefix: "prefix", FromSlice: "slice", FromAccepted: "accepted"})

// String returns the name ParseBase reads: prefix, slice or accepted.
func (b Base) String() string { return baseNames.Name(b) }

// ParseBase reads the name of a base.
func ParseBase(s string) (Base, error) {
	if b, ok := baseNames.Value(s); ok {
		return b, nil
	}
	return 0, fmt.Errorf("unknown base %q (expected prefix, accepted or slice)", s)
}

// Config describes a batch of generated multi-traces.
type Config struct {
	Kind Kind
	N    int    // number of multi-traces
	Seed uint64 // the batch is a function of the seed and the other fields
	// Locations are the locations of the multi-traces, one component each
	// (default: discrete, one location per lifeline).
	Locations interaction.Locations
	From      Base    // what the mutants are made from (default: prefixes)
	Options   Options // bounds of the random walks
}

// maxMutationTries bounds the fresh bases a mutant is retried on when the
// mutation is impossible (no two different events to swap, no differing
// component to take).
const maxMutationTries = 100

// Generate returns cfg.N multi-traces of kind cfg.Kind for t, deterministic
// for cfg.Seed. It fails when t has no accepted trace within the bounds of
// cfg.Options, or when a mutation stays impossible on 100 fresh bases.
func Generate(st *interaction.Store, t interaction.Term, cfg Config) ([]multitrace.MultiTrace, error) {
	out := make([]multitrace.MultiTrace, 0, cfg.N)
	for mt, err := range Stream(st, t, cfg) {
		if err != nil {
			return nil, err
		}
		out = append(out, mt)
	}
	return out, nil
}

// Stream yields the multi-traces Generate returns, one at a time, so that a
// batch of any size is written in memory independent of cfg.N. It yields
// an error (and a zero multi-trace) once and stops when Generate would fail.
func Stream(st *interaction.Store, t interaction.Term, cfg Config) iter.Seq2[multitrace.MultiTrace, error] {
	return func(yield func(multitrace.MultiTrace, error) bool) {
		g := &generator{st: st, t: t, cfg: cfg, part: cfg.Locations,
			rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x6a09e667f3bcc908))}
		if g.part == nil {
			g.part = interaction.DiscreteLocations(st.Signature())
		}
		for range cfg.N {
			mt, err := g.next()
			if err != nil {
				yield(multitrace.MultiTrace{}, err)
				return
			}
			if !yield(mt, nil) {
				return
			}
		}
	}
}

type generator struct {
	st   *interaction.Store
	t    interaction.Term
	cfg  Config
	part interaction.Locations
	rng  *rand.Rand
}

func (g *generator) accepted() (multitrace.MultiTrace, error) {
	tr, err := Accepted(g.st, g.t, g.rng, g.cfg.Options)
	if err != nil {
		return multitrace.MultiTrace{}, err
	}
	return Project(tr, g.part), nil
}

// base returns a multi-trace to mutate.
func (g *generator) base() (multitrace.MultiTrace, error) {
	mt, err := g.accepted()
	if err != nil {
		return mt, err
	}
	switch g.cfg.From {
	case FromPrefix:
		return Prefix(mt, g.rng), nil
	case FromSlice:
		return Slice(mt, g.rng), nil
	case FromAccepted:
		return mt, nil
	}
	return mt, fmt.Errorf("unknown mutant base %d", g.cfg.From)
}

func (g *generator) next() (multitrace.MultiTrace, error) {
	switch g.cfg.Kind {
	case KindAccepted:
		return g.accepted()
	case KindPrefix:
		mt, err := g.accepted()
		return Prefix(mt, g.rng), err
	case KindSlice:
		mt, err := g.accepted()
		return Slice(mt, g.rng), err
	case KindNoise:
		mt, err := g.base()
		return Noise(g.st.Signature(), mt, g.rng), err
	case KindSwapAct, KindSwapComp:
		for range maxMutationTries {
			a, err := g.base()
			if err != nil {
				return a, err
			}
			var mt multitrace.MultiTrace
			var ok bool
			if g.cfg.Kind == KindSwapAct {
				mt, ok = SwapActions(a, g.rng)
			} else {
				b, err := g.base()
				if err != nil {
					return b, err
				}
				mt, ok = SwapComponents(a, b, g.rng)
			}
			if ok {
				return mt, nil
			}
		}
		return multitrace.MultiTrace{}, fmt.Errorf("%s: no multi-trace could be mutated in %d tries", g.cfg.Kind, maxMutationTries)
	}
	return multitrace.MultiTrace{}, fmt.Errorf("unknown kind %s", g.cfg.Kind)
}
