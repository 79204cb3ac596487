package nfa

import (
	"math/bits"
	"strconv"
	"strings"
)

// Bits is a bitset: bit k of the set is bit k&63 of word k>>6. Areas are
// Bits over the transitions of an automaton, subset states Bits over its
// states.
type Bits []uint64

// words returns the number of words of a bitset of n bits.
func nwords(n int) int { return (n + 63) >> 6 }

// Has reports whether k is in s.
func (s Bits) Has(k int) bool { return s[k>>6]&(1<<(k&63)) != 0 }

func (s Bits) set(k int) { s[k>>6] |= 1 << (k & 63) }

// Len returns the number of elements of s.
func (s Bits) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// IsEmpty reports whether s has no element.
func (s Bits) IsEmpty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// Elems returns the elements of s in increasing order.
func (s Bits) Elems() []int {
	var out []int
	for i, w := range s {
		for w != 0 {
			out = append(out, i<<6+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return out
}

// String returns the elements as "{0,3,7}".
func (s Bits) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range s.Elems() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(k))
	}
	b.WriteByte('}')
	return b.String()
}

func orInto(dst, src Bits) {
	for i, w := range src {
		dst[i] |= w
	}
}

func andInto(dst, src Bits) {
	for i, w := range src {
		dst[i] &= w
	}
}

// FormatSub returns the transitions of a in sub (a sub-automaton, such as
// an area), in the dump form of NFA.String: "0-b->1 1-d->4".
func (a *NFA) FormatSub(sub Bits) string {
	var b strings.Builder
	for _, k := range sub.Elems() {
		if k >= len(a.trans) {
			break
		}
		t := a.trans[k]
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(t.Src)) + "-" + a.syms.names[t.Sym] + "->" + strconv.Itoa(int(t.Dst)))
	}
	return b.String()
}
