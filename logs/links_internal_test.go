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
