package logs

import (
	"encoding/binary"
	"math/bits"
)

// The strings of JSON text are searched 8 bytes at a time (a word): the
// strings of a log line or an OTLP document (keys, ids, names, numbers) are
// too short for bytes.IndexByte's vector loop to pay for its call, and
// long enough for a loop of one byte at a time to cost (a trace id is 32
// bytes).

const ones, highs = 0x0101010101010101, 0x8080808080808080

// zeros marks the zero bytes of w by their high bits; the lowest mark is
// exact (a borrow only marks bytes above a zero byte).
func zeros(w uint64) uint64 { return (w - ones) &^ w & highs }

// controls marks the bytes of w below 0x20 as zeros does.
func controls(w uint64) uint64 { return (w - ones*0x20) &^ w & highs }

// quoteAt returns the index of the first quote of b from j, len(b) when
// there is none.
func quoteAt(b []byte, j int) int {
	for ; j+8 <= len(b); j += 8 {
		if m := zeros(binary.LittleEndian.Uint64(b[j:]) ^ (ones * '"')); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
	}
	for ; j < len(b) && b[j] != '"'; j++ {
	}
	return j
}

// strictStopAt returns the index of the first byte of b from j that is a
// quote, a backslash or a control character (below 0x20, which a string
// of strict JSON does not hold): where a plain string stops. It returns
// len(b) when there is none.
func strictStopAt(b []byte, j int) int {
	for ; j+8 <= len(b); j += 8 {
		w := binary.LittleEndian.Uint64(b[j:])
		if m := zeros(w^(ones*'"')) | zeros(w^(ones*'\\')) | controls(w); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
	}
	for ; j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20; j++ {
	}
	return j
}
