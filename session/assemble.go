package session

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/syntax"
)

// Assembler builds sessions from their events, as Read does once it has
// read a file: its multi-trace, its counts, and its error when its events
// mix order keys. It is safe for concurrent use. A distributed pipeline
// (ivc-beam) assembles on the worker where a session's events land, and
// ivc monitor's table of live sessions each session as it closes.
type Assembler struct {
	sig      *interaction.Signature
	template *gatherer // the locations
}

// NewAssembler returns an assembler of sessions over opt.Sig and its
// Locations (the other options are the readers').
func NewAssembler(opt logs.Options) (*Assembler, error) {
	g, err := newGatherer("", &opt)
	if err != nil {
		return nil, err
	}
	return &Assembler{sig: opt.Sig, template: g}, nil
}

// Assemble returns the session id of file made of events, all of whose
// Session is id, in any order: they are put back in the order read
// (logs.Event.Index), then split by location and each location sorted by
// its order key, exactly as Read builds a session. Events that name their
// File may come from several inputs, joined as a Joiner joins them: the
// inputs in the order of their names, file is then the first. The error is
// for events that logs.Scan cannot have given with this signature.
func (a *Assembler) Assemble(file, id string, events []logs.Event) (Session, error) {
	return a.AssembleWith(new(Scratch), file, id, events)
}

// Scratch is the storage an Assembler gathers one session in, reused from
// one session to the next by AssembleWith: the session's records, their
// index, the buffers its locations are sorted and its spans paired in,
// none of which the session returned refers to. What the session keeps
// (its multi-trace, its origins, its inputs) is fresh each time, so that
// sessions assembled in turn, and the outcomes and records made of them,
// stay as they were — unless Reuse is set. The zero Scratch is ready; it
// holds the storage of its last session, unless that session was large,
// until the next. It is not safe for concurrent use.
type Scratch struct {
	// Reuse lends the session AssembleWith returns its storage until the
	// next call with this Scratch, which takes it back: its multi-trace,
	// origins and files are the caller's until then only (copy what is
	// kept: an outcome's Record, say). A caller that judges each session
	// before it assembles the next (ivc monitor's session table) spares
	// the allocations of a session's storage.
	Reuse bool
	asm   *Assembler // whose gatherer g is
	g     *gatherer
	a     arena // its buffers only: count, tmp, spans
	// lent is, with Reuse, the storage of the last session, whole, for the
	// next; inputs the last session's inputs.
	lent   arena
	inputs []string
	names  names
	// tally counts the undeclared names of the spans ignored at assembly,
	// which no one reads for an Assembler: shared by its sessions, it is
	// bounded by logs.MaxUndeclared names.
	tally logs.Tally
}

// maxScratch is the most events of a session whose storage a Scratch
// keeps for the next: a chunk of records (a rare large session's is
// given back).
const maxScratch = recordChunk

// gatherer returns sc's gatherer for a, holding no session.
func (sc *Scratch) gatherer(a *Assembler) *gatherer {
	if sc.g == nil || sc.asm != a {
		sc.asm, sc.g, sc.a = a, a.template.empty(), arena{}
	} else {
		sc.g.reset()
	}
	g := sc.g
	g.inputs = nil // those of the session, fresh: Origins keeps them
	g.across = true
	if sc.names.index == nil {
		sc.names.index = map[string]int32{}
	}
	clear(sc.names.index)
	sc.names.list = sc.names.list[:0]
	g.names, g.tally = &sc.names, &sc.tally
	return g
}

