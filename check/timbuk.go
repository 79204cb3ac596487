package check

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// A raw NFA (.timbuk, the automata paper's benchmark format) has no
// interaction: its letters are split into locations, it is checked against
// traces of letters (one line per location) rather than multi-traces, and
// only by the automata engine. It has its own entry point, beside the
// front door of interactions (New, Checker):
//
//	r, err := check.LoadRawNFA("nfa1.timbuk", "a0,a3;a1,a2")
//	opts, err := set.RawOptions()
//	c, err := check.NewRaw(r, opts)
//	c.Run(files, 4, func(o check.Outcome) { ... })
//
// Both judge to Outcome values, and run their batches alike.

// IsTimbuk reports whether path names a raw NFA (.timbuk).
func IsTimbuk(path string) bool { return strings.EqualFold(filepath.Ext(path), ".timbuk") }

// RawNFA is a raw NFA whose letters are split into locations.
type RawNFA struct {
	Path      string // the .timbuk file
	NFA       *nfa.NFA
	Locations *nfa.Alphabets
}

// LoadRawNFA loads the .timbuk NFA at path, its letters split by locations
// (as nfa.ParseAlphabets reads them: "a,b;c", groups separated by ';',
// optionally named "L=a,b"; "discrete" or empty: one location per letter;
// "trivial": one location). A bad split is a *LocationsError.
func LoadRawNFA(path, locations string) (*RawNFA, error) {
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
	return &RawNFA{Path: path, NFA: a, Locations: locs}, nil
}

// LocationsError is a bad split of a .timbuk NFA's letters into locations.
type LocationsError struct{ Err error }

func (e *LocationsError) Error() string { return "locations: " + e.Err.Error() }
func (e *LocationsError) Unwrap() error { return e.Err }

// RawOptions checks s for a raw NFA, as Options does for an interaction,
// and returns the options of NewRaw. Option files and the explored graph
// belong to interactions, and only the automata engine (or auto) applies:
// the errors are *SettingError.
func (s *Settings) RawOptions() (Options, error) {
	opts := DefaultOptions()
	if err := s.parse(&opts); err != nil {
		return opts, err
	}
	if len(s.OptionFiles) > 0 {
		return opts, &SettingError{Code: ErrNotApplicable, Setting: "options", Value: strconv.Quote(s.OptionFiles[0]),
			Detail: "option files apply to interactions, not to a .timbuk NFA"}
	}
	if s.Explore {
		return opts, &SettingError{Code: ErrNotApplicable, Setting: "engine", Value: `"runtime"`,
			Detail: "the explored graph is the runtime engine's search of an interaction, not of a .timbuk NFA"}
	}
	return opts, opts.validateRaw()
}

// validateRaw checks the options that do not apply to a raw NFA.
func (o *Options) validateRaw() error {
	mode := o.Mode
	if o.Engine == EngineRuntime {
		return &SettingError{Code: ErrNotApplicable, Setting: "engine", Value: `"runtime"`,
			Detail: "a .timbuk NFA has no interaction: only the automata engine (or auto) applies"}
	}
	if err := automata.Answers(mode); err != nil {
		return &SettingError{Code: ErrUnanswered, Setting: "mode", Value: strconv.Quote(mode.String()),
			Detail: "a .timbuk NFA is checked by the automata engine: " + err.Error()}
	}
	return nil
}

// RawChecker judges traces of letters against a raw NFA, with the automata
// engine. It is safe for concurrent use.
type RawChecker struct {
	nfa   *RawNFA
	opt   Options
	raw   *automata.Raw
	setup time.Duration
}

// NewRaw prepares the checker of r (timed as Setup). The errors are those
// of the options (a *SettingError, as RawOptions finds them) and of the
// automata engine.
func NewRaw(r *RawNFA, opt Options) (*RawChecker, error) {
	if err := opt.validateRaw(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	raw, err := automata.NewRaw(r.NFA, r.Locations, opt.automataOptions())
	if err != nil {
		return nil, err
	}
	return &RawChecker{nfa: r, opt: opt, raw: raw, setup: time.Since(t0)}, nil
}

// NFA returns what the checker checks against.
func (c *RawChecker) NFA() *RawNFA { return c.nfa }

// Mode returns the question the checker answers.
func (c *RawChecker) Mode() verdict.Mode { return c.opt.Mode }

// Engine returns the engine that answers: EngineAutomata.
func (c *RawChecker) Engine() Engine { return EngineAutomata }

// Setup returns the time NewRaw took.
func (c *RawChecker) Setup() time.Duration { return c.setup }

// Check judges traces of letters, one per location (as
// nfa.ParseLetterTraces reads them).
func (c *RawChecker) Check(letters [][]nfa.Letter) verdict.Result { return c.raw.Check(letters) }

// Run judges the letter-trace files with jobs workers and calls emit with
// each outcome, in input order, and returns the summary of the batch, as
// Checker.Run does.
func (c *RawChecker) Run(files []string, jobs int, emit func(Outcome)) Summary {
	var sum Summary
	run(slices.Values(files), jobs, c.judge, nil, nil, c.setup, func(o *Outcome) {
		sum.Add(o)
		emit(*o)
	})
	return sum
}

// judge reads and checks one letter-trace file into o.
func (c *RawChecker) judge(i int, file *string, o *Outcome) {
	*o = Outcome{Index: i, Meta: session.Meta{File: *file}}
	defer recovered(o)
	src, err := syntax.ReadFileLimit(*file, c.opt.MaxInput)
	if err != nil {
		o.Err = err
		return
	}
	letters, err := nfa.ParseLetterTraces(*file, src, c.nfa.Locations)
	if err != nil {
		o.Err = err
		return
	}
	t0 := time.Now()
	o.Engine = EngineAutomata
	o.Result = c.Check(letters)
	o.Elapsed = time.Since(t0)
}
