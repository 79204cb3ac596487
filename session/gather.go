package session

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/syntax"
)

// record is an event as kept until its session is built: compact, and
// marked with its session. Records are kept in the order read; a session's
// records are found, once reading is done, by one pass over them all
// (gatherer.index), not by a chain from record to record, which would cost
// a cache miss an event twice (to link it and to follow the link) once the
// sessions of a log interleave.
type record struct {
	hi   int64
	act  interaction.Action
	lo   uint32
	sess int32  // its session's index in gatherer.sess
	line uint32 // where it was read (clamped)
	meta uint32 // its input << 8 | the kind of its order key (and dupMark)
	// span is, for a span held for pairing, its index in spans + 1; for
	// another span, -1 - the index of its id in spanIDs; 0 for an event that
	// is no span.
	span int32
}

// dupMark marks, in a record's meta, an event dropped as the duplicate of
// one read before it (dedup); unpairedMark the event of an emission its
// file left without a partner, counted in its session's unpaired, so that
// its duplicates are not counted again.
const (
	dupMark      = 0x80
	unpairedMark = 0x40
	recordMarks  = dupMark | unpairedMark
)

// recordBytes is what a record holds in memory: itself (32 bytes), and
// its entry in the index built once reading is done (gatherer.byRec).
const recordBytes = 32 + 4

// maxInputs bounds the inputs of a gatherer: an input's index fits in a
// record's meta.
const maxInputs = 1 << 24

func (r *record) input() int32       { return int32(r.meta >> 8) }
func (r *record) kind() logs.KeyKind { return logs.KeyKind(r.meta &^ recordMarks) }

// chunked holds values in chunks of chunkLen: growing never copies them,
// and never holds twice their size (append grows a long slice by a
// quarter, copying it each time into memory new to the process: a joined
// log's spans held for pairing allocated four times their size).
type chunked[T any] struct {
	chunks [][]T
	n      int32
}

// records holds a gatherer's records.
type records = chunked[record]

// chunkLen is the number of values of a chunk of chunked.
const chunkLen = 1 << 14

// recordChunk is the number of records of a chunk of records.
const recordChunk = chunkLen

func (rs *chunked[T]) add(r T) int32 {
	c := int(rs.n) / chunkLen
	if c == len(rs.chunks) {
		rs.chunks = append(rs.chunks, make([]T, 0, chunkLen))
	}
	rs.chunks[c] = append(rs.chunks[c], r)
	rs.n++
	return rs.n - 1
}

// reset empties rs, keeping its chunks for the values to come.
func (rs *chunked[T]) reset() {
	for i := range rs.chunks {
		rs.chunks[i] = rs.chunks[i][:0]
	}
	rs.n = 0
}

// reserve makes room for n values before the first is added: a session
// assembled alone takes what it needs, not a whole chunk.
func (rs *chunked[T]) reserve(n int) {
	if len(rs.chunks) == 0 {
		rs.chunks = append(rs.chunks, make([]T, 0, min(n, chunkLen)))
	}
}

func (rs *chunked[T]) at(i int32) *T { return &rs.chunks[i/chunkLen][i%chunkLen] }

// sized makes rs n values long, in new chunks.
func (rs *chunked[T]) sized(n int) {
	*rs = chunked[T]{n: int32(n)}
	for ; n > 0; n -= chunkLen {
		rs.chunks = append(rs.chunks, make([]T, min(n, chunkLen), chunkLen))
	}
}

// permute puts the values (records) in the order of to, a permutation of
// their indexes (the one at i becomes the one that was at to[i]), in place,
// along the permutation's cycles, and makes to the identity. Sorted into
// new chunks instead, the records took their memory twice, and on a large
// log the new chunks' first writes cost more than the order saves.
func (rs *chunked[T]) permute(to []int32) {
	for i := range to {
		if to[i] == int32(i) {
			continue
		}
		first, j := *rs.at(int32(i)), int32(i)
		for {
			k := to[j]
			to[j] = j
			if k == int32(i) {
				*rs.at(j) = first
				break
			}
			*rs.at(j) = *rs.at(k)
			j = k
		}
	}
}

