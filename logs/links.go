package logs

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
)

// HTTPRoute is the attribute of the OpenTelemetry semantic conventions
// that names the route of an HTTP server span.
const HTTPRoute = "http.route"

// SpanKind is the kind of a span that carries an action, as OpenTelemetry
// and Jaeger write it: it says which partner a span may have.
type SpanKind uint8

const (
	SpanClient SpanKind = iota
	SpanProducer
	SpanServer
	SpanConsumer
)

// Action returns the kind of the action a span of kind k carries: CLIENT
// and PRODUCER spans send (l!m), SERVER and CONSUMER spans receive (l?m).
func (k SpanKind) Action() interaction.Kind {
	if k == SpanClient || k == SpanProducer {
		return interaction.Emission
	}
	return interaction.Reception
}

// heldSpan is a span with an action, held until the file is read: its
// message may come from its linked partner.
type heldSpan struct {
	trace          string
	spanID, parent spanRef
	links          []spanRef
	line, col      int
	l, m           string
	nested         bool // a SERVER span under a SERVER span of its service
	kind           SpanKind
	start, end     int64 // in nanoseconds since the Unix epoch (end 0: not known)
}

// heldSpans are the spans held until flush, in chunks of heldChunk
// spans: growing them over a whole file copies none of them, and their
// room goes back to heldChunks at flush, for the next spans held by any
// reader (each file has its reader).
type heldSpans struct {
	chunks  []*[heldChunk]heldSpan
	n       int
	servers int // the SERVER spans among them
}

// heldChunk is the number of spans of a chunk of heldSpans (a power of 2).
const heldChunk = 512

// heldChunks are the chunks of heldSpans no reader holds: a join reads a
// file a location, each with its reader, and a chunk made for each took
// a third of what its spans' reading allocated (BenchmarkLogs'
// otlp-proto-joined rows), and as much of the collections it paced.
var heldChunks = sync.Pool{New: func() any { return new([heldChunk]heldSpan) }}

// add appends s.
func (h *heldSpans) add(s heldSpan) {
	c := h.n / heldChunk
	if c == len(h.chunks) {
		h.chunks = append(h.chunks, heldChunks.Get().(*[heldChunk]heldSpan))
	}
	h.chunks[c][h.n%heldChunk] = s
	h.n++
	if s.kind == SpanServer {
		h.servers++
	}
}

// at returns the span held i-th.
func (h *heldSpans) at(i int) *heldSpan {
	return &h.chunks[i/heldChunk][i%heldChunk]
}

// len returns the number of spans held.
func (h *heldSpans) len() int { return h.n }

// reset forgets the spans held, their room back to heldChunks.
func (h *heldSpans) reset() {
	for c, k := range h.chunks {
		if c*heldChunk < h.n {
			clear(k[:])
		}
		heldChunks.Put(k)
	}
	clear(h.chunks)
	h.chunks = h.chunks[:0]
	h.n, h.servers = 0, 0
}

// duration is a span's duration as Jaeger and Zipkin write it, a JSON
// integer (ok), decoded without a string of its own; absent, or anything
// else, it is not known.
type duration struct {
	n  int64
	ok bool
}

func (d *duration) UnmarshalJSON(b []byte) error {
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' || n > (math.MaxInt64-9)/10 {
			*d = duration{}
			return nil
		}
		n = n*10 + int64(c-'0')
	}
	*d = duration{n: n, ok: len(b) > 0}
	return nil
}

// spanEnd returns the end of a span that starts at start and lasts d (not
// known: 0), both in units of unit nanoseconds.
func spanEnd(start int64, d duration, unit int64) int64 {
	if !d.ok || start > (math.MaxInt64/unit)-d.n {
		return 0
	}
	return (start + d.n) * unit
}

// spanRef is a span id as a reader holds it: as its file writes it, a
// string (Jaeger, Zipkin, the Go SDK's stdout), or only its number (OTLP's
// 8 bytes, read big-endian: what spanNum makes of their hex, without
// writing the hex to parse it back). The ids of one reader are all of one
// form: two are the same id when equal; the zero spanRef is none.
type spanRef struct {
	hex string
	num uint64
}

