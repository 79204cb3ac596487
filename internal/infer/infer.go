package infer

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
)

// Config says how to read the inputs and how to draft.
type Config struct {
	// Source returns the reader of the inputs of a run for a signature:
	// the readers' options, the session scope and the joiner's budget, as
	// a driver maps its flags (those of ivc analyze). Infer calls it for
	// each reading: to learn the names, to draft, to check the draft.
	Source func(sig *interaction.Signature) (*session.Source, error)
	// Sig names the lifelines and messages (the events outside it are
	// ignored, as ivc analyze ignores them); nil: the names the logs'
	// events carry, by the readers' rule.
	Sig *interaction.Signature
	// Locations groups the lifelines that share a clock, in the syntax of
	// interaction.ParseLocations ("": one location per lifeline).
	Locations string
	// MaxBranches bounds the branches of one alt (0: DefaultMaxBranches),
	// MaxArrows the arrows of the draft (0: DefaultMaxArrows): past them,
	// alts are widened into loops over their arrows.
	MaxBranches, MaxArrows int
}

// DefaultMaxBranches is how many branches one alt of a draft may have
// before its words are widened into a loop over their arrows.
const DefaultMaxBranches = 16

// DefaultMaxArrows is how many arrows a draft may have before its largest
// alts are widened into loops over their arrows.
const DefaultMaxArrows = 500

// maxRounds bounds the readings that learn names: a span pairing may
// name a span by a message that no reader's pass tallied.
const maxRounds = 4

// A Draft is an interaction drafted from sessions: its signature and its
// syntax tree, and what it was drawn from.
type Draft struct {
	Sig    *interaction.Signature
	Syntax *interaction.Node
	// Sessions counts the sessions drawn from; Shapes their distinct
	// words once repeated blocks are folded into loops, the branches the
	// draft's alts hold at most; Arrows the draft's messages; Widened the
	// alts past Config.MaxBranches or Config.MaxArrows, made loops over
	// their arrows.
	Sessions, Shapes, Arrows, Widened int
	// Unused are the inputs and sessions that could not be drawn from:
	// an input that could not be read (*session.InputError), a session
	// that lost events or could not be built, each naming its file.
	Unused []error

	files []string
	cfg   Config
}

// Infer drafts an interaction that accepts every session of the inputs
// files (logs, traces and .htf multi-traces, read by cfg.Source). See the
// package comment for how.
func Infer(files []string, cfg Config) (*Draft, error) {
	if slices.Contains(files, "-") {
		return nil, errors.New(`infer reads its inputs twice (to draft, then to check the draft): standard input ("-") cannot be one`)
	}
	if cfg.MaxBranches <= 0 {
		cfg.MaxBranches = DefaultMaxBranches
	}
	if cfg.MaxArrows <= 0 {
		cfg.MaxArrows = DefaultMaxArrows
	}
	sig := cfg.Sig
	if sig == nil {
		var err error
		if sig, err = names(files, cfg); err != nil {
			return nil, err
		}
	}
	for round := 1; ; round++ {
		d, undeclared, err := draft(files, cfg, sig)
		if err != nil {
			return nil, err
		}
		if cfg.Sig != nil || len(undeclared) == 0 || round == maxRounds {
			switch {
			case d.Sessions == 0:
				return d, errors.New("no session to draft from")
			case len(d.Sig.Lifelines) == 0:
				return d, fmt.Errorf("no event to draft from: no event of the %s has a named lifeline and message", plural(d.Sessions, "session"))
			}
			return d, nil
		}
		for _, u := range undeclared {
			addName(sig, u)
		}
	}
}