// all yields the values in the order added, with their indexes.
func (rs *chunked[T]) all(yield func(int32, *T) bool) {
	for c, chunk := range rs.chunks {
		for i := range chunk {
			if !yield(int32(c*chunkLen+i), &chunk[i]) {
				return
			}
		}
	}
}

// sessionState is a session being read: sparse, whatever the number of
// locations (its events are records marked with its index, found by
// gatherer.recordsOf).
type sessionState struct {
	id              string
	line            int   // of its first event
	index           int   // the rank of its first event in its input
	input           int32 // the input of its first event
	records         int32 // its records in gatherer.recs
	events, ignored int
	dropped         int // events malformed
	firstDropped    int // the line of the first
	// spans counts its spans held for pairing, heldIgnored those of them
	// counted in ignored until the session is built; spanned its records
	// that are spans with an id (held or not), which dedup compares;
	// unpaired its emissions left without a partner by a reader that
	// pairs them in their file alone (logs.Consumer.Unpaired), once a
	// file (dedup takes out the copies of a span read in several).
	spans, heldIgnored int32
	spanned            int32
	unpaired           int32
}

// sessionBytes is what a session holds in memory besides its id's bytes:
// its state (88 bytes) with room to grow (hashslots.Doubled: up to as much
// again; the held spans grow in chunks, whose room past them, one chunk's
// at most, spanRefBytes does not count),
// its entry in the index of ids (16 to 32 bytes) and in the index of its
// records (gatherer.first, 4): 108 to 212 bytes, counted between
// (TestJoinerAccounting measures the heap against the count).
const sessionBytes = 160 + 4

// gatherer gathers the events of logs into sessions and builds their
// multi-traces: the store of Read (one input), of a Joiner (every input
// of a run) and of Assembler (one session). Its methods Add, Ignore, Drop,
// PairsAcross and AddSpan make it the readers' logs.Consumer.
type gatherer struct {
	sig    *interaction.Signature
	inputs []string // the names of the inputs read, by index; the last is being read
	locs   interaction.Locations
	locOf  []int32      // location of each lifeline
	ids    sessionIndex // of sess, by id
	// id is the text of the session AssembleWith gathers, which its
	// sessionState shares rather than copy its bytes ("" elsewhere).
	id   string
	sess []sessionState
	last int32 // the session found last (sessionAt)
	// recent are sessions found lately, by a slot of their id's last
	// bytes (recentSlot): a log interleaves the events of the sessions
	// under way, whose states are still in the cache, and one found here
	// costs no hash of its id and no probe of the index.
	recent [recentSlots]int32
	recs   records
	// byRec lists the records session by session, each session's in the
	// order read: those of session s are byRec[first[s]:first[s+1]]
	// (index), when indexed.
	byRec   []int32
	first   []int32
	indexed bool
	// sortRecords: index sorts the records themselves (see index), in
	// place or, up to copyRecords of them, into new chunks; set by a
	// Joiner, which sets copyRecords where its budget has room for them.
	sortRecords bool
	copyRecords int32
	events      int   // events in the signature
	bytes       int64 // held, as counted by recordBytes and sessionBytes
	// maxEvents is the most events one session may hold (0: no bound):
	// its share of the memory budget (logs.Options.MaxHeld).
	maxEvents int
	// across is set when the readers hold the spans left without a partner
	// in their file for pairing at assembly (Joiner, Assembler): spans,
	// with the names not declared in names, those left ignored at assembly
	// tallied in tally (names and tally shared with empty's gatherers).
	across  bool
	spans   chunked[spanRef]
	linkIDs []uint64 // the links of spans
	names   *names
	tally   *logs.Tally
	// spanIDs are the ids of the spans not held for pairing (record.span).
	spanIDs chunked[uint64]
	// reply gives the reply of a call (logs.Options.Reply), for the
	// replies of CLIENT spans paired at assembly.
	reply func(interaction.MessageID) (interaction.MessageID, bool)
}

