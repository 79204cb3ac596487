package logs

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"unsafe"

	"github.com/ivc-project/ivc/interaction"
)

// HTTPRoute is the attribute of the OpenTelemetry semantic conventions
// that names the route of an HTTP server span.
const HTTPRoute = "http.route"

// spanKind is the kind of a span that carries an action, as OpenTelemetry
// and Jaeger write it: it says which partner a span may have.
type spanKind uint8

const (
	kindClient spanKind = iota
	kindProducer
	kindServer
	kindConsumer
)

func (k spanKind) action() interaction.Kind {
	if k == kindClient || k == kindProducer {
		return interaction.Emission
	}
	return interaction.Reception
}

// heldSpan is a span with an action, held until the file is read: its
// message may come from its linked partner.
type heldSpan struct {
	trace, spanID, parent string
	links                 []string
	line, col             int
	l, m                  string
	pairM                 string // the message of the pair, when this span is the receiving side
	kind                  spanKind
	start                 int64
}

// pairKey is a span's trace and span ids, to find its partner.
type pairKey struct{ trace, span string }

// heldSpanBytes is what a held span takes besides the bytes of its
// strings.
const heldSpanBytes = int64(unsafe.Sizeof(heldSpan{}))

// hold keeps a span until flush, its names shortened past the longest
// name of the signature. The spans held count in the file's limit
// (Options.maxHeld): past it, a positioned error ends the reading.
func (r *spanReader) hold(s heldSpan) error {
	s.l, s.m, s.pairM = r.short(s.l), r.short(s.m), r.short(s.pairM)
	n := heldSpanBytes + int64(len(s.trace)+len(s.spanID)+len(s.parent)+len(s.l)+len(s.m)+len(s.pairM))
	for _, l := range s.links {
		n += 16 + int64(len(l))
	}
	if err := r.take(n, s.line, s.col); err != nil {
		return err
	}
	r.held = append(r.held, s)
	return nil
}

// take counts n more bytes held by the file's spans (at line:col), and
// returns an error past the file's limit.
func (r *spanReader) take(n int64, line, col int) error {
	r.heldBytes += n
	if r.maxHeld > 0 && r.heldBytes > r.maxHeld {
		r.over = true
		return errorAt(r.b.file, line, col, fmt.Sprintf(
			"the spans read so far take more than %d bytes, the most a file may hold until it is read (to pair them; --max-memory raises it)", r.maxHeld))
	}
	return nil
}

// short returns name, or, when it is longer than any name of the
// signature (it cannot be declared), a copy of its start ending in "…":
// a span holds it until its file is read, and a summary may print it.
func (r *spanReader) short(name string) string {
	if len(name) <= r.maxName {
		return name
	}
	return shortName(name, r.maxName)
}

// flush pairs the held spans and adds them, in the order read. A SERVER
// span whose parent is a CLIENT span of its trace, and a CONSUMER span
// whose parent or one of its links is a PRODUCER span, is linked with that
// span: both carry the receiving side's message (OpenTelemetry names the
// two sides of one call differently). A span without a partner in the file
// goes to a sink that pairs the spans of several files (holdsSpans: a
// Joiner, Scan) with what pairs it at its session's assembly
// (gatherer.pair), where its partner may come from another file; to any
// other sink, and with Options.Strict, it keeps its own message.
func (r *spanReader) flush() error {
	if r.over {
		// The file's reading stopped at the limit: the sessions of the
		// spans held are not judged without the rest (Session.Dropped).
		for _, s := range r.held {
			r.b.stats.Malformed++
			r.b.sink.drop([]byte(s.trace), s.line, r.b.index)
			r.b.index++
		}
		r.held, r.heldBytes = nil, 0
		return nil
	}
	if len(r.held) == 0 {
		return nil
	}
	if r.pairs == nil {
		r.pairs = map[pairKey]int{}
	}
	index := r.pairs
	clear(index)
	for i, s := range r.held {
		if s.spanID != "" {
			index[pairKey{s.trace, s.spanID}] = i
		}
	}
	partner := func(id string, want spanKind, trace string) int {
		if id == "" {
			return -1
		}
		if j, ok := index[pairKey{trace, id}]; ok && r.held[j].kind == want {
			return j
		}
		return -1
	}
	paired := make([]bool, len(r.held))
	for i := range r.held {
		s := &r.held[i]
		j := -1
		switch s.kind {
		case kindServer:
			j = partner(s.parent, kindClient, s.trace)
		case kindConsumer:
			if j = partner(s.parent, kindProducer, s.trace); j < 0 {
				for _, id := range s.links {
					if j = partner(id, kindProducer, s.trace); j >= 0 {
						break
					}
				}
			}
		}
		if j >= 0 {
			s.m = s.pairM
			r.held[j].m = s.pairM
			paired[i], paired[j] = true, true
		}
	}
	held := r.held
	r.held, r.heldBytes = nil, 0
	defer func() { clear(held); r.held = held[:0] }() // its room, for the next spans
	across := r.b.sink.holdsSpans() && !r.b.strict
	for i, s := range held {
		r.id = append(r.id[:0], s.trace...)
		if across && !paired[i] {
			if sl, ok := s.unpaired(); ok {
				if err := r.linked(r.id, s.line, s.col, s.spanID, s.l, s.kind, s.m, s.pairM, s.start, sl); err != nil {
					return err
				}
				continue
			}
		}
		if err := r.span(r.id, s.line, s.col, s.spanID, s.l, s.kind.action(), s.m, s.start); err != nil {
			return err
		}
	}
	return nil
}

