package session

// The spill of a Joiner past its budget: its events written to a temporary
// file, partitioned by session, then gathered partition by partition into
// runs of sessions, which are merged back in the order of the run.

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"os"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// spillParts is the number of partitions of a spill: each is gathered in
// memory alone, so that a run spills about this many times its budget
// before a partition outgrows it.
const spillParts = 64

// The tags of what a spill file holds besides events, in the place of an
// event's key kind.
const (
	ignoredTag = 0xff // an event outside the signature
	headerTag  = 0xfe // the first event of a session gathered before the spill, and its counts
	endTag     = 0xfd // in a run: the end of a session's events
	droppedTag = 0xfc // a malformed event (reported)
	// unpairedTag: an emission left without its partner in its file, by a
	// reader that pairs no span across files (not an event: its count, and
	// its span's id, which marks its event, written just before).
	unpairedTag = 0xfb
	// recordsTag: in a run, a block of a session's records that are no
	// spans, as they are held (appendRecords), which merge keeps as they
	// come rather than decode an event at a time.
	recordsTag = 0xfa
)

// isKey reports whether tag is an event's key kind (with its flags): an
// event in the signature.
func isKey(tag byte) bool { return tag&0x80 == 0 }

// spill holds the events of a Joiner past its budget: first in partitions
// by a hash of the session id, then, partition by partition, gathered into
// runs of sessions in order of first appearance, which merge reads back in
// the order of the run. Partitions and runs are chains of blocks of one
// temporary file (file: made with the first partition): one file to
// make and remove, however many partitions a spill fills, and a block read
// back is written again, by a run, rather than freed then made anew.
type spill struct {
	dir   string
	seed  maphash.Seed
	parts []*spillFile
	runs  []*spillFile
	buf   []byte
	err   error
	file  *os.File
	// removed: the file's name is gone already (or it never had one).
	removed bool
	// blocks is the number of blocks of the file; free, those read back,
	// for the next written.
	blocks int64
	free   []int64
	// writers and readers are the buffers of chains written and read to
	// their end, for the next: a spill reads each chain once, a partition
	// before its run is written.
	writers []*bufio.Writer
	readers []*bufio.Reader
	// lastID and lastPart are the session written last and its partition:
	// a session's events mostly come together, and its id is not hashed
	// again.
	lastID   []byte
	lastPart *spillFile
}

// spillBlock is the size of a block of the spill's file: a partition or a
// run is written a block at a time (and buffered so), then read back so.
const spillBlock = 32 << 10

// spillFile is a partition or a run: a chain of blocks of the spill's
// file, written through w, then read back in order.
type spillFile struct {
	w      *bufio.Writer // over the chain (blockWriter)
	blocks []block
	// last is the session id of the partition's event written last (set:
	// one was written): an event of the same session is written without
	// its id (same).
	last []byte
	set  bool
}

// block is a block of a chain: where it is in the file, and how many of
// its bytes the chain holds.
type block struct {
	at int64
	n  int32
}

// same reports whether id is the id written last to f, and makes it the
// last.
func (f *spillFile) same(id []byte) bool {
	if f.set && string(f.last) == string(id) {
		return true
	}
	f.last, f.set = append(f.last[:0], id...), true
	return false
}

func newSpill(dir string) *spill {
	return &spill{dir: dir, seed: maphash.MakeSeed(), parts: make([]*spillFile, spillParts)}
}

// part returns partition p, made at its first event: a small spill makes
// a chain for each partition its sessions fall in, not for all of them.
func (sp *spill) part(p uint64) *spillFile {
	p %= spillParts
	if sp.file == nil && sp.err == nil {
		sp.err = sp.create()
	}
	if sp.parts[p] == nil && sp.err == nil {
		sp.parts[p] = sp.chain()
	}
	return sp.parts[p]
}