// newGatherer checks the locations of opt against its signature; file,
// when not "", is its first input.
func newGatherer(file string, opt *logs.Options) (*gatherer, error) {
	sig := opt.Sig
	if sig == nil {
		return nil, fmt.Errorf("%s: no signature to read the log against", syntax.FileName(file))
	}
	g := &gatherer{sig: sig, ids: newSessionIndex(), names: &names{index: map[string]int32{}}, tally: new(logs.Tally),
		maxEvents: int(opt.MaxHeld() / recordBytes), reply: opt.Reply}
	if file != "" {
		g.inputs = []string{file}
	}
	g.locOf = make([]int32, len(sig.Lifelines))
	for i := range g.locOf {
		g.locOf[i] = -1
	}
	for _, grp := range opt.Locations {
		for l := range grp.All() {
			if int(l) >= len(sig.Lifelines) {
				return nil, fmt.Errorf("locations: lifeline %d is not in the signature", l)
			}
			if g.locOf[l] >= 0 {
				return nil, fmt.Errorf("locations: lifeline %s is in two locations", sig.Lifelines[l])
			}
			g.locOf[l] = int32(len(g.locs))
		}
		if !grp.IsEmpty() {
			g.locs = append(g.locs, grp)
		}
	}
	for l := range g.locOf {
		if g.locOf[l] < 0 {
			g.locOf[l] = int32(len(g.locs))
			g.locs = append(g.locs, interaction.LifelinesOf(interaction.LifelineID(l)))
		}
	}
	return g, nil
}

// empty returns a gatherer of the same signature, locations and inputs,
// holding no session.
func (g *gatherer) empty() *gatherer {
	return &gatherer{sig: g.sig, inputs: g.inputs, locs: g.locs, locOf: g.locOf, ids: newSessionIndex(),
		across: g.across, names: g.names, tally: g.tally, maxEvents: g.maxEvents, reply: g.reply}
}

// reset empties g for the sessions of one partition or one session of a
// spill, keeping its storage: a spill gathers many in turn.
func (g *gatherer) reset() {
	g.ids.reset()
	clear(g.sess) // their ids
	g.sess = g.sess[:0]
	g.recs.reset()
	g.indexed = false
	g.spans.reset()
	g.spanIDs.reset()
	g.linkIDs = g.linkIDs[:0]
	g.events, g.bytes = 0, 0
}

// input is the index of the input being read.
func (g *gatherer) input() int32 { return int32(len(g.inputs) - 1) }

// sessionOf returns the index of the session id, made at line and index of
// the current input if new.
func (g *gatherer) sessionOf(id []byte, line, index int) int32 {
	return g.sessionAt(id, g.input(), line, index)
}

// sessionAt returns the index of the session id, made at line and index of
// input if new. A session's line in its first input is its smallest: spans
// are added once their file is read (their messages may come from their
// linked partners), after the malformed spans reported while reading.
func (g *gatherer) sessionAt(id []byte, input int32, line, index int) int32 {
	s := g.last // the events of a session mostly come together: no hash
	if int(s) >= len(g.sess) || g.sess[s].id != string(id) {
		r := &g.recent[recentSlot(id)]
		if s = *r; int(s) >= len(g.sess) || g.sess[s].id != string(id) {
			var at int
			var tag uint32
			if s, at, tag = g.ids.find(id, g.sess); s < 0 {
				s = g.newSession(id, input, line, index, at, tag)
			}
			*r = s
		}
	}
	g.last = s
	if st := &g.sess[s]; input == st.input && line < st.line {
		st.line = line
	}
	return s
}

// recentSlots is 1 << recentBits: 256, where a log interleaves 32 sessions
// at a time (gen.Concurrent), finds all but 0.9% of the events of sessions
// already made there, and 64 slots all but 7% (BenchmarkLogs' distinct-i0
// and repeated-i1 logs: 3.9k and 31.1k look-ups of the index besides the
// 30,000 sessions made).
const (
	recentBits  = 8
	recentSlots = 1 << recentBits
)

// recentSlot returns the slot of id among gatherer.recent: ids mostly
// differ in their last bytes (counters, random hex).
func recentSlot(id []byte) int {
	var x uint32
	if n := len(id); n >= 4 {
		x = binary.LittleEndian.Uint32(id[n-4:])
	} else {
		for _, b := range id {
			x = x<<8 | uint32(b)
		}
	}
	return int((x * 0x9e3779b1) >> (32 - recentBits))
}

