package interaction

import (
	"iter"
	"math/bits"

	"github.com/ivc-project/ivc/syntax"
)

// Lifelines is an immutable set of lifelines: a bitset stored in a string so
// that it is comparable, usable as a map key and cheap to share. Trailing zero
// bytes are trimmed, so equal sets are equal strings. The zero value is the
// empty set.
type Lifelines string

// LifelinesOf returns the set of the given lifelines.
func LifelinesOf(ls ...LifelineID) Lifelines {
	var b []byte
	for _, l := range ls {
		i := int(l >> 3)
		for len(b) <= i {
			b = append(b, 0)
		}
		b[i] |= 1 << (l & 7)
	}
	return trimmed(b)
}

func trimmed(b []byte) Lifelines {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return Lifelines(b)
}

// byteSets holds every byte value once, in order: byteSet slices it.
var byteSets = func() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// byteSet returns the set of lifelines 0 to 7 whose bits are b, without
// allocating: most interactions have at most 8 lifelines.
func byteSet(b byte) Lifelines {
	if b == 0 {
		return ""
	}
	return Lifelines(byteSets[b : int(b)+1])
}

// Has reports whether l is in the set.
func (s Lifelines) Has(l LifelineID) bool {
	i := int(l >> 3)
	return i < len(s) && s[i]&(1<<(l&7)) != 0
}

// IsEmpty reports whether the set is empty.
func (s Lifelines) IsEmpty() bool { return len(s) == 0 }

// Len returns the number of lifelines in the set.
func (s Lifelines) Len() int {
	n := 0
	for i := 0; i < len(s); i++ {
		n += bits.OnesCount8(s[i])
	}
	return n
}

// Add returns s ∪ {l}.
func (s Lifelines) Add(l LifelineID) Lifelines {
	if s.Has(l) {
		return s
	}
	return s.Union(LifelinesOf(l))
}

// Union returns s ∪ t.
func (s Lifelines) Union(t Lifelines) Lifelines {
	if len(s) < len(t) {
		s, t = t, s
	}
	if t == "" || s == t {
		return s
	}
	if len(s) == 1 {
		return byteSet(s[0] | t[0])
	}
	b := []byte(s)
	for i := 0; i < len(t); i++ {
		b[i] |= t[i]
	}
	return Lifelines(b)
}

// Intersect returns s ∩ t.
func (s Lifelines) Intersect(t Lifelines) Lifelines {
	if min(len(s), len(t)) == 1 {
		return byteSet(s[0] & t[0])
	}
	n := min(len(s), len(t))
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		b[i] = s[i] & t[i]
	}
	return trimmed(b)
}

// Minus returns s \ t.
func (s Lifelines) Minus(t Lifelines) Lifelines {
	if !s.Meets(t) {
		return s
	}
	if len(s) == 1 {
		return byteSet(s[0] &^ t[0])
	}
	b := []byte(s)
	for i := 0; i < len(t) && i < len(b); i++ {
		b[i] &^= t[i]
	}
	return trimmed(b)
}

// Meets reports whether s ∩ t ≠ ∅.
func (s Lifelines) Meets(t Lifelines) bool {
	n := min(len(s), len(t))
	for i := 0; i < n; i++ {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

// SubsetOf reports whether s ⊆ t.
func (s Lifelines) SubsetOf(t Lifelines) bool {
	if len(s) > len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]&^t[i] != 0 {
			return false
		}
	}
	return true
}

// All iterates over the lifelines of the set in increasing order.
func (s Lifelines) All() iter.Seq[LifelineID] {
	return func(yield func(LifelineID) bool) {
		for i := 0; i < len(s); i++ {
			w := s[i]
			for w != 0 {
				j := bits.TrailingZeros8(w)
				if !yield(LifelineID(i*8 + j)) {
					return
				}
				w &^= 1 << j
			}
		}
	}
}

// Slice returns the lifelines of the set in increasing order.
func (s Lifelines) Slice() []LifelineID {
	var out []LifelineID
	for l := range s.All() {
		out = append(out, l)
	}
	return out
}

// Format returns the names of the set's lifelines as "a,b,c" (each quoted
// when it is not an identifier, as a .htf writes it).
func (s Lifelines) Format(sig *Signature) string {
	var b []byte
	for l := range s.All() {
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = syntax.AppendName(b, sig.Lifelines[l])
	}
	return string(b)
}