// chain returns a new chain of blocks, empty.
func (sp *spill) chain() *spillFile {
	f := &spillFile{}
	if n := len(sp.writers); n > 0 {
		f.w, sp.writers = sp.writers[n-1], sp.writers[:n-1]
		f.w.Reset(blockWriter{sp, f})
	} else {
		f.w = bufio.NewWriterSize(blockWriter{sp, f}, spillBlock)
	}
	return f
}

// create makes the spill's file: a temporary file without a name (Linux's
// O_TMPFILE), or one whose name is removed at once where an open file can
// lose its name (Unix), so that nothing is left behind whatever ends the
// process.
func (sp *spill) create() error {
	if f, err := createUnnamed(sp.dir); err == nil {
		sp.file, sp.removed = f, true
		return nil
	}
	f, err := os.CreateTemp(sp.dir, "ivc-spill-*")
	if err != nil {
		return fmt.Errorf("spilling sessions to disk: %w (see --tmp-dir)", err)
	}
	sp.file, sp.removed = f, os.Remove(f.Name()) == nil
	return nil
}

// close closes the spill's file and removes it.
func (sp *spill) close() error {
	sp.parts, sp.runs = nil, nil
	if sp.file == nil {
		return nil
	}
	err := sp.file.Close()
	if !sp.removed {
		os.Remove(sp.file.Name())
	}
	sp.file = nil
	return err
}

// blockWriter writes a chain's bytes to blocks of the spill's file, a
// block (or less, at a flush) a write.
type blockWriter struct {
	sp *spill
	f  *spillFile
}

func (w blockWriter) Write(p []byte) (int, error) {
	sp := w.sp
	done := 0
	for len(p) > 0 {
		var at int64
		if n := len(sp.free); n > 0 {
			at, sp.free = sp.free[n-1], sp.free[:n-1]
		} else {
			at = sp.blocks * spillBlock
			sp.blocks++
		}
		b := p[:min(len(p), spillBlock)]
		if _, err := sp.file.WriteAt(b, at); err != nil {
			sp.free = append(sp.free, at)
			return done, err
		}
		w.f.blocks = append(w.f.blocks, block{at, int32(len(b))})
		done += len(b)
		p = p[len(b):]
	}
	return done, nil
}

// blockReader reads a chain back, in order, and gives each block read to
// the spill's free blocks: a chain is read once.
type blockReader struct {
	sp     *spill
	blocks []block
	off    int32 // in blocks[0]
}

func (r *blockReader) Read(p []byte) (int, error) {
	for len(r.blocks) > 0 && r.off == r.blocks[0].n {
		r.sp.free = append(r.sp.free, r.blocks[0].at)
		r.blocks, r.off = r.blocks[1:], 0
	}
	if len(r.blocks) == 0 {
		return 0, io.EOF
	}
	b := r.blocks[0]
	n, err := r.sp.file.ReadAt(p[:min(len(p), int(b.n-r.off))], b.at+int64(r.off))
	r.off += int32(n)
	if err == io.EOF && r.off < b.n {
		err = io.ErrUnexpectedEOF // the file is shorter than its chains
	} else if err == io.EOF {
		err = nil
	}
	return n, err
}

// event writes an event of session id (tag: its key kind, or ignoredTag),
// the span span (0: none), to its partition.
func (sp *spill) event(id []byte, input int32, line, index int, tag byte, act interaction.Action, key logs.Key, span uint64) error {
	f := sp.partOf(id)
	if f == nil {
		return sp.err
	}
	sp.buf = appendEvent(sp.buf[:0], id, f.same(id), tag, input, line, index, act, key, span)
	return sp.write(f, sp.buf)
}

// spanEvent writes a span held for pairing of session id to its partition.
func (sp *spill) spanEvent(id []byte, input int32, line, index int, act interaction.Action, key logs.Key, ref *spanRef, links []uint64) error {
	f := sp.partOf(id)
	if f == nil {
		return sp.err
	}
	sp.buf = appendEvent(sp.buf[:0], id, f.same(id), byte(key.Kind)|linkFlag, input, line, index, act, key, 0)
	sp.buf = appendRef(sp.buf, ref, links)
	return sp.write(f, sp.buf)
}

