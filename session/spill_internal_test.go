package session

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// TestSpilledRead: the events a spill file holds (headers, events of each
// key kind, with and without a span id, marked unpaired, ignored,
// malformed, the ids of spans left unpaired, ends, spans held for pairing
// with no link, a few, and more than the reader's buffer holds) are read
// back as written; an encoding cut anywhere is an error
// (never an event), and the reading stops at the end between events.
func TestSpilledRead(t *testing.T) {
	type want struct {
		id          string
		tag         byte
		input       int32
		line, index int
		counts      [4]int
		act         interaction.Action
		key         logs.Key
		span        uint64
		ref         spanRef
		links       []uint64
	}
	many := make([]uint64, 5000) // past the 32 KiB of the reader's buffer
	for i := range many {
		many[i] = math.MaxUint64 - uint64(i)
	}
	ws := []want{
		{id: "s1", tag: headerTag, input: 3, line: math.MaxInt, index: 7, counts: [4]int{2, 1, 9, math.MaxInt32}},
		{id: "s1", tag: byte(logs.KeyTime), input: 3, line: 12, index: 8, act: 42, key: logs.Key{Kind: logs.KeyTime, Hi: -1 << 62, Lo: 999}},
		{id: "s1", tag: byte(logs.KeyNumber), input: 3, line: 13, index: 9, act: 43, key: logs.Key{Kind: logs.KeyNumber, Hi: math.MinInt64, Lo: math.MaxUint32}},
		{id: "", tag: byte(logs.KeySeq) | idFlag, act: math.MaxUint32, key: logs.Key{Kind: logs.KeySeq, Hi: math.MaxInt64, Lo: math.MaxUint32}, span: math.MaxUint64},
		{id: "s2", tag: ignoredTag, input: maxInputs - 1, line: 5, index: 1}, // the last input there may be
		{id: "s2", tag: droppedTag, line: 6, index: 2},
		{id: "s2", tag: unpairedTag, line: 7, index: 3, span: math.MaxUint64},
		{id: "s2", tag: byte(logs.KeyTime) | idFlag | unpairedFlag, line: 8, index: 4, act: 1, key: logs.Key{Kind: logs.KeyTime, Hi: 3}, span: 9}, // marked unpaired
		{tag: endTag},
		{tag: recordsTag, counts: [4]int{runRecords}}, // a block of records (which follow it in a run)
		{id: "s3", tag: byte(logs.KeyTime) | linkFlag, line: 1, act: 7, key: logs.Key{Kind: logs.KeyTime, Hi: 5},
			ref: spanRef{kind: logs.SpanServer, id: 11, self: 12, own: unnamed, pair: math.MaxInt32}},
		{id: "s3", tag: byte(logs.KeyTime) | linkFlag, line: 2, act: 8, key: logs.Key{Kind: logs.KeyTime, Hi: 6},
			ref: spanRef{kind: logs.SpanConsumer | replyKind, id: 13, self: 14, own: 3, pair: -4}, links: []uint64{1, 1 << 40, math.MaxUint64}},
		{id: "s4", tag: byte(logs.KeyLine) | linkFlag, line: 3, act: 9, key: logs.Key{Kind: logs.KeyLine},
			ref: spanRef{kind: logs.SpanConsumer, id: 15, self: 16, own: 1, pair: 2}, links: many},
	}
	var data []byte
	var ends []int // where each event ends
	for i, w := range ws {
		same := i > 0 && ws[i-1].id == w.id // written without its id
		switch {
		case w.tag == headerTag:
			s := sessionState{id: w.id, input: w.input, line: w.line, index: w.index, ignored: w.counts[0], dropped: w.counts[1], firstDropped: w.counts[2], unpaired: int32(w.counts[3])}
			data = appendHeader(data, &s)
		case w.tag == recordsTag:
			data = appendEvent(data, nil, false, recordsTag, 0, 0, 0, 0, logs.Key{}, 0)
			data = binary.AppendUvarint(data, uint64(w.counts[0]))
		case w.tag&linkFlag != 0 && isKey(w.tag):
			data = appendEvent(data, []byte(w.id), same, w.tag, w.input, w.line, w.index, w.act, w.key, 0)
			data = appendRef(data, &w.ref, w.links)
		default:
			data = appendEvent(data, []byte(w.id), same, w.tag, w.input, w.line, w.index, w.act, w.key, w.span)
		}
		ends = append(ends, len(data))
	}
	read := func(data []byte) ([]want, error) {
		r := bufio.NewReaderSize(bytes.NewReader(data), 32<<10)
		var got []want
		var e spilled
		for {
			if err := e.read(r, maxInputs); err != nil {
				return got, err
			}
			w := want{id: string(e.id), tag: e.tag, input: e.input, line: e.line, index: e.index}
			switch {
			case e.tag == headerTag:
				w.counts = [4]int{e.ignored, e.dropped, e.firstDrop, int(e.unpaired)}
			case e.tag == unpairedTag:
				w.span = e.span
			case e.tag == recordsTag:
				w.counts[0] = e.records
			case isKey(e.tag):
				w.act, w.key, w.span = e.act, e.key, e.span
				if e.tag&linkFlag != 0 {
					w.ref = e.ref
					if len(e.links) > 0 {
						w.links = append([]uint64(nil), e.links...)
					}
				}
			}
			got = append(got, w)
		}
	}
	got, err := read(data)
	if err != io.EOF {
		t.Fatalf("read to the end: %v", err)
	}
	if len(got) != len(ws) {
		t.Fatalf("%d events read back, want %d", len(got), len(ws))
	}
	for i := range ws {
		if g, w := fmt.Sprint(got[i]), fmt.Sprint(ws[i]); g != w {
			t.Fatalf("event %d read back as\n%.300s\nwant\n%.300s", i, g, w)
		}
	}
	// Cut anywhere (within the last event's links, at every 97th byte):
	// the events before the cut, then io.EOF at an event's end, errSpill
	// elsewhere.
	for cut := 0; cut < len(data); cut++ {
		if last := ends[len(ends)-2]; cut > last+64 && cut < len(data)-64 && cut%97 != 0 {
			continue
		}
		got, err := read(data[:cut])
		whole := 0
		for whole < len(ends) && ends[whole] <= cut {
			whole++
		}
		atEnd := cut == 0 || whole > 0 && ends[whole-1] == cut
		if len(got) != whole || atEnd && err != io.EOF || !atEnd && !errors.Is(err, errSpill) {
			t.Fatalf("cut at %d: %d events, %v; want %d, EOF %v", cut, len(got), err, whole, atEnd)
		}
	}
}

