package logs

import (
	"encoding/hex"
	"testing"
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
// last span held with both, also among spans whose keys are the same (trace
// ids that differ only before their last 16 digits), and across chunks.
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
	all := func(*heldSpan) bool { return true }
	for i := range held.len() {
		s := held.at(i)
		if s.spanID.none() {
			continue // not indexed, nor looked for
		}
		want := -1
		for j := range held.len() {
			if p := held.at(j); p.trace == s.trace && p.spanID == s.spanID && isEmission(p) {
				want = j
			}
		}
		if got := x.find(&held, s.trace, s.spanID, isEmission); got != want {
			t.Fatalf("span %d (%s, %v): found %d, want %d", i, s.trace, s.spanID, got, want)
		}
		if got := x.find(&held, s.trace, s.spanID, all); got < i || held.at(got).spanID != s.spanID || held.at(got).trace != s.trace {
			t.Fatalf("span %d: found %d, not the last with its ids", i, got)
		}
	}
	if got := x.find(&held, traces[0], otlpRef([8]byte{7: 9}), all); got != -1 {
		t.Errorf("an id not held: found %d", got)
	}
}