// newSession makes the session id, first read at line and index of input,
// whose entry in the index goes at at with tag (sessionIndex.find).
func (g *gatherer) newSession(id []byte, input int32, line, index, at int, tag uint32) int32 {
	s, text := int32(len(g.sess)), g.id
	if text != string(id) {
		text = string(id)
	}
	g.ids.put(at, tag, s)
	g.sess = append(hashslots.Doubled(g.sess), sessionState{id: text, line: line, index: index, input: input})
	g.bytes += sessionBytes + int64(len(text))
	return s
}

func (g *gatherer) PairsAcross() bool { return g.across }

func (g *gatherer) Ignore(id []byte, line, index int) {
	g.sess[g.sessionOf(id, line, index)].ignored++
}

func (g *gatherer) Drop(id []byte, line, index int) {
	g.sess[g.sessionOf(id, line, index)].dropAt(line)
}

func (g *gatherer) Unpaired(id []byte, line, index int, span uint64) {
	g.unpaired(g.sessionOf(id, line, index), span)
}

// unpaired counts span, an emission of session si that a file left
// without its partner, right after its own event: the event's record, when
// it has one (an event in the signature), is marked (unpairedMark), so
// that the copies of the span that dedup drops are not counted.
func (g *gatherer) unpaired(si int32, span uint64) {
	g.sess[si].unpaired++
	if n := g.recs.n; n > 0 {
		if r := g.recs.at(n - 1); r.sess == si && g.spanOf(r) == span {
			r.meta |= unpairedMark
		}
	}
}

// dropAt counts a malformed event of s, read at line.
func (s *sessionState) dropAt(line int) {
	if s.dropped == 0 {
		s.firstDropped = line
	}
	s.dropped++
}

// Add records the event act of session id, read at line, with its order
// key; span is its id when it is a span (0: not a span).
func (g *gatherer) Add(id []byte, line, index int, act interaction.Action, key logs.Key, span uint64) error {
	if g.recs.n == math.MaxInt32 {
		return fmt.Errorf("%s:%d: too many events (at most %d held at once)", g.inputs[g.input()], line, math.MaxInt32)
	}
	si := g.sessionOf(id, line, index)
	s := &g.sess[si]
	if err := g.full(s, g.input(), line); err != nil {
		s.dropAt(line) // what was read of it is not judged
		return err
	}
	g.events++
	s.events++
	g.keep(si, record{hi: key.Hi, act: act, lo: key.Lo, line: logs.Line32(line),
		meta: uint32(g.input())<<8 | uint32(key.Kind), span: g.spanRef(s, span)})
	return nil
}

// spanRef returns the record.span of a span not held for pairing, its id
// kept, of session s (0 for an event that is no span).
func (g *gatherer) spanRef(s *sessionState, span uint64) int32 {
	if span == 0 || g.spanIDs.n == math.MaxInt32 {
		return 0
	}
	g.spanIDs.add(span)
	s.spanned++
	g.bytes += 8
	return -g.spanIDs.n
}

// spanOf returns the id of the span rec (0: not a span, or no id).
func (g *gatherer) spanOf(rec *record) uint64 {
	switch {
	case rec.span > 0:
		return g.spans.at(rec.span - 1).self
	case rec.span < 0:
		return *g.spanIDs.at(-1 - rec.span)
	}
	return 0
}

// full returns an error when s, whose next event was read at line of
// input, holds as many events as one session may.
func (g *gatherer) full(s *sessionState, input int32, line int) error {
	if g.maxEvents == 0 || s.events < g.maxEvents {
		return nil
	}
	return fmt.Errorf("%s:%d: session %q holds more than %d events (%d bytes), the most one session may hold (--max-memory raises it)",
		syntax.FileName(g.inputs[input]), line, logs.ShortName(s.id), g.maxEvents, int64(g.maxEvents)*recordBytes)
}

// keep adds r, a record of session si.
func (g *gatherer) keep(si int32, r record) {
	r.sess = si
	g.recs.add(r)
	g.sess[si].records++
	g.indexed = false
	g.bytes += recordBytes
}

// recordsOf returns the records of session si, in the order read.
func (g *gatherer) recordsOf(si int32) []int32 {
	if !g.indexed {
		g.index()
	}
	return g.byRec[g.first[si]:g.first[si+1]]
}

