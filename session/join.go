package session

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"runtime"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/logs"
)

// Scope says what one session is: its id across every input of a run
// (Run, the default), or its id within one file (File: for logs that reuse
// ids from file to file).
type Scope uint8

const (
	ScopeRun  Scope = iota // a session is its id across the inputs of the run
	ScopeFile              // a session is its id within one input
)

// scopeNames are the scopes as flags spell them: not stringer's
// identifiers.
var scopeNames = enum.New("Scope", map[Scope]string{ScopeRun: "run", ScopeFile: "file"})

// String returns the name ParseScope reads.
func (s Scope) String() string { return scopeNames.Name(s) }

// ParseScope reads "run" or "file".
func ParseScope(s string) (Scope, error) {
	if sc, ok := scopeNames.Value(s); ok {
		return sc, nil
	}
	return 0, fmt.Errorf("unknown session scope %q (expected run or file)", s)
}

// A Joiner gathers the sessions of the logs of a run: a session is its id
// across all of them, whatever their formats (a JSON Lines session equal
// to a trace id is that trace). The events of a location are ordered by
// their order key across inputs, ties kept in the order read (input order,
// then line order); a location whose events mix kinds of keys, or come
// from several inputs with line order only, makes its session an error
// (Session.Err), naming the session, the location and the files.
//
//	j, err := session.NewJoiner(opt, budget, "")
//	defer j.Close()
//	for _, path := range paths { in, _ := logs.Open(path, logs.Auto, opt); j.Read(in, report); in.Close() }
//	for s, err := range j.Sessions() { ... }   // in order of first appearance
//
// Memory is bounded: past half of budget bytes of events and sessions
// held (the other half is the garbage collector's headroom, so that the
// process stays within about budget), they spill to a temporary file in a
// directory (partitioned by a hash of the session id, one partition
// gathered at a time), which has no name (Linux's O_TMPFILE) or loses it
// as soon as it is made (elsewhere on Unix): only its open descriptor
// keeps it, so an interrupted run leaves nothing behind. Close closes it.
// The sessions and their order are the same with or without spilling.
// Besides, the multi-traces its repeated sessions share (Session.Shared)
// take at most 1 MiB, and a sixteenth of budget when that is less.
type Joiner struct {
	opt    logs.Options
	g      *gatherer
	budget int64
	dir    string
	spill  *spill // nil until the budget is passed
	arena  arena
	done   bool
	// order is how the records are sorted by session (tests): as index
	// chooses (0), not at all or in place.
	order recordOrder
	err   error // of spilling an ignored event
	// alone marks a joiner that reads one log only (Source: a run of one
	// log, or each log its own scope): its spans are paired in their file
	// by the reader rather than held for the assembly's pairing.
	alone bool
	// leases, when not nil, are the storages its sessions are built in,
	// one a session, taken again once released (Source.Reuse); else they
	// share the joiner's arena.
	leases *leases
}

// NewJoiner returns a joiner of the logs of a run read with opt (its
// signature and locations), taking about budget bytes of memory at most
// (0: no bound): past half of it held, it spills into a temporary file in
// dir ("": os.TempDir()).
func NewJoiner(opt logs.Options, budget int64, dir string) (*Joiner, error) {
	g, err := newGatherer("", &opt)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = os.TempDir()
	}
	return &Joiner{opt: opt, g: g, budget: budget, dir: dir, arena: arena{shapes: newShapes(budget)}}, nil
}

// Read reads the log in (opened with the joiner's options) into the
// joiner, as ReadInput reads it: malformed lines go to report, Stats count
// what it held (Sessions: 0, for the sessions are the run's).
func (j *Joiner) Read(in *logs.Input, report func(error)) (logs.Stats, error) {
	if j.done {
		return logs.Stats{}, errors.New("session: Joiner.Read after Sessions")
	}
	if len(j.g.inputs) == maxInputs {
		return logs.Stats{}, fmt.Errorf("%s: too many inputs (at most %d)", in.Name, maxInputs)
	}
	j.g.inputs = append(j.g.inputs, in.Name)
	st, err := in.Feed((*consumer)(j), report)
	if err == nil {
		err = j.err
	}
	return st, err
}

// Spilled reports whether the joiner has spilled to disk.
func (j *Joiner) Spilled() bool { return j.spill != nil }

// Undeclared returns, once the sessions are handed out, the names not
// declared of the spans held for pairing that stayed ignored (the names of
// the other events outside the signature are their logs.Input's Undeclared).
func (j *Joiner) Undeclared() []logs.Undeclared { return j.g.tally.List() }

// consumer is the Joiner as the readers' logs.Consumer: an event goes to
// its gatherer, or to its spill once past its budget.
type consumer Joiner

func (c *consumer) Add(id []byte, line, index int, act interaction.Action, key logs.Key, span uint64) error {
	j := (*Joiner)(c)
	if j.spill != nil {
		return j.spill.event(id, j.g.input(), line, index, byte(key.Kind), act, key, span)
	}
	if err := j.g.Add(id, line, index, act, key, span); err != nil {
		return err
	}
	return j.check()
}

