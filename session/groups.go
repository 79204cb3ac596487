package session

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"

	"github.com/ivc-project/ivc/logs"
)

// Key returns what identifies the session id of the input file under the
// scope: its id across the inputs of a run (ScopeRun), or the input and
// the id (ScopeFile), written so that they read back apart: the length of
// file, ':', file, then id.
func (s Scope) Key(file, id string) string {
	if s == ScopeRun {
		return id
	}
	return strconv.Itoa(len(file)) + ":" + file + id
}

// Groups gathers events read anywhere (logs.Scan's, on the workers of a
// pipeline, moved between machines in their binary form) by session, as
// its Scope says what one is, and assembles each session once they are all
// there: the grouping of ivc-beam's judging step, which judges the sessions
// it hands out as ivc analyze judges those of a Source.
//
//	g := &session.Groups{Scope: session.ScopeRun, MaxEvents: 1 << 22}
//	for ... { g.Add(file, e) }                 // any order
//	for s, err := range g.Sessions(asm) { ... }  // by key; err: a bug, events logs.Scan cannot give
//
// Counts counts the sessions handed out.
type Groups struct {
	Scope Scope
	// MaxEvents is the most events a session may have to be assembled
	// (0: no bound): the events of a larger one are not kept, and its
	// session is a *TooBigError.
	MaxEvents int
	Counts    Counts

	groups map[string]*group
}

// group is the events of a session gathered from wherever they were read:
// all of them up to the limit, and the first read (by input, then rank).
type group struct {
	id     string
	events []logs.Event // none when more than the limit
	first  logs.Event
	total  int
}

// Add adds e, an event of the input file.
func (g *Groups) Add(file string, e logs.Event) {
	if g.groups == nil {
		g.groups = map[string]*group{}
	}
	key := g.Scope.Key(file, e.Session)
	s := g.groups[key]
	if s == nil {
		s = &group{id: e.Session}
		g.groups[key] = s
	}
	e.File = file
	if s.total == 0 || cmp.Or(cmp.Compare(e.File, s.first.File), cmp.Compare(e.Index, s.first.Index)) < 0 {
		s.first = e
	}
	if s.total++; g.MaxEvents > 0 && s.total > g.MaxEvents {
		s.events = nil
		return
	}
	s.events = append(s.events, e)
}

// Sessions assembles the sessions gathered with a, in the order of their
// keys, and hands out each, its events let go; a session past MaxEvents
// is its Err, a *TooBigError. The error is for events that logs.Scan
// cannot have given with a's signature: a bug.
func (g *Groups) Sessions(a *Assembler) iter.Seq2[Session, error] {
	return func(yield func(Session, error) bool) {
		for _, key := range slices.Sorted(maps.Keys(g.groups)) {
			s := g.groups[key]
			delete(g.groups, key) // its events can go
			var out Session
			if g.MaxEvents > 0 && s.total > g.MaxEvents {
				out.Meta = Meta{File: s.first.File, ID: s.id, Line: s.first.Line, Rank: s.first.Index, Events: s.total}
				out.Err = &TooBigError{File: s.first.File, Line: s.first.Line, ID: s.id, Events: s.total, Max: g.MaxEvents}
			} else {
				var err error
				if out, err = a.Assemble(s.first.File, s.id, s.events); err != nil {
					yield(Session{}, err)
					return
				}
			}
			g.Counts.Add(&out)
			if !yield(out, nil) {
				return
			}
		}
	}
}

// A TooBigError is a session with more events than Groups.MaxEvents: it is
// not assembled.
type TooBigError struct {
	File string
	Line int
	ID   string
	// Events is the number of events of the session, Max the most it may
	// have.
	Events, Max int
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("%s:%d: session %q has %d events, more than the %d a session may have to be judged", e.File, e.Line, e.ID, e.Events, e.Max)
}
