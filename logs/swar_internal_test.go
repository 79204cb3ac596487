package logs

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestStopAt compares quoteAt, strictStopAt and plainString with loops of
// one byte at a time on random strings of the bytes that matter, from
// every start.
func TestStopAt(t *testing.T) {
	alphabet := []byte{'"', '\\', 0, 0x1f, 0x20, 0x21, 'a', 0x7f, 0x80, 0xff, 0x22 + 0x80, 0x5c + 0x80}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[i] = 'a' + byte(rng.IntN(26))
			}
		}
		for j := 0; j <= len(b); j++ {
			wantQ, wantS, wantC := len(b), len(b), len(b)
			for k := len(b) - 1; k >= j; k-- {
				switch c := b[k]; {
				case c == '"':
					wantQ, wantS, wantC = k, k, k
				case c == '\\':
					wantS, wantC = k, k
				case c < 0x20:
					wantC = k
				}
			}
			if got := quoteAt(b, j); got != wantQ {
				t.Fatalf("quoteAt(%q, %d) = %d, want %d", b, j, got, wantQ)
			}
			if k, next, ok := plainString(b, j); ok != (wantS < len(b) && b[wantS] == '"') || ok && (string(k) != string(b[j:wantS]) || next != wantS+1) {
				t.Fatalf("plainString(%q, %d) = %q, %d, %v; the first quote or backslash at %d", b, j, k, next, ok, wantS)
			}
			if got := strictStopAt(b, j); got != wantC {
				t.Fatalf("strictStopAt(%q, %d) = %d, want %d", b, j, got, wantC)
			}
		}
	}
}

// TestDecimal compares decimal with strconv on random strings of digits
// and other bytes, of every length up to 21.
func TestDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		b := make([]byte, rng.IntN(22))
		for i := range b {
			b[i] = '0' + byte(rng.IntN(10))
			if rng.IntN(40) == 0 {
				b[i] = byte(rng.IntN(256))
			}
		}
		max := 19
		if rng.IntN(2) == 0 {
			max = 9
		}
		got, ok := decimal(b, max)
		want, err := strconv.ParseUint(string(b), 10, 64)
		wantOK := err == nil && len(b) <= max && !bytes.ContainsAny(b, "+-_")
		if ok != wantOK || ok && got != want {
			t.Fatalf("decimal(%q, %d) = %d, %v; want %d, %v", b, max, got, ok, want, wantOK)
		}
	}
}