// PairsAcross is true but for a joiner of one log alone (Joiner.alone):
// then no span can pair with one of another file, and the reader pairs
// them in its file (Unpaired counts those left alone).
func (c *consumer) PairsAcross() bool { return !c.alone }

func (c *consumer) Unpaired(id []byte, line, index int, span uint64) {
	(*Joiner)(c).count(id, line, index, unpairedTag, span)
}

func (c *consumer) AddSpan(id []byte, line, index int, act interaction.Action, key logs.Key, span uint64, sl *logs.SpanLink) error {
	j := (*Joiner)(c)
	if j.spill != nil {
		ref := newRef(sl, span, j.g.names)
		return j.spill.spanEvent(id, j.g.input(), line, index, act, key, &ref, sl.Links)
	}
	if err := j.g.AddSpan(id, line, index, act, key, span, sl); err != nil {
		return err
	}
	return j.check()
}

func (c *consumer) Ignore(id []byte, line, index int) {
	(*Joiner)(c).count(id, line, index, ignoredTag, 0)
}

func (c *consumer) Drop(id []byte, line, index int) {
	(*Joiner)(c).count(id, line, index, droppedTag, 0)
}

// count takes an event its session only counts (tag: ignoredTag,
// droppedTag or unpairedTag, the span's id): to the spill once the joiner spills, else to
// its gatherer, the budget checked after it as after any event (a session
// of such events is held too). The Consumer's methods for them return no
// error: the first sticks in j.err.
func (j *Joiner) count(id []byte, line, index int, tag byte, span uint64) {
	var err error
	if j.spill != nil {
		err = j.spill.event(id, j.g.input(), line, index, tag, 0, logs.Key{}, span)
	} else {
		switch tag {
		case ignoredTag:
			j.g.Ignore(id, line, index)
		case droppedTag:
			j.g.Drop(id, line, index)
		default:
			j.g.Unpaired(id, line, index, span)
		}
		err = j.check()
	}
	if err != nil && j.err == nil {
		j.err = err
	}
}

// heldShare is the share of its budget a joiner holds in sessions and
// events: the collector lets the heap grow to about twice what it last
// found live before it looks again, and what the joiner's growth leaves
// behind (the sessions' and the ids' tables as they grow) is garbage
// until then.
const heldShare = 2

// check spills what the joiner holds once past its share of its budget.
func (j *Joiner) check() error {
	if j.budget <= 0 || j.g.bytes*heldShare <= j.budget {
		return nil
	}
	sp := newSpill(j.dir)
	j.spill = sp
	g := j.g
	// Each session's header, then the records in the order read: each
	// partition gets a session's header before its records, and these in
	// their order.
	for i := range g.sess {
		sp.header(&g.sess[i])
	}
	for _, rec := range g.recs.all {
		sp.record([]byte(g.sess[rec.sess].id), g, rec)
	}
	j.g = g.empty()
	// What was held is garbage now, about the budget: collected at once,
	// its memory serves what comes next. Left to itself, the collector,
	// whose goal is twice the heap it last found live, would let the run
	// take about twice its budget before it looked again.
	runtime.GC()
	return sp.err
}

// Sessions returns the sessions of the run in order of first appearance
// (input order, then line order), each with its multi-trace or its Err, one
// at a time: a session's multi-trace is built when it is handed out. The
// error (a temporary file that cannot be written or read) ends the
// sequence. Sessions is called once, after the last Read.
func (j *Joiner) Sessions() iter.Seq2[Session, error] {
	j.done = true
	return func(yield func(Session, error) bool) {
		if j.spill == nil {
			j.g.sortRecords = j.order != unsorted
			// Room for the records sorted by session into new chunks (see
			// index) within the joiner's share of its budget.
			if held := j.g.bytes + int64(j.g.recs.n)*recordBytes; j.order == 0 && (j.budget <= 0 || held*heldShare <= j.budget) {
				j.g.copyRecords = copyRecords
			}
			for i := range j.g.sess {
				if !yield(j.build(j.g, int32(i)), nil) {
					return
				}
			}
			return
		}
		if err := j.spill.sort(j.g); err != nil {
			yield(Session{}, err)
			return
		}
		j.spill.merge(j.g, j.build, yield)
	}
}

// recordOrder is how a Joiner's tests have its records sorted by session.
type recordOrder int8

const (
	unsorted recordOrder = 1 + iota
	inPlace
)

// build builds the session si of g, in a storage of its own when the
// joiner leases them.
func (j *Joiner) build(g *gatherer, si int32) Session {
	if j.leases == nil {
		return g.build(si, &j.arena)
	}
	l := j.leases.get(int(g.sess[si].records), len(g.locs), j.arena.shapes)
	s := g.build(si, &l.a)
	s.lease, s.leased = l, l.gen.Load()
	return s
}

// Close removes the temporary file of the joiner.
func (j *Joiner) Close() error {
	if j.spill == nil {
		return nil
	}
	return j.spill.close()
}