// index lists the records session by session (byRec, first): a counting
// sort by session, in one pass over the records from the last, as each
// session's count is known. With sortRecords, the records themselves are
// put in that order (byRec is then the identity), into new chunks up to
// copyRecords of them, else in place (permute): a session's records are
// then read one after the other when it is built, where they lay one or
// two to a cache line across the log, each line read from memory (JSON
// Lines distinct-i0 about 10% less time, repeated-i1 4%).
func (g *gatherer) index() {
	n := len(g.sess)
	first := slices.Grow(g.first[:0], n+1)[:n+1]
	end := int32(0)
	for i := range g.sess {
		end += g.sess[i].records
		first[i] = end // the end of session i, until its records are placed
	}
	first[n] = end
	byRec := slices.Grow(g.byRec[:0], int(end))[:end]
	sort := g.sortRecords && n > 1
	copied := sort && end <= g.copyRecords
	var sorted records
	if copied {
		sorted.sized(int(end))
	}
	for c := len(g.recs.chunks) - 1; c >= 0; c-- {
		chunk := g.recs.chunks[c]
		for i := len(chunk) - 1; i >= 0; i-- {
			s := chunk[i].sess
			first[s]--
			if copied {
				*sorted.at(first[s]) = chunk[i]
				byRec[first[s]] = first[s]
			} else {
				byRec[first[s]] = int32(c*recordChunk + i)
			}
		}
	}
	switch {
	case copied:
		g.recs = sorted
	case sort:
		g.recs.permute(byRec)
	}
	g.first, g.byRec, g.indexed = first, byRec, true
}

// copyRecords is the most records a Joiner lets index sort into new chunks
// rather than in place (16 MiB of records), when its budget has room for
// them twice. Below, the copy's independent loads and stores cost no more
// than the permutation's chains of dependent ones, and less where the
// memory was written before (BenchmarkLogs' passes over logs of 41k to
// 309k events: 3-13% less time; ivc analyze on 282k and 705k events, in
// a process of its own: within the noise); above, the copy's new memory,
// whose first writes fault, costs more than the permutation saves (ivc
// analyze on 2.8M events: 5-13% more CPU time, 45% more peak memory).
const copyRecords = 1 << 19

// finish returns the sessions, in order of first appearance, with their
// multi-traces. The multi-traces share a few large arrays (their actions,
// events and components), so that building them costs a few allocations,
// not several a session.
func (g *gatherer) finish() []Session {
	out := make([]Session, len(g.sess))
	a := new(arena)
	a.fresh(g, 1)
	for i := range g.sess {
		out[i] = g.build(int32(i), a)
	}
	return out
}

// arena is the storage that built sessions share, and the buffers build
// reuses. Past what it holds, it takes new chunks.
type arena struct {
	acts  []interaction.Action
	trace []interaction.MultiAction
	comps []multitrace.Component
	mts   []multitrace.MultiTrace
	count []int       // events of each location, then their start
	spans []spanEntry // the spans of a session, by id (dedup)
	seen  []int32     // a table of them (distinct)
	// The sessions' origins (Meta.Origins).
	origins []Origins
	at      []origin
	starts  []int32
	// shapes, when not nil, are the multi-traces the sessions built share
	// (a Joiner's).
	shapes *shapes
}

// fresh gives a new storage for the sessions of g, sized for them all,
// times scale.
func (a *arena) fresh(g *gatherer, scale int) {
	a.acts = make([]interaction.Action, scale*g.events)
	a.trace = make([]interaction.MultiAction, scale*g.events)
	a.comps = make([]multitrace.Component, len(g.sess)*len(g.locs))
	a.mts = make([]multitrace.MultiTrace, len(g.sess))
	// The origins too: a chunk (arenaChunk) for each would be most of the
	// cost of a small session assembled on its own.
	a.origins = make([]Origins, len(g.sess))
	a.at = make([]origin, scale*g.events)
	a.starts = make([]int32, len(g.sess)*(len(g.locs)+1))
}

// fits reports whether the storage fresh gave holds the sessions of g.
func (a *arena) fits(g *gatherer) bool {
	return len(a.acts) >= g.events && len(a.comps) >= len(g.sess)*len(g.locs) && len(a.mts) >= len(g.sess) &&
		len(a.starts) >= len(g.sess)*(len(g.locs)+1)
}