// unpaired returns what a span left without a partner in its file carries
// to be paired at the assembly of its session, with a span of another file
// (a Joiner joins the files of a run): an emission its id, a reception its
// parent and links; ok is false for a span that cannot have a partner.
func (s *heldSpan) unpaired() (sl spanLink, ok bool) {
	sl.kind = s.kind
	if s.kind.action() == interaction.Emission {
		sl.span = spanNum(s.spanID)
		return sl, sl.span != 0
	}
	sl.parent = spanNum(s.parent)
	for _, l := range s.links {
		if n := spanNum(l); n != 0 {
			sl.links = append(sl.links, n)
		}
	}
	return sl, sl.parent != 0 || len(sl.links) > 0
}

// spanNum returns a span id written in hex as a number; an id that is not
// hex (Jaeger's spanID is a string) is hashed, 0 for none.
func spanNum(id string) uint64 {
	if id == "" {
		return 0
	}
	if n, err := strconv.ParseUint(id, 16, 64); err == nil {
		return n
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64() | 1<<63
}

// spanLink is what a span left without a partner in its file carries to
// its sink, so that its session's assembly can pair it with a span of
// another file (gatherer.pair), as flush pairs the spans of one file.
type spanLink struct {
	span, parent uint64   // its id (emissions), its parent's (receptions); 0: none
	links        []uint64 // receptions: the spans it links to
	kind         spanKind
	// own is its message alone, pair the receiving side's message of a
	// linked pair (receptions): declared when ownOK and pairOK, else named
	// by ownName and pairName.
	own, pair         interaction.MessageID
	ownOK, pairOK     bool
	ownName, pairName string
}

// linked adds a span left without a partner in its file, with what pairs
// it at assembly: it counts as an event when its own message is declared,
// else as ignored, until then. A span whose lifeline is not declared is
// ignored, as span ignores it.
func (r *spanReader) linked(id []byte, line, col int, spanID, l string, kind spanKind, m, pairM string, start int64, sl spanLink) error {
	lid, ok := r.b.lifelines.findString(l)
	if !ok {
		return r.span(id, line, col, spanID, l, kind.action(), m, start)
	}
	own, ownOK := r.b.messages.findString(m)
	sl.own, sl.ownOK = interaction.MessageID(own), ownOK
	if !sl.ownOK {
		sl.ownName = m
	}
	if kind.action() == interaction.Reception {
		pair, pairOK := r.b.messages.findString(pairM)
		sl.pair, sl.pairOK = interaction.MessageID(pair), pairOK
		if !sl.pairOK {
			sl.pairName = pairM
		}
	}
	act := interaction.MakeAction(interaction.LifelineID(lid), kind.action(), sl.own)
	if sl.ownOK {
		r.b.stats.Events++
	} else {
		r.b.stats.Ignored++
	}
	r.b.index++
	return r.b.sink.addSpan(id, line, r.b.index-1, act, spanKey(start), &sl)
}

// spanKey is the order key of a span starting at start (in nanoseconds
// since the Unix epoch): a time like an event log's RFC 3339 time, so that
// a location's spans and events order together.
func spanKey(start int64) orderKey {
	sec, nsec := start/1e9, start%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return orderKey{kind: keyTime, hi: sec, lo: uint32(nsec)}
}

// msgRef is the message of a span held for pairing: a declared
// message's id (>= 0), else the index in its gatherer's names of the name
// not declared, as -1 - index, or unnamed past maxUndeclared names.
type msgRef int32

const unnamed msgRef = math.MinInt32

// spanRef is a span held for pairing in a gatherer, beside its record:
// compact, for most spans of a run split by service are held.
type spanRef struct {
	id        uint64 // an emission's span id, a reception's parent's (0: none)
	own, pair msgRef // after pair: own is its message
	links     int32  // a reception's links: gatherer.linkIDs[links:links+nlinks]
	nlinks    uint16
	kind      spanKind
	ignored   bool // its message is not declared: not an event
}

// spanRefBytes is what a spanRef holds in memory, besides its links.
const spanRefBytes = 24

// newRef returns the spanRef of sl, its names in n.
func newRef(sl *spanLink, n *names) spanRef {
	ref := spanRef{id: sl.parent, kind: sl.kind, own: n.ref(sl.own, sl.ownOK, sl.ownName), pair: n.ref(sl.pair, sl.pairOK, sl.pairName)}
	if sl.kind.action() == interaction.Emission {
		ref.id = sl.span
	}
	return ref
}

// linksOf returns the links of ref.
func (g *gatherer) linksOf(ref *spanRef) []uint64 {
	return g.linkIDs[ref.links : ref.links+int32(ref.nlinks)]
}

// names holds the names not declared of the spans a gatherer holds for
// pairing, shared by the gatherers of a Joiner: a msgRef is an index in it.
type names struct {
	index map[string]int32
	list  []string
}

// ref returns the msgRef of a message, declared (ok) or named name.
func (n *names) ref(m interaction.MessageID, ok bool, name string) msgRef {
	if ok {
		return msgRef(m)
	}
	i, found := n.index[name]
	if !found {
		if len(n.list) == maxUndeclared {
			return unnamed
		}
		i = int32(len(n.list))
		n.index[name] = i
		n.list = append(n.list, name)
	}
	return msgRef(-1 - i)
}

// name returns the name of an undeclared msgRef, ok false when unnamed.
func (n *names) name(m msgRef) (string, bool) {
	if m == unnamed {
		return "", false
	}
	return n.list[-1-m], true
}

// addSpan records a span held for pairing, of session id: an event when
// its own message is declared, else ignored until its session is built.
// A session holds at most as many events as add lets it.
func (g *gatherer) addSpan(id []byte, line, index int, act interaction.Action, key orderKey, sl *spanLink) error {
	si := g.sessionOf(id, line, index)
	if err := g.full(&g.sess[si], g.input(), line); err != nil {
		g.sess[si].dropAt(line) // what was read of it is not judged
		return err
	}
	return g.putSpan(si, g.input(), line, act, key, newRef(sl, g.names), sl.links)
}

// putSpan adds ref, with its links, to session s, read at line of input.
func (g *gatherer) putSpan(si int32, input int32, line int, act interaction.Action, key orderKey, ref spanRef, links []uint64) error {
	links = links[:min(len(links), math.MaxUint16)]
	if g.recs.n == math.MaxInt32 || len(g.spans) == math.MaxInt32 || len(g.linkIDs)+len(links) > math.MaxInt32 {
		return fmt.Errorf("%s:%d: too many events (at most %d held at once)", g.inputs[input], line, math.MaxInt32)
	}
	s := &g.sess[si]
	ref.ignored = ref.own < 0
	if ref.ignored {
		s.ignored++
		s.heldIgnored++
	} else {
		s.events++
		g.events++
	}
	s.spans++
	ref.links, ref.nlinks = int32(len(g.linkIDs)), uint16(len(links))
	g.linkIDs = append(g.linkIDs, links...)
	g.spans = append(g.spans, ref)
	g.keep(si, record{hi: key.hi, act: act, lo: key.lo, line: clampLine(line),
		meta: uint32(input)<<8 | uint32(key.kind), span: int32(len(g.spans))})
	g.bytes += spanRefBytes + 8*int64(len(links))
	return nil
}

// pair pairs the spans of session s held for pairing (among its records
// recs), as flush pairs the spans of one file: a SERVER span with the
// CLIENT span that is its parent, a CONSUMER span with the PRODUCER span
// that is its parent or one of its links; both carry the receiving side's
// message. A span's message decides whether it is an event or ignored (and
// its name then tallied); out's counts follow.
func (g *gatherer) pair(s *sessionState, recs []int32, out *Session) {
	emissions := make(map[uint64]int32, s.spans)
	for _, r := range recs {
		if rec := g.recs.at(r); rec.span > 0 {
			if ref := &g.spans[rec.span-1]; ref.kind.action() == interaction.Emission {
				emissions[ref.id] = rec.span - 1
			}
		}
	}
	partner := func(id uint64, want spanKind) *spanRef {
		if j, ok := emissions[id]; ok && id != 0 && g.spans[j].kind == want {
			return &g.spans[j]
		}
		return nil
	}
	for _, r := range recs {
		rec := g.recs.at(r)
		if rec.span == 0 {
			continue
		}
		ref := &g.spans[rec.span-1]
		var p *spanRef
		switch ref.kind {
		case kindServer:
			p = partner(ref.id, kindClient)
		case kindConsumer:
			if p = partner(ref.id, kindProducer); p == nil {
				for _, id := range g.linksOf(ref) {
					if p = partner(id, kindProducer); p != nil {
						break
					}
				}
			}
		}
		if p != nil {
			ref.own, p.own = ref.pair, ref.pair
		}
	}
	for _, r := range recs {
		rec := g.recs.at(r)
		if rec.span == 0 {
			continue
		}
		ref := &g.spans[rec.span-1]
		was := ref.ignored
		ref.ignored = ref.own < 0
		if !ref.ignored {
			rec.act = interaction.MakeAction(rec.act.Lifeline(), rec.act.Kind(), interaction.MessageID(ref.own))
		} else if name, ok := g.names.name(ref.own); ok {
			g.tally.add(false, []byte(name))
		}
		switch {
		case was && !ref.ignored:
			out.Events++
			out.Ignored--
		case !was && ref.ignored:
			out.Events--
			out.Ignored++
		}
	}
}