// names returns the signature of the names the events of the logs carry:
// every lifeline and message the readers meet, by their rules (the service
// name, the span's message), read with a signature that declares none.
func names(files []string, cfg Config) (*interaction.Signature, error) {
	sig := &interaction.Signature{}
	src, err := cfg.Source(sig)
	if err != nil {
		return nil, err
	}
	for _, path := range files {
		f, err := src.Detect(path)
		if err != nil {
			continue // the drafting's reading reports it
		}
		in, err := logs.OpenDetected(path, f, src.Options)
		if err != nil {
			continue
		}
		if in.Format == logs.HTF {
			in.Close()
			return nil, fmt.Errorf("%s: a .htf multi-trace is written over a signature: give it (--sig)", syntax.FileName(path))
		}
		_, err = in.Scan(func(logs.Event) {}, func(error) {})
		in.Close()
		if err != nil {
			continue
		}
		for _, u := range in.Undeclared() {
			addName(sig, u)
		}
	}
	return sig, nil
}

// addName declares the name u in sig. An empty name (a span without a
// service name) names nothing a diagram can draw: its events stay ignored.
func addName(sig *interaction.Signature, u logs.Undeclared) {
	switch {
	case u.Name == "":
	case u.Lifeline:
		if _, ok := sig.Lifeline(u.Name); !ok {
			sig.AddLifeline(u.Name)
		}
	default:
		if _, ok := sig.Message(u.Name); !ok {
			sig.AddMessage(u.Name)
		}
	}
}

// source returns the reader of the inputs over sig, with the locations of
// cfg.
func (cfg *Config) source(sig *interaction.Signature) (*session.Source, error) {
	src, err := cfg.Source(sig)
	if err != nil || cfg.Locations == "" {
		return src, err
	}
	if src.Options.Locations, err = interaction.ParseLocations(sig, cfg.Locations); err != nil {
		return nil, fmt.Errorf("--locations: %w", err)
	}
	return src, nil
}

// draft reads the sessions of files over sig and drafts their interaction;
// undeclared are the names their events carried outside sig.
func draft(files []string, cfg Config, sig *interaction.Signature) (*Draft, []logs.Undeclared, error) {
	src, err := cfg.source(sig)
	if err != nil {
		return nil, nil, err
	}
	d := &Draft{files: files, cfg: cfg}
	a := newAlphabet()
	var words [][]int
	seen := map[string]bool{}
	for s := range src.Sessions(files) {
		if s.Err != nil {
			d.Unused = append(d.Unused, s.Err)
			continue
		}
		if why := s.Incomplete(); why != "" {
			d.Unused = append(d.Unused, fmt.Errorf("%s: %s", sessionName(&s.Meta), why))
			continue
		}
		mt, err := s.Read()
		if err != nil {
			d.Unused = append(d.Unused, err)
			continue
		}
		d.Sessions++
		w := a.fold(word(a, mt, len(sig.Lifelines)))
		if k := wordKey(w); !seen[k] {
			seen[k] = true
			words = append(words, w)
		}
	}
	// The loops of every session, found, generalize each.
	var shapes [][]int
	seen = map[string]bool{}
	for _, w := range words {
		w = a.generalize(w)
		if k := wordKey(w); !seen[k] {
			seen[k] = true
			shapes = append(shapes, w)
		}
	}
	d.Shapes = len(shapes)
	m := &merger{a: a, maxBranches: cfg.MaxBranches}
	e := m.shrink(m.merge(shapes), cfg.MaxArrows)
	d.Widened = m.widened
	d.Arrows = arrows(e)
	if cfg.Sig != nil {
		d.Sig = cfg.Sig
	} else {
		d.Sig = appearance(a, e, sig)
	}
	d.Syntax = node(a, e, sig)
	return d, src.Counts.Undeclared, nil
}

// word returns the units of the items of a session.
func word(a *alphabet, mt *multitrace.MultiTrace, lifelines int) []int {
	items := shape(mt, lifelines)
	w := make([]int, len(items))
	for i, it := range items {
		w[i] = a.itemUnit(it)
	}
	return w
}

// sessionName names a session as ivc analyze's lines do: its file, and
// its id.
func sessionName(m *session.Meta) string {
	name := syntax.FileName(m.File)
	if m.ID != "" {
		name += " (session " + syntax.FileName(m.ID) + ")"
	}
	return name
}

func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