// partOf returns the partition of session id (nil after an error).
func (sp *spill) partOf(id []byte) *spillFile {
	if sp.lastPart == nil || string(sp.lastID) != string(id) {
		sp.lastID = append(sp.lastID[:0], id...)
		sp.lastPart = sp.part(maphash.Bytes(sp.seed, id))
	}
	return sp.lastPart
}

// record writes rec, an event gathered in g before the spill, of session
// id, to its partition.
func (sp *spill) record(id []byte, g *gatherer, rec *record) {
	key := logs.Key{Kind: rec.kind(), Hi: rec.hi, Lo: rec.lo}
	if rec.span > 0 {
		ref := g.spans.at(rec.span - 1)
		sp.spanEvent(id, rec.input(), int(rec.line), 0, rec.act, key, ref, g.linksOf(ref))
		return
	}
	sp.event(id, rec.input(), int(rec.line), 0, rec.tag(), rec.act, key, g.spanOf(rec))
}

// tag is the tag in a spill of rec, an event not held for pairing: its
// key kind, with unpairedFlag when it is marked unpaired.
func (rec *record) tag() byte {
	if rec.meta&unpairedMark != 0 {
		return byte(rec.kind()) | unpairedFlag
	}
	return byte(rec.kind())
}

// appendRef appends the encoding of a span held for pairing (its names
// stay in the joiner's names).
func appendRef(b []byte, ref *spanRef, links []uint64) []byte {
	b = append(b, byte(ref.kind))
	b = binary.AppendUvarint(b, ref.id)
	b = binary.AppendUvarint(b, ref.self)
	b = binary.AppendUvarint(b, uint64(len(links)))
	for _, id := range links {
		b = binary.AppendUvarint(b, id)
	}
	b = binary.AppendVarint(b, int64(ref.own))
	return binary.AppendVarint(b, int64(ref.pair))
}

// header writes a session gathered before the spill to its partition: its
// first event and its counts of ignored and malformed events; its events
// follow.
func (sp *spill) header(s *sessionState) {
	f := sp.part(maphash.String(sp.seed, s.id))
	if f == nil {
		return
	}
	sp.buf = appendHeader(sp.buf[:0], s)
	f.last, f.set = append(f.last[:0], s.id...), true
	sp.write(f, sp.buf)
}

// write writes b to f; the first error sticks.
func (sp *spill) write(f *spillFile, b []byte) error {
	if sp.err != nil {
		return sp.err
	}
	if _, err := f.w.Write(b); err != nil {
		sp.err = fmt.Errorf("spilling sessions to disk: %w", err)
	}
	return sp.err
}

// appendEvent appends the encoding of an event: its session id (appendID:
// none when same, the id of the event before it in its file), its tag
// (its key kind, with unpairedFlag for a record marked unpaired, or one of
// the tags above), input, line and rank in its input, then, for an event
// in the signature, its action and key, and the id of a span not held for
// pairing (idFlag); for unpairedTag, the span's id.
func appendEvent(b, id []byte, same bool, tag byte, input int32, line, index int, act interaction.Action, key logs.Key, span uint64) []byte {
	if span != 0 && isKey(tag) {
		tag |= idFlag
	}
	if same {
		b = append(b, 0)
	} else {
		b = appendID(b, id)
	}
	b = append(b, tag)
	b = binary.AppendUvarint(b, uint64(input))
	b = binary.AppendUvarint(b, uint64(line))
	b = binary.AppendUvarint(b, uint64(index))
	switch {
	case isKey(tag):
		b = binary.AppendUvarint(b, uint64(act))
		b = appendKey(b, key)
		if span != 0 {
			b = binary.AppendUvarint(b, span)
		}
	case tag == unpairedTag:
		b = binary.AppendUvarint(b, span)
	}
	return b
}

