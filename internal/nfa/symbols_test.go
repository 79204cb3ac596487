package nfa

import (
	"strconv"
	"testing"
)

// TestSymbolsLookup interns names past the size from which a table has an
// index, and looks every name up at every size.
func TestSymbolsLookup(t *testing.T) {
	names := []string{"", "a", "b", "ab", "ba"}
	for i := range 3 * smallSymbols {
		names = append(names, "x"+strconv.Itoa(i))
	}
	s := NewSymbols()
	for k, name := range names {
		if x := s.intern(name); int(x) != k {
			t.Fatalf("intern(%q) = %d, want %d", name, x, k)
		}
		if x := s.intern(name); int(x) != k {
			t.Fatalf("intern(%q) again = %d, want %d", name, x, k)
		}
		for j, n := range names {
			x, ok := s.Lookup(n)
			if ok != (j <= k) || ok && int(x) != j {
				t.Fatalf("with %d names: Lookup(%q) = %d, %v", k+1, n, x, ok)
			}
		}
	}
}
