package check

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/nfa"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
)

// Spec is what multi-traces are checked against: an interaction with its
// signature (HIBOU files), or a raw NFA whose letters are split into
// locations (the automata paper's .timbuk benchmarks).
type Spec struct {
	Path string // the .hsf or .timbuk file

	// Interaction is the loaded .hsf/.hif (or legacy single-file .hsf),
	// nil for a raw NFA.
	Interaction *spec.Spec

	// NFA and Locations are the raw NFA and the split of its letters, nil
	// for an interaction.
	NFA       *nfa.NFA
	Locations *nfa.Alphabets
}

// IsTimbuk reports whether path names a raw NFA (.timbuk).
func IsTimbuk(path string) bool { return strings.EqualFold(filepath.Ext(path), ".timbuk") }

// LoadSpec loads the spec at path: a .timbuk NFA, split by locations
// (as nfa.ParseAlphabets reads them: "a,b;c", groups separated by ';',
// optionally named "L=a,b"; "discrete" or empty: one location per letter;
// "trivial": one location), or else a .hsf signature with the interaction hif
// (empty: the .hif beside it, or the one a legacy single-file .hsf holds).
func LoadSpec(path, hif, locations string) (*Spec, error) {
	if !IsTimbuk(path) {
		if locations != "" {
			return nil, fmt.Errorf("%s: locations split the letters of a .timbuk NFA; the components of a multi-trace are its locations", path)
		}
		sp, err := spec.Load(path, hif)
		if err != nil {
			return nil, err
		}
		return &Spec{Path: path, Interaction: sp}, nil
	}
	if hif != "" {
		return nil, fmt.Errorf("%s: a .timbuk NFA takes no interaction (%s)", path, hif)
	}
	src, err := syntax.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a, err := nfa.ParseTimbuk(path, src)
	if err != nil {
		return nil, err
	}
	locs, err := nfa.ParseAlphabets(a.Symbols(), locations)
	if err != nil {
		return nil, &LocationsError{err}
	}
	return &Spec{Path: path, NFA: a, Locations: locs}, nil
}

// LocationsError is a bad split of a .timbuk NFA's letters into locations.
type LocationsError struct{ Err error }

func (e *LocationsError) Error() string { return "locations: " + e.Err.Error() }
func (e *LocationsError) Unwrap() error { return e.Err }