// appendKey appends an event's order key: a time's seconds and
// nanoseconds in 8 and 4 bytes (their varints take 5 each, and decode a
// byte at a time), a seq or a line's as varints (small).
func appendKey(b []byte, key logs.Key) []byte {
	if wideKey(key.Kind) {
		b = binary.LittleEndian.AppendUint64(b, uint64(key.Hi))
		return binary.LittleEndian.AppendUint32(b, key.Lo)
	}
	b = binary.AppendVarint(b, key.Hi)
	return binary.AppendUvarint(b, uint64(key.Lo))
}

// wideKey reports whether keys of kind k are written in fixed width.
func wideKey(k logs.KeyKind) bool { return k == logs.KeyTime || k == logs.KeyNumber }

// appendHeader appends the encoding of a session's header: its id, its
// first event and its counts of ignored and malformed events.
func appendHeader(b []byte, s *sessionState) []byte {
	b = appendID(b, s.id)
	b = append(b, headerTag)
	b = binary.AppendUvarint(b, uint64(s.input))
	b = binary.AppendUvarint(b, uint64(s.line))
	b = binary.AppendUvarint(b, uint64(s.index))
	b = binary.AppendUvarint(b, uint64(s.ignored-int(s.heldIgnored))) // the held spans follow
	b = binary.AppendUvarint(b, uint64(s.dropped))
	b = binary.AppendUvarint(b, uint64(s.firstDropped))
	return binary.AppendUvarint(b, uint64(s.unpaired))
}

// rewind flushes f and returns a reader of it from its start: f is read
// once, its blocks given back as they are read.
func (sp *spill) rewind(f *spillFile) (*bufio.Reader, error) {
	if err := f.w.Flush(); err != nil {
		return nil, err
	}
	sp.writers = append(sp.writers, f.w)
	r := &blockReader{sp: sp, blocks: f.blocks}
	f.blocks, f.w = nil, nil
	if n := len(sp.readers); n > 0 {
		br := sp.readers[n-1]
		sp.readers = sp.readers[:n-1]
		br.Reset(r)
		return br, nil
	}
	return bufio.NewReaderSize(r, spillBlock), nil
}

// spilled is an event as read back from a spill file.
type spilled struct {
	id          []byte
	tag         byte
	input       int32
	line, index int
	ignored     int // headerTag: the counts of the session
	dropped     int
	firstDrop   int
	unpaired    int32
	act         interaction.Action
	key         logs.Key
	ref         spanRef  // a span held for pairing (tag&linkFlag)
	links       []uint64 // its links
	span        uint64   // the id of a span not held (tag&idFlag)
	records     int      // recordsTag: the records that follow
}

// appendID appends a session id: its length + 1, then its bytes (a 0 in
// its place is the id of the event before in the file).
func appendID[T ~string | ~[]byte](b []byte, id T) []byte {
	b = binary.AppendUvarint(b, uint64(len(id))+1)
	return append(b, id...)
}

var errSpill = errors.New("corrupt spill file")