// BenchmarkSpilledRead reads back events as a run holds them (no ids,
// times as keys, lines in the millions): the decoding of a spill.
func BenchmarkSpilledRead(b *testing.B) {
	var data []byte
	const n = 10000
	for i := range n {
		data = appendEvent(data, nil, false, byte(logs.KeyTime), int32(i%20), 1_000_000+i*7, 0, interaction.Action(i%40),
			logs.Key{Kind: logs.KeyTime, Hi: 1_700_000_000 + int64(i/100), Lo: uint32(i * 123_457 % 1_000_000_000)}, 0)
	}
	b.SetBytes(int64(len(data)))
	var e spilled
	br := bufio.NewReaderSize(nil, 32<<10)
	for b.Loop() {
		br.Reset(bytes.NewReader(data))
		for range n {
			if err := e.read(br, 20); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/event")
}

// TestSpillBlocks checks the chains of blocks of a spill's one file: two
// chains written in turns, in pieces of every size (more than a block in
// one write too), read back each as written; the blocks read are written
// again by the next chain, the file growing only past them.
func TestSpillBlocks(t *testing.T) {
	sp := newSpill(t.TempDir())
	if err := sp.create(); err != nil {
		t.Fatal(err)
	}
	defer sp.close()
	r := rand.New(rand.NewPCG(3, 4))
	a, b := sp.chain(), sp.chain()
	var wantA, wantB []byte
	for i := range 400 {
		n := r.IntN(300)
		if i%50 == 0 {
			n = spillBlock + r.IntN(3*spillBlock) // past the writer's buffer: written directly
		}
		p := make([]byte, n)
		for k := range p {
			p[k] = byte(r.Uint32())
		}
		f, want := a, &wantA
		if r.IntN(2) == 0 {
			f, want = b, &wantB
		}
		if _, err := f.w.Write(p); err != nil {
			t.Fatal(err)
		}
		*want = append(*want, p...)
	}
	readBack := func(name string, f *spillFile, want []byte) {
		t.Helper()
		br, err := sp.rewind(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(br)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("chain %s: %d bytes read back (%v), want the %d written", name, len(got), err, len(want))
		}
	}
	readBack("a", a, wantA)
	blocks := sp.blocks
	if min := int64(len(wantA)+len(wantB)) / spillBlock; blocks < min {
		t.Fatalf("%d blocks in the file for %d bytes", blocks, len(wantA)+len(wantB))
	}
	// c, written after a is read, takes a's blocks: no more than a's bytes
	// in full blocks.
	c := sp.chain()
	wantC := wantA[:len(wantA)/spillBlock*spillBlock]
	if _, err := c.w.Write(wantC); err != nil {
		t.Fatal(err)
	}
	readBack("b", b, wantB)
	readBack("c", c, wantC)
	if sp.blocks != blocks {
		t.Errorf("the file grew from %d to %d blocks for a chain written into the blocks read", blocks, sp.blocks)
	}
}

// TestSpilledReadInputs: an event of an input past those of the spill's
// joiner is an error, not an index out of the joiner's inputs, as are a
// run's records of one.
func TestSpilledReadInputs(t *testing.T) {
	data := appendEvent(nil, []byte("s"), false, byte(logs.KeyTime), 2, 1, 0, 1, logs.Key{Kind: logs.KeyTime}, 0)
	var e spilled
	if err := e.read(bufio.NewReader(bytes.NewReader(data)), 3); err != nil || e.input != 2 {
		t.Fatalf("input 2 of 3: %v, input %d", err, e.input)
	}
	if err := e.read(bufio.NewReader(bytes.NewReader(data)), 2); err != errSpill {
		t.Fatalf("input 2 of 2: %v, want errSpill", err)
	}
	g := &gatherer{inputs: []string{"a", "b"}, ids: newSessionIndex()}
	g.sessionAt([]byte("s"), 0, 1, 0)
	for _, c := range []struct {
		input int32
		err   error
	}{{1, nil}, {2, errSpill}} {
		r := &gatherer{recs: records{}}
		r.recs.add(record{act: 1, meta: uint32(c.input)<<8 | uint32(logs.KeyTime)})
		block := r.appendRecords(nil, []int32{0})
		br := bufio.NewReader(bytes.NewReader(block))
		if err := e.read(br, len(g.inputs)); err != nil || e.tag != recordsTag {
			t.Fatalf("a block's header: %v, tag %#x", err, e.tag)
		}
		if err := g.readRecords(br, 0, e.records); err != c.err {
			t.Errorf("a record of input %d of 2: %v, want %v", c.input, err, c.err)
		}
	}
}

// TestSpilledReadTags: a tag no spill writes (past the key kinds and their
// flags) is an error, not an event.
func TestSpilledReadTags(t *testing.T) {
	for tag := 0x80; tag < 0x100; tag++ {
		data := appendEvent(nil, []byte("s"), false, byte(tag), 0, 0, 0, 0, logs.Key{}, 0)
		data = append(data, make([]byte, 16)...) // room for any field of a tag read
		var e spilled
		err := e.read(bufio.NewReader(bytes.NewReader(data)), 1)
		switch byte(tag) {
		case headerTag, endTag, ignoredTag, droppedTag, unpairedTag, recordsTag:
			if err != nil {
				t.Errorf("tag %#x: %v", tag, err)
			}
		default:
			if err != errSpill {
				t.Errorf("tag %#x: %v, want errSpill", tag, err)
			}
		}
	}
}