// arenaChunk is the least an arena takes at once.
const arenaChunk = 1 << 12

func take[T any](s *[]T, n int) []T {
	if len(*s) < n {
		*s = make([]T, max(n, arenaChunk))
	}
	out := (*s)[:n:n]
	*s = (*s)[n:]
	return out
}

func (x origin) compare(y origin) int {
	if c := cmp.Compare(x.hi, y.hi); c != 0 {
		return c
	}
	return cmp.Compare(x.lo, y.lo)
}

func (x origin) kind() logs.KeyKind { return logs.KeyKind(x.meta) }
func (x origin) input() int32       { return int32(x.meta >> 8) }

// build returns the session si: its multi-trace (its events split by
// location, each location sorted by its order key, stably: ties keep the
// order read, which is input order, then line order), or the error that
// says why a location cannot be ordered. A session of a shape built twice
// before shares that multi-trace (shapes), with its own origins.
func (g *gatherer) build(si int32, a *arena) Session {
	s := &g.sess[si]
	recs := g.recordsOf(si)
	out := Session{Meta: Meta{File: g.inputs[s.input], Input: int(s.input), ID: s.id, Line: s.line, Rank: s.index,
		Events: s.events, Ignored: s.ignored, Dropped: s.dropped, FirstDropped: s.firstDropped, Unpaired: int(s.unpaired)}}
	if s.spans > 0 {
		g.pair(s, recs, &out)
	}
	if s.spanned > 1 {
		g.dedup(recs, a, &out)
	}
	count := slices.Grow(a.count[:0], len(g.locs)+1)[:len(g.locs)+1]
	a.count = count
	clear(count)
	x := a.shapes
	if x != nil {
		x.begin(len(g.locs), len(recs))
	}
	// The files of a session whose inputs follow one another (one file,
	// most; or one log per service, each holding part of every session)
	// are a slice of the inputs: no allocation (capped, so that an append
	// copies). Files is made apart only for a session that skips an input.
	last, end := s.input, s.input+1
	var files []string
	for _, r := range recs {
		rec := g.recs.at(r)
		if g.dropped(rec) {
			continue
		}
		k := g.locOf[rec.act.Lifeline()]
		count[k+1]++
		if x != nil && x.ok {
			x.add(k, rec)
		}
		if in := rec.input(); in != last { // inputs come in increasing order
			switch {
			case in <= s.input:
			case files == nil && in == end:
				end++
			default:
				if files == nil {
					files = slices.Clone(g.inputs[s.input:end])
				}
				files = append(files, g.inputs[in])
			}
			last = in
		}
	}
	out.Files = files
	if files == nil {
		out.Files = g.inputs[s.input:end:end]
	}
	for k := 1; k < len(count); k++ { // count[k]: where location k starts
		count[k] += count[k-1]
	}
	// The events go once, by location, into the origins of the session,
	// where each location is sorted (and its duplicates dropped) in place:
	// an origin holds an event's action and order key.
	n := count[len(count)-1]
	var slot *shapeSlot
	var h uint64
	if x != nil {
		slot, h = x.slot()
	}
	if slot != nil && slot.h == h && slot.mt != nil && g.shared(recs, n, slot.mt, a, &out) {
		return out
	}
	at := take(&a.at, n)
	for _, r := range recs {
		rec := g.recs.at(r)
		if g.dropped(rec) {
			continue
		}
		k := g.locOf[rec.act.Lifeline()]
		at[count[k]] = g.origin(rec)
		count[k]++
	}
	// count[k] is now where location k ends.
	start := 0
	for k := range g.locs {
		if err := g.orderable(s, k, at[start:count[k]]); err != nil {
			out.Err = err
			return out
		}
		start = count[k]
	}
	acts, trace := take(&a.acts, n), take(&a.trace, n)
	mt := &take(&a.mts, 1)[0]
	mt.Components = take(&a.comps, len(g.locs))
	orig := &take(&a.origins, 1)[0]
	*orig = Origins{inputs: g.inputs, starts: take(&a.starts, len(g.locs)+1), at: at}
	out.Origins = orig
	start, w := 0, 0
	for k, grp := range g.locs {
		orig.starts[k] = int32(w)
		end := count[k]
		loc := at[start:end]
		if len(loc) > 0 && loc[0].kind() != logs.KeyLine && !slices.IsSortedFunc(loc, origin.compare) {
			slices.SortStableFunc(loc, origin.compare)
		}
		if len(loc) > 1 && loc[0].kind() == logs.KeySeq {
			loc = dedupSeq(loc, &out)
		}
		// Duplicates dropped before: the location moves down to w.
		from := w
		w += copy(at[w:], loc)
		for i := from; i < w; i++ {
			acts[i] = at[i].act
			trace[i] = acts[i : i+1 : i+1]
		}
		mt.Components[k] = multitrace.Component{Lifelines: grp, Trace: trace[from:w:w]}
		start = end
	}
	orig.starts[len(g.locs)] = int32(w)
	orig.at = orig.at[:w]
	out.MT = mt
	switch {
	case slot == nil:
	case slot.h == h && slot.mt == nil: // seen twice: kept
		if kept := x.keep(slot, h, mt); kept != nil {
			out.MT, out.Shared = kept, true
		}
	default:
		x.seen(slot, h)
	}
	return out
}