// read reads the next event of r, of one of inputs inputs, into e; io.EOF
// at the end. Past its id, an event is decoded from the reader's buffer (a
// decoder over the bytes peeked), not a byte at a time through it: at most
// spilledMax bytes, then a span's links.
func (e *spilled) read(r *bufio.Reader, inputs int) error {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return err // io.EOF between events
	}
	if n > math.MaxInt32 {
		return errSpill
	}
	if n > 0 { // else the id of the event before
		e.id = slices.Grow(e.id[:0], int(n-1))[:n-1]
		if _, err := io.ReadFull(r, e.id); err != nil {
			return errSpill
		}
	}
	peeked, _ := r.Peek(spilledMax) // fewer at the end of the file: d fails where it is cut
	d := decoder{b: peeked}
	e.tag = d.byte()
	e.input = int32(d.uvarint(uint64(min(max(inputs, 1), maxInputs) - 1))) // its name is g.inputs[e.input]
	e.line, e.index = int(d.uvarint(math.MaxInt)), int(d.uvarint(math.MaxInt))
	switch {
	case e.tag == headerTag:
		e.ignored, e.dropped, e.firstDrop = int(d.uvarint(math.MaxInt)), int(d.uvarint(math.MaxInt)), int(d.uvarint(math.MaxInt))
		e.unpaired = int32(d.uvarint(math.MaxInt32))
	case e.tag == unpairedTag:
		e.span = d.uvarint(math.MaxUint64)
	case e.tag == recordsTag:
		e.records = int(d.uvarint(math.MaxInt32))
	case isKey(e.tag):
		e.act = interaction.Action(d.uvarint(math.MaxUint32))
		e.key.Kind = logs.KeyKind(e.tag &^ eventFlags)
		if wideKey(e.key.Kind) {
			e.key.Hi, e.key.Lo = int64(d.uint64()), d.uint32()
		} else {
			e.key.Hi = d.varint()
			e.key.Lo = uint32(d.uvarint(math.MaxUint32))
		}
		e.span = 0
		if e.tag&idFlag != 0 {
			e.span = d.uvarint(math.MaxUint64)
		}
		if e.tag&linkFlag != 0 {
			kind := d.byte()
			e.ref = spanRef{kind: logs.SpanKind(kind), id: d.uvarint(math.MaxUint64), self: d.uvarint(math.MaxUint64)}
			links := d.uvarint(math.MaxUint16)
			if d.err != nil || logs.SpanKind(kind)&^replyKind > logs.SpanConsumer {
				return errSpill
			}
			r.Discard(len(peeked) - len(d.b))
			return e.readLinks(r, int(links))
		}
	case e.tag == endTag || e.tag == ignoredTag || e.tag == droppedTag:
	default: // no tag a spill writes
		return errSpill
	}
	if d.err != nil {
		return errSpill
	}
	r.Discard(len(peeked) - len(d.b))
	return nil
}

// spilledMax is the most bytes of an event past its id but for a span's
// links: its tag, three varints of where it was read, and the most of a
// header's counts or of an action, key, span id and link header.
const spilledMax = 2 + 10*binary.MaxVarintLen64

// readLinks reads the n links of a span held for pairing, and its two
// message references: from the reader's buffer when it can hold them, else
// a varint at a time through it.
func (e *spilled) readLinks(r *bufio.Reader, n int) error {
	e.links = e.links[:0]
	need := (n + 2) * binary.MaxVarintLen64
	if need > r.Size() {
		for range n {
			id, err := binary.ReadUvarint(r)
			if err != nil {
				return errSpill
			}
			e.links = append(e.links, id)
		}
		own, err1 := binary.ReadVarint(r)
		pair, err2 := binary.ReadVarint(r)
		e.ref.own, e.ref.pair = msgRef(own), msgRef(pair)
		if err1 != nil || err2 != nil || int64(e.ref.own) != own || int64(e.ref.pair) != pair {
			return errSpill
		}
		return nil
	}
	peeked, _ := r.Peek(need)
	d := decoder{b: peeked}
	for range n {
		e.links = append(e.links, d.uvarint(math.MaxUint64))
	}
	own, pair := d.varint(), d.varint()
	e.ref.own, e.ref.pair = msgRef(own), msgRef(pair)
	if d.err != nil || int64(e.ref.own) != own || int64(e.ref.pair) != pair {
		return errSpill
	}
	r.Discard(len(peeked) - len(d.b))
	return nil
}

// put adds e to its session in g.
func (g *gatherer) put(e *spilled) { g.putAt(g.sessionAt(e.id, e.input, e.line, e.index), e) }

// putAt adds e to session si of g (not a block of records).
func (g *gatherer) putAt(si int32, e *spilled) {
	s := &g.sess[si]
	switch e.tag {
	case headerTag:
		s.ignored += e.ignored
		s.unpaired += e.unpaired
		if e.dropped > 0 {
			s.dropped, s.firstDropped = e.dropped, e.firstDrop
		}
	case ignoredTag:
		s.ignored++
	case unpairedTag:
		g.unpaired(si, e.span)
	case droppedTag:
		s.dropAt(e.line)
	default:
		if e.tag&linkFlag != 0 {
			g.putSpan(si, e.input, e.line, e.act, e.key, e.ref, e.links)
			return
		}
		s.events++
		g.events++
		meta := uint32(e.input)<<8 | uint32(e.key.Kind)
		if e.tag&unpairedFlag != 0 {
			meta |= unpairedMark // counted in its header
		}
		g.keep(si, record{hi: e.key.Hi, act: e.act, lo: e.key.Lo, line: logs.Line32(e.line), meta: meta, span: g.spanRef(s, e.span)})
	}
}

