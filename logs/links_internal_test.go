package logs

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// TestSpanRef: an OTLP span id held as its number is the id its hex
// names, to consumers (Num: spanNum of the hex) and in messages (String),
// and the empty id is none, as "" is.
func TestSpanRef(t *testing.T) {
	for _, id := range [][8]byte{
		{0, 0, 0, 0, 0, 0, 0, 1},
		{0x80},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x60, 0x71},
	} {
		r, h := otlpRef(id), hex.EncodeToString(id[:])
		if r.none() || r.Num() != spanNum(h) || r.String() != h {
			t.Errorf("%x: none %v, Num %x, String %q; want Num %x, String %q", id, r.none(), r.Num(), r.String(), spanNum(h), h)
		}
		if r == (spanRef{hex: h}) || r != otlpRef(id) {
			t.Errorf("%x: refs of the two forms are equal, or one id's refs differ", id)
		}
	}
	if r := otlpRef([8]byte{}); !r.none() || r.Num() != 0 || r.String() != "" {
		t.Errorf("the empty id: none %v, Num %x, String %q", r.none(), r.Num(), r.String())
	}
	if r := (spanRef{hex: "span-1"}); r.none() || r.Num() != spanNum("span-1") || r.String() != "span-1" {
		t.Errorf("a Jaeger id: Num %x, String %q", r.Num(), r.String())
	}
}

// TestSpanIndex: the index of held spans finds, by trace and span id, the
// last emission, or the last SERVER span not its own parent, held with both
// (the others held with them are shadowed), also among trace ids that
// differ only before their last 16 digits, and across chunks.
func TestSpanIndex(t *testing.T) {
	const suffix = "00000000000000aa"
	traces := []string{"1111111111111111" + suffix, "2222222222222222" + suffix, "short"}
	var held heldSpans
	for i := range 3 * heldChunk {
		tr := traces[i%len(traces)]
		id := otlpRef([8]byte{7: byte(i % 5)})
		if i%2 == 1 {
			id = spanRef{hex: string(rune('a' + i%5))}
		}
		held.add(heldSpan{trace: tr, spanID: id, kind: SpanKind(i % 4)})
	}
	var x spanIndex
	x.build(&held)
	x.build(&held) // again, into the room of the first
	for i := range held.len() {
		s := held.at(i)
		if s.spanID.none() {
			continue // not indexed, nor looked for
		}
		for _, server := range []bool{false, true} {
			want := -1
			for j := range held.len() {
				if p := held.at(j); p.trace == s.trace && p.spanID == s.spanID && (server && isServer(p) || !server && isEmission(p)) {
					want = j
				}
			}
			if got := x.find(&held, s.trace, s.spanID, server); got != want {
				t.Fatalf("span %d (%s, %v), server %v: found %d, want %d", i, s.trace, s.spanID, server, got, want)
			}
			if indexed := server && isServer(s) || !server && isEmission(s); indexed && x.shadowed[i] != (want != i) {
				t.Fatalf("span %d (%s, %v): shadowed %v, but the last held with its ids is %d", i, s.trace, s.spanID, x.shadowed[i], want)
			}
		}
	}
	if got := x.find(&held, traces[0], otlpRef([8]byte{7: 9}), false); got != -1 {
		t.Errorf("an id not held: found %d", got)
	}
}

// TestSpanIndexChains: a file cannot make a lookup walk a long chain: the
// spans of one key are of one class (a CLIENT span is not chained behind
// the SERVER spans that share its ids, as Zipkin's do), spans of neither
// class are not indexed, and trace ids that share their last digits do
// not share keys.
func TestSpanIndexChains(t *testing.T) {
	const n = 4096
	id := otlpRef([8]byte{7: 1})
	var held heldSpans
	held.add(heldSpan{trace: "t", spanID: id, kind: SpanClient})
	for range n {
		held.add(heldSpan{trace: "t", spanID: id, parent: otlpRef([8]byte{7: 2}), kind: SpanServer})
		held.add(heldSpan{trace: "t", spanID: id, kind: SpanConsumer})
	}
	for i := range n {
		held.add(heldSpan{trace: fmt.Sprintf("%016x%016x", i, 0xaa), spanID: id, kind: SpanClient})
	}
	var x spanIndex
	x.build(&held)
	longest, keys := 0, 0
	for _, e := range x.slots {
		if e == 0 {
			continue
		}
		keys++
		k := 0
		for j := int32(uint32(e)) - 1; j >= 0; j = x.next[j] {
			k++
		}
		longest = max(longest, k)
	}
	if longest != n || keys != n+2 {
		t.Errorf("longest chain %d, %d keys; want the SERVER spans alone in the longest chain (%d), %d keys", longest, keys, n, n+2)
	}
	if got := x.find(&held, "t", id, false); got != 0 {
		t.Errorf("the CLIENT span: found %d, want 0", got)
	}
}

// TestSpanIndexProbes: span ids that differ in their high bits alone (as
// a file may choose them) are spread over the index's table: no run of
// full slots is long, and each is found.
func TestSpanIndexProbes(t *testing.T) {
	const n = 1 << 14
	var held heldSpans
	for i := range n {
		held.add(heldSpan{trace: "t", spanID: otlpRef([8]byte{0: byte(i >> 8), 1: byte(i), 7: 1}), kind: SpanClient})
	}
	var x spanIndex
	x.build(&held)
	run, longest := 0, 0
	for _, e := range append(x.slots, x.slots...) { // runs wrap around
		if e == 0 {
			run = 0
			continue
		}
		run++
		longest = max(longest, min(run, len(x.slots)))
	}
	if longest > 64 {
		t.Errorf("a run of %d full slots among %d", longest, len(x.slots))
	}
	for i := range n {
		if got := x.find(&held, "t", held.at(i).spanID, false); got != i {
			t.Fatalf("span %d: found %d", i, got)
		}
	}
}

// BenchmarkSpanIndexBuild indexes the spans of a large OTLP file, as flush
// does once the file is read: 300,000 spans of 10,000 traces (30 a trace,
// as the slice paper's i0 sessions, each trace's spans spread over the
// file among those of 32 others), a CLIENT and a SERVER span by call. The
// table (a megaslot) is larger than the caches.
func BenchmarkSpanIndexBuild(b *testing.B) {
	const spans, perTrace, window = 300000, 30, 32
	rng := rand.New(rand.NewPCG(1, 2))
	traces := make([]string, spans/perTrace)
	for i := range traces {
		traces[i] = fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64())
	}
	var held heldSpans
	for i := range spans {
		// Traces under way 32 at a time: span i is of one of the 32
		// traces about its place in the file.
		t := min(len(traces)-1, i/perTrace+rng.IntN(window)-window/2)
		kind := SpanClient
		if i%2 == 1 {
			kind = SpanServer
		}
		held.add(heldSpan{trace: traces[max(t, 0)], spanID: otlpRef([8]byte(binary.BigEndian.AppendUint64(nil, rng.Uint64()))),
			parent: otlpRef([8]byte(binary.BigEndian.AppendUint64(nil, rng.Uint64()))), kind: kind})
	}
	var x spanIndex
	x.build(&held)
	var cpu testutil.CPUClock
	for b.Loop() {
		cpu.Start()
		x.build(&held)
		cpu.Stop()
	}
	cpu.Report(b, spans*b.N, "span")
}