// AssembleWith is Assemble gathering the session in sc, whose storage it
// reuses (see Scratch).
func (a *Assembler) AssembleWith(sc *Scratch, file, id string, events []logs.Event) (Session, error) {
	if len(events) == 0 {
		return Session{}, fmt.Errorf("%s: session %q has no events", syntax.FileName(file), id)
	}
	slices.SortFunc(events, func(x, y logs.Event) int { return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Index, y.Index)) })
	var inputs []string // the inputs, by name
	if sc.Reuse {
		inputs = sc.inputs[:0]
	}
	for _, e := range events {
		if len(inputs) == 0 || inputs[len(inputs)-1] != e.File {
			inputs = append(inputs, e.File)
		}
	}
	if len(inputs) == 1 && inputs[0] == "" {
		inputs[0] = file
	}
	file = inputs[0]
	g := sc.gatherer(a)
	g.id = id
	g.recs.reserve(len(events))
	spans := 0 // held for pairing: room for them at once
	for i := range events {
		if events[i].Link != nil {
			spans++
		}
	}
	g.spans.reset()
	g.spans.reserve(spans)
	g.spanIDs.reset()
	g.spanIDs.reserve(len(events) - spans)
	key := []byte(id)
	for i := range events {
		e := &events[i]
		if n := len(g.inputs); n == 0 || e.File != "" && g.inputs[n-1] != e.File {
			g.inputs = inputs[:n+1] // the input of e: g.input()
		}
		if e.Session != id {
			return Session{}, fmt.Errorf("%s:%d: an event of session %q among those of %q", syntax.FileName(file), e.Line, e.Session, id)
		}
		if e.Link != nil && !e.Dropped {
			l := e.Link
			if int(e.Action.Lifeline()) >= len(a.sig.Lifelines) || l.OwnOK && int(l.Own) >= len(a.sig.Messages) ||
				l.PairOK && int(l.Pair) >= len(a.sig.Messages) {
				return Session{}, fmt.Errorf("%s:%d: event %d of session %q: action %d is not in the signature", syntax.FileName(file), e.Line, e.Index, id, e.Action)
			}
			if err := g.AddSpan(key, e.Line, e.Index, e.Action, e.Key, e.Span, l); err != nil {
				return Session{}, err
			}
			continue
		}
		switch {
		case e.Ignored:
			g.Ignore(key, e.Line, e.Index)
		case e.Dropped:
			g.Drop(key, e.Line, e.Index)
			continue
		default:
			if int(e.Action.Lifeline()) >= len(a.sig.Lifelines) || int(e.Action.Message()) >= len(a.sig.Messages) {
				return Session{}, fmt.Errorf("%s:%d: event %d of session %q: action %d is not in the signature", syntax.FileName(file), e.Line, e.Index, id, e.Action)
			}
			if err := g.Add(key, e.Line, e.Index, e.Action, e.Key, e.Span); err != nil {
				return Session{}, err
			}
		}
		if e.Unpaired {
			g.Unpaired(key, e.Line, e.Index, e.Span)
		}
	}
	if sc.Reuse && len(events) <= maxScratch {
		sc.inputs = inputs
		if !sc.lent.fits(g) {
			// Room for sessions up to twice this one's size: a few
			// allocations as the sessions grow, then none.
			sc.lent.fresh(g, 2)
		}
		sc.a.acts, sc.a.trace, sc.a.comps, sc.a.mts = sc.lent.acts, sc.lent.trace, sc.lent.comps, sc.lent.mts
		sc.a.origins, sc.a.at, sc.a.starts = sc.lent.origins, sc.lent.at, sc.lent.starts
	} else {
		sc.a.fresh(g, 1)
	}
	out := g.build(0, &sc.a)
	sc.a = arena{count: sc.a.count, spans: sc.a.spans} // out's storage is out's (or lent)
	if len(events) > maxScratch {
		*sc = Scratch{Reuse: sc.Reuse}
	}
	return out, nil
}

// Locations returns the locations a session is split into: those of
// logs.Options.Locations, then one for each lifeline in none of them.
func (a *Assembler) Locations() interaction.Locations { return a.template.locs }

// Location returns the index in Locations of the location of act, an
// action of the signature.
func (a *Assembler) Location(act interaction.Action) int {
	return int(a.template.locOf[act.Lifeline()])
}