// otlpRef is the spanRef of an OTLP span id.
func otlpRef(id [8]byte) spanRef {
	return spanRef{num: binary.BigEndian.Uint64(id[:])}
}

// none reports whether id is no id.
func (id spanRef) none() bool { return id == spanRef{} }

// Num returns id as consumers know a span (spanNum).
func (id spanRef) Num() uint64 {
	if id.hex != "" {
		return spanNum(id.hex)
	}
	return id.num
}

// String returns id as its file writes it: OTLP's in hex.
func (id spanRef) String() string {
	if id.hex != "" || id.num == 0 {
		return id.hex
	}
	return fmt.Sprintf("%016x", id.num)
}

// heldSpanBytes is what a held span takes besides the bytes of its
// strings.
const heldSpanBytes = int64(unsafe.Sizeof(heldSpan{}))

// hold keeps a span until flush, its names shortened past the longest
// name of the signature. The spans held count in the file's limit
// (Options.maxHeld): past it, a positioned error ends the reading.
func (r *spanReader) hold(s heldSpan) error {
	s.l, s.m = r.short(s.l), r.short(s.m)
	n := heldSpanBytes + int64(len(s.trace)+len(s.spanID.hex)+len(s.parent.hex)+len(s.l)+len(s.m))
	for _, l := range s.links {
		n += int64(unsafe.Sizeof(l)) + int64(len(l.hex))
	}
	if err := r.take(n, s.line, s.col); err != nil {
		return err
	}
	r.held.add(s)
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
// goes to a consumer that pairs the spans of several files (PairsAcross:
// session.Joiner, Scan) with what pairs it at its session's assembly
// (SpanLink), where its partner may come from another file; to any other
// consumer, and with Options.Strict, it keeps its own message. With
// pairLater (a TraceReader's requests, whose partners mostly come in other
// requests), no span is paired here: each goes to the consumer with its
// SpanLink, and its session's assembly pairs them all, once.
func (r *spanReader) flush() error {
	if r.over {
		// The file's reading stopped at the limit: the sessions of the
		// spans held are not judged without the rest (session.Session.Dropped).
		for i := range r.held.len() {
			s := r.held.at(i)
			r.b.stats.Malformed++
			r.b.sink.Drop([]byte(s.trace), s.line, r.b.index)
			r.b.index++
		}
		r.held.reset()
		r.heldBytes = 0
		return nil
	}
	n := r.held.len()
	if n == 0 {
		return nil
	}
	across := r.b.sink.PairsAcross() && !r.b.strict
	paired := slices.Grow(r.paired[:0], n)[:n]
	clear(paired)
	r.paired = paired
	indexed := r.markNested()
	if !across || !r.pairLater {
		r.pair(paired, indexed)
	}
	r.heldBytes = 0
	defer r.held.reset() // its room, for the next spans
	for i := range n {
		s := r.held.at(i)
		if s.nested {
			r.b.stats.Unkinded++
			continue
		}
		r.id = append(r.id[:0], s.trace...)
		if across && !paired[i] {
			if s.unpaired(&r.link) {
				if err := r.linked(r.id, s.line, s.col, s.spanID, s.l, s.kind, s.m, s.start, &r.link); err != nil {
					return err
				}
				if s.kind == SpanClient && r.replies != nil && s.end > 0 {
					// Its message may change when its session pairs it:
					// so may its reply's.
					if err := r.linkedReply(r.id, s); err != nil {
						return err
					}
				} else if err := r.reply(r.id, s); err != nil {
					return err
				}
				continue
			}
		}
		read := r.b.stats.Events + r.b.stats.Ignored
		alone := !across && !paired[i] && r.alone(i)
		var h holder
		if alone {
			if h, _ = r.b.sink.(holder); h != nil {
				h.hold() // until Unpaired has marked the span's event
			}
		}
		err := r.span(r.id, s.line, s.col, s.spanID, s.l, s.kind.Action(), s.m, s.start)
		// Counted in its session when it is one of its events or ignored
		// ones (not malformed: a strict reading's undeclared name).
		if err == nil && alone && r.b.stats.Events+r.b.stats.Ignored > read {
			r.b.sink.Unpaired(r.id, s.line, r.b.index-1, s.spanID.Num())
		}
		if h != nil {
			h.release()
		}
		if err != nil {
			return err
		}
		if err := r.reply(r.id, s); err != nil {
			return err
		}
	}
	return nil
}

// holder is a Consumer that hands out events as they come (Scan's
// emitter) but can hold one back until Unpaired has marked it.
type holder interface {
	hold()
	release()
}

// alone reports whether the held span i, left without a partner in its
// file that pairs no span across files, is one its session counts as
// unpaired (session.Meta.Unpaired), as a session's assembly counts those
// held for it: an emission with an id, on a declared lifeline, and the
// last held of its id (a span read twice counts once; when one of its
// copies pairs, it is that one).
func (r *spanReader) alone(i int) bool {
	s := r.held.at(i)
	return isEmission(s) && s.spanID.Num() != 0 && !r.spans.shadowed[i] && r.declared(s)
}

// declared reports whether the signature declares the lifeline of s.
func (r *spanReader) declared(s *heldSpan) bool {
	_, ok := r.b.lifelines.findString(s.l)
	return ok
}

// reply adds the reply of the call s, whose message is final, when the
// options give its message one (Options.Replies): the end of a SERVER span
// is the reply's emission by its server, the end of a CLIENT span its
// reception by the client. A span whose end is not known has none.
func (r *spanReader) reply(id []byte, s *heldSpan) error {
	if r.replies == nil || s.end == 0 || (s.kind != SpanClient && s.kind != SpanServer) {
		return nil
	}
	call, ok := r.b.messages.findString(s.m)
	if !ok {
		return nil
	}
	reply, ok := r.replies.Reply(interaction.MessageID(call))
	if !ok {
		return nil
	}
	k := interaction.Emission
	if s.kind == SpanClient {
		k = interaction.Reception
	}
	return r.span(id, s.line, s.col, s.spanID, s.l, k, r.b.messages.names[reply], s.end)
}

// linkedReply adds the reply of the CLIENT span s left without its partner
// in its file, with what pairs it at its session's assembly: its message
// is the reply of its call's message once paired, and, until then, of its
// own (an event when that has a reply, else ignored).
func (r *spanReader) linkedReply(id []byte, s *heldSpan) error {
	lid, ok := r.b.lifelines.findString(s.l)
	if !ok {
		return nil // its call is ignored for its lifeline, and so is it
	}
	sl := &r.link
	span := s.spanID.Num()
	*sl = SpanLink{Kind: SpanClient, Span: span, Reply: true}
	if call, ok := r.b.messages.findString(s.m); ok {
		sl.Own, sl.OwnOK = r.replies.Reply(interaction.MessageID(call))
	}
	act := interaction.MakeAction(interaction.LifelineID(lid), interaction.Reception, sl.Own)
	if sl.OwnOK {
		r.b.stats.Events++
	} else {
		r.b.stats.Ignored++
	}
	r.b.index++
	return r.b.sink.AddSpan(id, s.line, r.b.index-1, act, spanKey(s.end), span, sl)
}

// spanIndex finds the spans held by trace and span id. It is keyed by a
// number made of both and of the span's class (a span id's own number, a
// seeded hash of its trace id), cheap to hash; the spans of one key are
// chained, the last held first, and told apart by their ids: a lookup
// finds the last span held with the ids, as a map keyed by them would.
// Its table is an open-addressing one (linear probing, at most half full)
// of the last span of each key with the high half of the key's hash (the
// key mixed by hashslots.Mix, every bit of it spread over all), as
// sessionIndex is: one probe of a cache line where a map took a look-up
// and an assignment (a twentieth of an OTLP/JSON row, built once a file).
// Two keys whose hashes share their high halves and their probe share a
// chain, which the ids tell apart.
type spanIndex struct {
	slots []uint64 // hash>>32 << 32 | (the last span held + 1); 0: empty
	next  []int32  // by span: the one held before it in its chain, or -1
	// shadowed says, by span, whether one held after it has its ids in
	// its class: a lookup of them never finds it.
	shadowed []bool
	seed     maphash.Seed
	block    []uint64 // the hashes of the spans build puts next (0: none)
}

// build indexes the spans of held that a lookup may find: the emissions
// (the partners pair looks for) and the SERVER spans that are not their
// own parent (the parents markNested looks for), each under its class, so
// that no lookup walks past spans of the other class, whatever a file
// holds.
func (x *spanIndex) build(held *heldSpans) {
	n := held.len()
	size := 64
	for size < 2*n {
		size *= 2
	}
	if cap(x.slots) < size {
		if x.slots == nil {
			x.seed = maphash.MakeSeed()
		}
		x.slots = make([]uint64, size)
	} else {
		x.slots = x.slots[:size]
		clear(x.slots)
	}
	x.next = slices.Grow(x.next[:0], n)[:n]
	x.shadowed = slices.Grow(x.shadowed[:0], n)[:n]
	clear(x.shadowed)
	mask := uint64(size - 1)
	// The spans go in blocks: a block's keys are hashed first, then its
	// spans put, so that the probes of the block, their places known,
	// wait for the memory together. One loop doing both waited for each
	// probe after the hashing of its span: a large file's table is larger
	// than the caches (BenchmarkSpanIndexBuild: 47 -> 22 ns a span).
	x.block = slices.Grow(x.block[:0], min(n, indexBlock))[:min(n, indexBlock)]
	for lo := 0; lo < n; lo += len(x.block) {
		hs := x.block[:min(len(x.block), n-lo)]
		for k := range hs {
			i := lo + k
			s := held.at(i)
			x.next[i] = -1
			hs[k] = 0 // not indexed
			if server := isServer(s); !s.spanID.none() && (server || isEmission(s)) {
				hs[k] = x.hash(s.trace, s.spanID, server)
			}
		}
		for k, h := range hs {
			if h == 0 {
				continue
			}
			i := lo + k
			tag := h >> 32 << 32
			for j := h & mask; ; j = (j + 1) & mask {
				e := x.slots[j]
				if e == 0 || e>>32<<32 == tag {
					if e != 0 {
						x.next[i] = int32(uint32(e)) - 1
						x.shadow(held, i)
					}
					x.slots[j] = tag | uint64(uint32(i+1))
					break
				}
			}
		}
	}
}

// indexBlock is the number of spans spanIndex.build hashes before it puts
// them (16 KiB of hashes): 256 gave 26 ns a span, 2,048 22, as many as the
// file's 21.
const indexBlock = 2048

// shadow marks the span held last before s (the i-th, just put at the
// head of its chain) with its ids in its class as shadowed: s is found
// in its place. (The spans held before that one were marked as it was
// put.)
func (x *spanIndex) shadow(held *heldSpans, i int) {
	s := held.at(i)
	for j := x.next[i]; j >= 0; j = x.next[j] {
		if p := held.at(int(j)); p.spanID == s.spanID && p.trace == s.trace && isServer(p) == isServer(s) {
			x.shadowed[j] = true
			return
		}
	}
}

// find returns the last span of held with trace and span id among the
// SERVER spans that are not their own parent (server), or among the
// emissions, or -1.
func (x *spanIndex) find(held *heldSpans, trace string, id spanRef, server bool) int {
	if len(x.slots) == 0 {
		return -1
	}
	h := x.hash(trace, id, server)
	tag, mask := h>>32<<32, uint64(len(x.slots)-1)
	for p := h & mask; ; p = (p + 1) & mask {
		e := x.slots[p]
		if e == 0 {
			return -1
		}
		if e>>32<<32 != tag {
			continue
		}
		for j := int32(uint32(e)) - 1; j >= 0; j = x.next[j] {
			if s := held.at(int(j)); s.spanID == id && s.trace == trace && isServer(s) == server {
				return int(j)
			}
		}
		return -1 // the one chain of the tag on this probe
	}
}

// hash is the hash of a key of the index: never 0 (bit 32, the tag's
// lowest, is set), which build keeps for the spans it does not index.
func (x *spanIndex) hash(trace string, id spanRef, server bool) uint64 {
	return hashslots.Mix(x.key(trace, id, server)) | 1<<32
}

// key is the key of a trace and span id in a class: OTLP's span ids are
// numbers, the others' hashed; trace ids hashed with the index's seed, so
// that spans of other ids share a key only by chance, not by a file's
// choosing (a chain of them would be walked at each lookup).
func (x *spanIndex) key(trace string, id spanRef, server bool) uint64 {
	k := id.num
	if id.hex != "" {
		k = maphash.String(x.seed, id.hex)
	}
	k ^= maphash.String(x.seed, trace)
	if server {
		k = bits.RotateLeft64(k, 32) ^ 0x9e3779b97f4a7c15
	}
	return k
}

// isServer reports whether s is a SERVER span that is not its own parent,
// the spans markNested looks under.
func isServer(s *heldSpan) bool { return s.kind == SpanServer && s.parent != s.spanID }

// isEmission reports whether s sends: only an emission is a partner (a
// Zipkin SERVER span shares its CLIENT span's id, and must not hide it).
func isEmission(s *heldSpan) bool { return s.kind.Action() == interaction.Emission }

// markNested marks the SERVER spans whose parent is a SERVER span of the
// same service and trace among the spans held, and that start within their
// parent's time: a second instrumentation layer of the request its parent
// received (a framework's span under the HTTP server's, as Next.js writes
// them), not a message of its own. They are counted as local work, as
// INTERNAL spans are. (Zipkin's shared SERVER halves carry their CLIENT's
// id: a span under one is under the call, not nested; they are not
// looked under.) It builds r.spans when it needs it; indexed reports
// whether it did.
func (r *spanReader) markNested() (indexed bool) {
	if r.held.servers < 2 {
		return false // no index to build
	}
	r.spans.build(&r.held)
	for i := range r.held.len() {
		s := r.held.at(i)
		if s.kind != SpanServer || s.parent.none() || s.parent == s.spanID {
			continue
		}
		// Within its parent's time, for a span under a SERVER span of its
		// service that starts after it ended is another request (a
		// browser's next page carries the trace on).
		if j := r.spans.find(&r.held, s.trace, s.parent, true); j >= 0 {
			if p := r.held.at(j); p.l == s.l && p.start <= s.start && s.start <= p.end {
				s.nested = true
			}
		}
	}
	return true
}

// pair pairs the held spans of each call or message, marking them in
// paired: both carry the receiving side's message. A SERVER or CONSUMER
// span of a service the signature does not declare names no partner: it
// is outside the signature, and a session's assembly, which never holds
// it, pairs nothing with it either. indexed says whether r.spans indexes
// them already.
func (r *spanReader) pair(paired []bool, indexed bool) {
	if !indexed {
		r.spans.build(&r.held)
	}
	partner := func(id spanRef, want SpanKind, trace string) int {
		if id.none() {
			return -1
		}
		if j := r.spans.find(&r.held, trace, id, false); j >= 0 && r.held.at(j).kind == want {
			return j
		}
		return -1
	}
	for i := range r.held.len() {
		s := r.held.at(i)
		j := -1
		if s.nested || s.kind.Action() == interaction.Reception && !r.declared(s) {
			continue
		}
		switch s.kind {
		case SpanServer:
			j = partner(s.parent, SpanClient, s.trace)
		case SpanConsumer:
			if j = partner(s.parent, SpanProducer, s.trace); j < 0 {
				for _, id := range s.links {
					if j = partner(id, SpanProducer, s.trace); j >= 0 {
						break
					}
				}
			}
		}
		if j >= 0 {
			// Every copy of the partner (a span read twice) is paired alike:
			// a copy left with its own message would be another content
			// for the session's duplicates, judged on the first.
			p := r.held.at(j)
			for k := j; k >= 0; k = int(r.spans.next[k]) {
				if c := r.held.at(k); c == p || c.spanID == p.spanID && c.trace == p.trace && c.kind == p.kind {
					c.m = s.m
					paired[k] = true
				}
			}
			paired[i] = true
		}
	}
}

// unpaired sets sl to what a span left without a partner in its file
// carries to be paired at the assembly of its session, with a span of
// another file (session.Joiner joins the files of a run): an emission its
// id, a reception its parent and links; it is false for a span that
// cannot have a partner.
func (s *heldSpan) unpaired(sl *SpanLink) (ok bool) {
	*sl = SpanLink{Kind: s.kind} // Links anew: the consumer may keep them
	if s.kind.Action() == interaction.Emission {
		sl.Span = s.spanID.Num()
		return sl.Span != 0
	}
	sl.Parent = s.parent.Num()
	for _, l := range s.links {
		if n := l.Num(); n != 0 {
			sl.Links = append(sl.Links, n)
		}
	}
	return sl.Parent != 0 || len(sl.Links) > 0
}

// spanNum returns a span id written in hex as a number; an id that is not
// hex (Jaeger's spanID is a string) is hashed, 0 for none: what consumers
// know a span by (Consumer.Add, Event.Span, SpanLink).
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

// SpanLink is what a span left without a partner in its file carries to
// its Consumer, so that its session's assembly (package session) can pair
// it with a span of another file, as the reader pairs the spans of one
// file: a SERVER span with the CLIENT span that is its parent, a CONSUMER
// span with the PRODUCER span that is its parent or one of its links. Span
// ids are numbers (spanNum: hex, or a hash of another id).
type SpanLink struct {
	Span, Parent uint64   // its id (emissions), its parent's (receptions); 0: none
	Links        []uint64 // receptions: the spans it links to
	Kind         SpanKind
	// Own is its message alone, Pair the receiving side's message of a
	// linked pair (receptions), which both spans of a pair carry: declared
	// when OwnOK and PairOK, else named by OwnName and PairName.
	Own, Pair         interaction.MessageID
	OwnOK, PairOK     bool
	OwnName, PairName string
	// Reply marks the reply event of a CLIENT span (Options.Replies): its
	// message is the reply of the message its span carries once paired
	// (Options.Reply), and Own, until then, the reply of its own.
	Reply bool
}

// linked adds a span left without a partner in its file, with what pairs
// it at assembly: it counts as an event when its own message is declared,
// else as ignored, until then. A span whose lifeline is not declared is
// ignored, as span ignores it.
func (r *spanReader) linked(id []byte, line, col int, spanID spanRef, l string, kind SpanKind, m string, start int64, sl *SpanLink) error {
	lid, ok := r.b.lifelines.findString(l)
	if !ok {
		return r.span(id, line, col, spanID, l, kind.Action(), m, start)
	}
	own, ownOK := r.b.messages.findString(m)
	sl.Own, sl.OwnOK = interaction.MessageID(own), ownOK
	if !sl.OwnOK {
		sl.OwnName = m
	}
	if kind.Action() == interaction.Reception { // its message names the pair
		sl.Pair, sl.PairOK, sl.PairName = sl.Own, sl.OwnOK, sl.OwnName
	}
	act := interaction.MakeAction(interaction.LifelineID(lid), kind.Action(), sl.Own)
	if sl.OwnOK {
		r.b.stats.Events++
	} else {
		r.b.stats.Ignored++
	}
	r.b.index++
	return r.b.sink.AddSpan(id, line, r.b.index-1, act, spanKey(start), spanID.Num(), sl)
}

// spanKey is the order key of a span starting at start (in nanoseconds
// since the Unix epoch): a time like an event log's RFC 3339 time, so that
// a location's spans and events order together.
func spanKey(start int64) Key {
	sec, nsec := start/1e9, start%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return Key{Kind: KeyTime, Hi: sec, Lo: uint32(nsec)}
}