// sort gathers each partition in turn and writes its sessions, in order
// of first appearance, to a run: for each session its header, its events
// (without id) and an end.
func (sp *spill) sort(template *gatherer) error {
	if sp.err != nil {
		return sp.err
	}
	var e spilled
	g := template.empty()
	sp.lastPart = nil // the partitions become runs
	for p, part := range sp.parts {
		if part == nil { // no session fell in it
			continue
		}
		r, err := sp.rewind(part)
		if err != nil {
			return fmt.Errorf("reading spilled sessions: %w", err)
		}
		g.reset()
		for {
			err := e.read(r, len(g.inputs))
			if err == io.EOF {
				sp.readers = append(sp.readers, r)
				break
			}
			if err != nil {
				return fmt.Errorf("reading spilled sessions: %w", err)
			}
			if e.tag == recordsTag || e.tag == endTag { // runs only
				return fmt.Errorf("reading spilled sessions: %w", errSpill)
			}
			si := g.sessionAt(e.id, e.input, e.line, e.index)
			if isKey(e.tag) { // an event
				if err := g.full(&g.sess[si], e.input, e.line); err != nil {
					return err
				}
			}
			g.putAt(si, &e)
		}
		// Its run is written to the blocks it read, mostly.
		sp.parts[p] = nil
		run := sp.chain()
		sp.runs = append(sp.runs, run)
		for i := range g.sess {
			s := &g.sess[i]
			sp.buf = appendHeader(sp.buf[:0], s)
			sp.write(run, sp.buf)
			recs := g.recordsOf(int32(i))
			for len(recs) > 0 {
				if n := g.plain(recs); n > 0 {
					sp.buf = g.appendRecords(sp.buf[:0], recs[:n])
					sp.write(run, sp.buf)
					recs = recs[n:]
					continue
				}
				rec := g.recs.at(recs[0])
				recs = recs[1:]
				key := logs.Key{Kind: rec.kind(), Hi: rec.hi, Lo: rec.lo}
				if rec.span > 0 {
					sp.buf = appendEvent(sp.buf[:0], nil, false, byte(rec.kind())|linkFlag, rec.input(), int(rec.line), 0, rec.act, key, 0)
					ref := g.spans.at(rec.span - 1)
					sp.buf = appendRef(sp.buf, ref, g.linksOf(ref))
				} else {
					sp.buf = appendEvent(sp.buf[:0], nil, false, rec.tag(), rec.input(), int(rec.line), 0, rec.act, key, g.spanOf(rec))
				}
				sp.write(run, sp.buf)
			}
			sp.buf = appendEvent(sp.buf[:0], nil, false, endTag, 0, 0, 0, 0, logs.Key{}, 0)
			sp.write(run, sp.buf)
		}
		if sp.err != nil {
			return sp.err
		}
	}
	return nil
}

// runRecordBytes is the size of a record in a run's block of records:
// its key, action, line and meta (appendRecords).
const runRecordBytes = 24

// runRecords is the most records of a block of a run: a block is read
// from the reader's buffer at once.
const runRecords = spillBlock / 2 / runRecordBytes

// plain returns how many of the records recs, from the first, are no
// spans (at most runRecords): a block of a run.
func (g *gatherer) plain(recs []int32) int {
	n := 0
	for n < len(recs) && n < runRecords && g.recs.at(recs[n]).span == 0 {
		n++
	}
	return n
}