// origin returns the compact origin of rec.
func (g *gatherer) origin(rec *record) origin {
	return origin{hi: rec.hi, lo: rec.lo, act: rec.act, line: rec.line, meta: rec.meta &^ unpairedMark, span: g.spanOf(rec)}
}

// shared gives out, the session of the n events recs not dropped, the
// multi-trace mt of its shape when its events are those of mt (not when
// only their hashes are equal), with its origins in the order read, and
// reports whether it did.
func (g *gatherer) shared(recs []int32, n int, mt *multitrace.MultiTrace, a *arena, out *Session) bool {
	saved := a.at
	at := take(&a.at, n)
	i := 0
	for _, r := range recs {
		if rec := g.recs.at(r); !g.dropped(rec) {
			at[i] = g.origin(rec)
			i++
		}
	}
	if !a.shapes.same(at, g.locOf, mt) {
		a.at = saved
		return false
	}
	orig := &take(&a.origins, 1)[0]
	*orig = Origins{inputs: g.inputs, at: at, locOf: g.locOf}
	out.MT, out.Shared, out.Origins = mt, true, orig
	return true
}

// dropped reports whether rec is not in its session's multi-trace: a span
// held for pairing whose message is not declared (ignored), or a
// duplicate.
func (g *gatherer) dropped(rec *record) bool {
	return rec.meta&dupMark != 0 || rec.span > 0 && g.spans.at(rec.span-1).ignored
}

// orderable returns nil when the events of location k of session s, in the
// order read, can be ordered: all with the same kind of order key, and
// from one input when that key is the line order (lines of two files say
// nothing of the order between them).
func (g *gatherer) orderable(s *sessionState, k int, loc []origin) error {
	if len(loc) == 0 {
		return nil
	}
	first := loc[0]
	for _, e := range loc[1:] {
		if e.kind() != first.kind() {
			at := fmt.Sprintf("line %d", first.line)
			if e.input() != first.input() {
				at = fmt.Sprintf("%s:%d", g.inputs[first.input()], first.line)
			}
			return &syntax.Error{File: g.inputs[e.input()], Pos: syntax.Pos{Line: int(e.line)}, Msg: fmt.Sprintf(
				"session %q, location [%s]: mixed order keys: this event has %s, the one at %s has %s (the events of a location are ordered by seq, by time, or by line)",
				s.id, g.locs[k].Format(g.sig), e.kind(), at, first.kind())}
		}
	}
	if first.kind() != logs.KeyLine {
		return nil
	}
	var files []string
	var second origin
	for i, e := range loc {
		if i == 0 || e.input() != loc[i-1].input() {
			if len(files) == 1 {
				second = e
			}
			files = append(files, g.inputs[e.input()])
		}
	}
	if len(files) < 2 {
		return nil
	}
	return &syntax.Error{File: g.inputs[second.input()], Pos: syntax.Pos{Line: int(second.line)}, Msg: fmt.Sprintf(
		"session %q, location [%s]: events in %d files (%s) with neither seq nor time: their order across files is unknown (give the events a seq or a time)",
		s.id, g.locs[k].Format(g.sig), len(files), strings.Join(files, ", "))}
}
