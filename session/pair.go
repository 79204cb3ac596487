package session

// The pairing of spans across the files of a run: a span that logs left
// without a partner in its file (logs.SpanLink) is held beside its record
// until its session is built, then paired with a span of another file.

import (
	"fmt"
	"math"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// msgRef is the message of a span held for pairing: a declared
// message's id (>= 0), else the index in its gatherer's names of the name
// not declared, as -1 - index, or unnamed past logs.MaxUndeclared names.
type msgRef int32

const unnamed msgRef = math.MinInt32

// spanRef is a span held for pairing in a gatherer, beside its record:
// compact, for most spans of a run split by service are held.
type spanRef struct {
	id        uint64 // an emission's span id, a reception's parent's (0: none)
	self      uint64 // its own id (dedup; a judgment names it)
	own, pair msgRef // after pair: own is its message
	links     int32  // a reception's links: gatherer.linkIDs[links:links+nlinks]
	nlinks    uint16
	kind      logs.SpanKind
	ignored   bool // its message is not declared: not an event
}

// pairCopies names each emission held without a partner after a copy of
// it (the same span read in two files) that its file paired: such a copy
// is an emission of recs whose span is not held; emission finds the held
// one by its id (the first held of the id), which takes the copy's
// message and is paired (added to paired, sorted, which it returns), so
// that the two are one span read twice, not two contents of it (and
// nameCopies names the other held copies alike).
func (g *gatherer) pairCopies(recs []int32, emission func(uint64) (int32, bool), paired []int32) []int32 {
	for _, r := range recs {
		cp := g.recs.at(r)
		if cp.span >= 0 || cp.act.Kind() != interaction.Emission {
			continue // held, not a span, or a reception
		}
		if j, ok := emission(*g.spanIDs.at(-1 - cp.span)); ok {
			if i, found := slices.BinarySearch(paired, j); !found {
				g.spans.at(j).own = msgRef(cp.act.Message())
				paired = slices.Insert(paired, i, j)
			}
		}
	}
	return paired
}

// nameCopies names each emission held after the first of its id (the
// same span held in two files, each leaving it alone) as the first, when
// the first was paired (in paired, sorted): one span read twice, which
// dedup counts as such, not two contents of it.
func (g *gatherer) nameCopies(recs []int32, emission func(uint64) (int32, bool), paired []int32) {
	for _, r := range recs {
		rec := g.recs.at(r)
		if rec.span <= 0 {
			continue
		}
		ref := g.spans.at(rec.span - 1)
		if ref.kind.Action() != interaction.Emission {
			continue
		}
		if j, ok := emission(ref.id); ok && j != rec.span-1 {
			if _, found := slices.BinarySearch(paired, j); found {
				ref.own = g.spans.at(j).own
			}
		}
	}
}

// replyKind marks, in a spanRef's kind, the reply of a CLIENT span
// (logs.SpanLink.Reply): its id is its call's, and it is no partner.
const replyKind logs.SpanKind = 0x80

// isReply reports whether ref is the reply of a CLIENT span.
func (ref *spanRef) isReply() bool { return ref.kind&replyKind != 0 }

// spanRefBytes is what a spanRef holds in memory, besides its links.
const spanRefBytes = 32

// newRef returns the spanRef of sl, the span span, its names in n.
func newRef(sl *logs.SpanLink, span uint64, n *names) spanRef {
	ref := spanRef{id: sl.Span, self: span, kind: sl.Kind, own: n.ref(sl.Own, sl.OwnOK, sl.OwnName)}
	if sl.Reply {
		ref.kind |= replyKind
		if !sl.OwnOK {
			ref.own = unnamed // its call's names are tallied, not its own
		}
		return ref
	}
	if sl.Kind.Action() == interaction.Reception { // the side that names a pair
		ref.id, ref.pair = sl.Parent, n.ref(sl.Pair, sl.PairOK, sl.PairName)
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
		if len(n.list) == logs.MaxUndeclared {
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

// AddSpan records a span held for pairing, of session id: an event when
// its own message is declared, else ignored until its session is built.
// A session holds at most as many events as Add lets it.
func (g *gatherer) AddSpan(id []byte, line, index int, act interaction.Action, key logs.Key, span uint64, sl *logs.SpanLink) error {
	si := g.sessionOf(id, line, index)
	if err := g.full(&g.sess[si], g.input(), line); err != nil {
		g.sess[si].dropAt(line) // what was read of it is not judged
		return err
	}
	return g.putSpan(si, g.input(), line, act, key, newRef(sl, span, g.names), sl.Links)
}

// putSpan adds ref, with its links, to session s, read at line of input.
func (g *gatherer) putSpan(si int32, input int32, line int, act interaction.Action, key logs.Key, ref spanRef, links []uint64) error {
	links = links[:min(len(links), math.MaxUint16)]
	if g.recs.n == math.MaxInt32 || g.spans.n == math.MaxInt32 || len(g.linkIDs)+len(links) > math.MaxInt32 {
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
	if ref.self != 0 {
		s.spanned++
	}
	ref.links, ref.nlinks = int32(len(g.linkIDs)), uint16(len(links))
	g.linkIDs = append(g.linkIDs, links...)
	g.spans.add(ref)
	g.keep(si, record{hi: key.Hi, act: act, lo: key.Lo, line: logs.Line32(line),
		meta: uint32(input)<<8 | uint32(key.Kind), span: g.spans.n})
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
	// The emissions by span id, the first of an id kept (a later one is a
	// duplicate, which dedup drops): looked up in a list when the session
	// has few spans (as most have: a map would cost more than the
	// search), else in a map.
	var few [16]int32
	list := few[:0]
	var byID map[uint64]int32
	if s.spans > int32(len(few)) {
		byID = make(map[uint64]int32, s.spans)
	}
	copies := false // an emission held twice (read in two files)
	for _, r := range recs {
		if rec := g.recs.at(r); rec.span > 0 {
			if ref := g.spans.at(rec.span - 1); ref.kind.Action() == interaction.Emission {
				if byID != nil {
					if _, dup := byID[ref.id]; !dup {
						byID[ref.id] = rec.span - 1
					} else {
						copies = true
					}
				} else {
					list = append(list, rec.span-1)
				}
			}
		}
	}
	emissions := len(byID)
	if byID == nil {
		for i, j := range list { // a span read twice counts once, as in byID
			if !slices.ContainsFunc(list[:i], func(k int32) bool { return g.spans.at(k).id == g.spans.at(j).id }) {
				emissions++
			} else {
				copies = true
			}
		}
	}
	emission := func(id uint64) (int32, bool) {
		if byID != nil {
			j, ok := byID[id]
			return j, ok
		}
		for _, j := range list {
			if g.spans.at(j).id == id {
				return j, true
			}
		}
		return 0, false
	}
	// The emissions paired, by index in spans (with repeats: a retried
	// reception pairs with the same emission), to count those left alone.
	var pairedFew [16]int32
	paired := pairedFew[:0]
	partner := func(id uint64, want logs.SpanKind) *spanRef {
		if j, ok := emission(id); ok && id != 0 && g.spans.at(j).kind == want {
			paired = append(paired, j)
			return g.spans.at(j)
		}
		return nil
	}
	for _, r := range recs {
		rec := g.recs.at(r)
		if rec.span <= 0 {
			continue
		}
		ref := g.spans.at(rec.span - 1)
		var p *spanRef
		switch ref.kind {
		case logs.SpanServer:
			p = partner(ref.id, logs.SpanClient)
		case logs.SpanConsumer:
			if p = partner(ref.id, logs.SpanProducer); p == nil {
				for _, id := range g.linksOf(ref) {
					if p = partner(id, logs.SpanProducer); p != nil {
						break
					}
				}
			}
		}
		if p != nil {
			ref.own, p.own = ref.pair, ref.pair
		}
	}
	slices.Sort(paired)
	paired = slices.Compact(paired)
	if s.spanned > s.spans { // some spans paired in their file: copies of held ones?
		paired = g.pairCopies(recs, emission, paired)
	}
	if copies {
		g.nameCopies(recs, emission, paired)
	}
	out.Unpaired += emissions - len(paired)
	for _, r := range recs {
		// The reply of a CLIENT span is the reply of the message its call
		// carries now.
		rec := g.recs.at(r)
		if rec.span <= 0 || !g.spans.at(rec.span-1).isReply() {
			continue
		}
		ref := g.spans.at(rec.span - 1)
		ref.own = unnamed
		if j, ok := emission(ref.id); ok && g.reply != nil {
			if call := g.spans.at(j).own; call >= 0 {
				if reply, ok := g.reply(interaction.MessageID(call)); ok {
					ref.own = msgRef(reply)
				}
			}
		}
	}
	for _, r := range recs {
		rec := g.recs.at(r)
		if rec.span <= 0 {
			continue
		}
		ref := g.spans.at(rec.span - 1)
		was := ref.ignored
		ref.ignored = ref.own < 0
		if !ref.ignored {
			rec.act = interaction.MakeAction(rec.act.Lifeline(), rec.act.Kind(), interaction.MessageID(ref.own))
		} else if name, ok := g.names.name(ref.own); ok {
			g.tally.Add(false, []byte(name))
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