// appendRecords appends a block of records that are no spans, each as
// it is held: in a run, merge keeps them as they come.
func (g *gatherer) appendRecords(b []byte, recs []int32) []byte {
	b = appendEvent(b, nil, false, recordsTag, 0, 0, 0, 0, logs.Key{}, 0)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, ri := range recs {
		rec := g.recs.at(ri)
		b = binary.LittleEndian.AppendUint64(b, uint64(rec.hi))
		b = binary.LittleEndian.AppendUint32(b, uint32(rec.act))
		b = binary.LittleEndian.AppendUint32(b, rec.lo)
		b = binary.LittleEndian.AppendUint32(b, rec.line)
		b = binary.LittleEndian.AppendUint32(b, rec.meta)
	}
	return b
}

// readRecords reads a block of n records of session si from a run
// (appendRecords), from r's buffer.
func (g *gatherer) readRecords(r *bufio.Reader, si int32, n int) error {
	if n > runRecords {
		return errSpill
	}
	b, err := r.Peek(n * runRecordBytes)
	if err != nil {
		return errSpill
	}
	var most uint32 // the largest meta: its input is the last the block names
	for len(b) >= runRecordBytes {
		rec := record{hi: int64(binary.LittleEndian.Uint64(b)), act: interaction.Action(binary.LittleEndian.Uint32(b[8:])),
			lo: binary.LittleEndian.Uint32(b[12:]), line: binary.LittleEndian.Uint32(b[16:]), meta: binary.LittleEndian.Uint32(b[20:])}
		most = max(most, rec.meta)
		g.keep(si, rec)
		b = b[runRecordBytes:]
	}
	if int(most>>8) >= len(g.inputs) {
		return errSpill // the merge ends: its session is not handed out
	}
	g.sess[si].events += n
	g.events += n
	r.Discard(n * runRecordBytes)
	return nil
}

// cursor is a run being merged: the header of its next session.
type cursor struct {
	r    *bufio.Reader
	head spilled
}

type cursors []*cursor

func (c cursors) Len() int { return len(c) }
func (c cursors) Less(i, j int) bool {
	x, y := &c[i].head, &c[j].head
	return x.input < y.input || x.input == y.input && x.index < y.index
}
func (c cursors) Swap(i, j int) { c[i], c[j] = c[j], c[i] }
func (c *cursors) Push(x any)   { *c = append(*c, x.(*cursor)) }
func (c *cursors) Pop() any {
	old := *c
	x := old[len(old)-1]
	*c = old[:len(old)-1]
	return x
}

// merge hands out the sessions of the runs in order of first appearance
// (the order of the run, as the runs are each in that order), each built
// by build.
func (sp *spill) merge(template *gatherer, build func(*gatherer, int32) Session, yield func(Session, error) bool) {
	fail := func(err error) { yield(Session{}, fmt.Errorf("reading spilled sessions: %w", err)) }
	var h cursors
	for _, run := range sp.runs {
		r, err := sp.rewind(run)
		if err != nil {
			fail(err)
			return
		}
		c := &cursor{r: r}
		switch err := c.head.read(r, len(template.inputs)); {
		case err == io.EOF:
			continue
		case err != nil:
			fail(err)
			return
		}
		h = append(h, c)
	}
	heap.Init(&h)
	var e spilled
	g := template.empty()
	for len(h) > 0 {
		c := h[0]
		g.reset()
		g.put(&c.head) // session 0
		for {
			err := e.read(c.r, len(g.inputs))
			if err == nil && e.tag == endTag {
				break
			}
			switch {
			case err != nil:
			case e.tag == recordsTag:
				err = g.readRecords(c.r, 0, e.records)
			case e.tag == headerTag: // a session's header only begins it
				err = errSpill
			default:
				g.putAt(0, &e)
			}
			if err != nil {
				fail(err)
				return
			}
		}
		if !yield(build(g, 0), nil) {
			return
		}
		switch err := c.head.read(c.r, len(g.inputs)); {
		case err == io.EOF:
			heap.Pop(&h)
		case err != nil:
			fail(err)
			return
		default:
			heap.Fix(&h, 0)
		}
	}
}
