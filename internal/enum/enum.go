// Package enum maps the values of a small enumeration to their names, and
// names back to values, with one table, so that a type's String and its
// parser read the same names:
//
//	var modeNames = enum.New("Mode", map[Mode]string{Prefix: "prefix", Accept: "accept", Slice: "slice"})
//
//	func (m Mode) String() string { return modeNames.Name(m) }
//
//	func ParseMode(s string) (Mode, error) {
//		if m, ok := modeNames.Value(s); ok {
//			return m, nil
//		}
//		return 0, fmt.Errorf("unknown mode %q (expected accept, prefix or slice)", s)
//	}
//
// It is for the enumerations whose names stringer (golang.org/x/tools/cmd/
// stringer, which verdict.Verdict uses) cannot give: names that are not
// the constants' identifiers, as flags, JSON and file formats spell them
// ("prefix", "swap-act", "analysis_kind"), or another word ("MemoryLimit"
// for verdict.Memory, "" for verdict.NoReason).
package enum

import "fmt"

// Names are the names of the values of an enumeration E.
type Names[E ~uint8] struct {
	typ   string   // E's name, for the name of a value without one
	names []string // by value
	named []bool   // by value: whether the table names it
}

// New returns the names of E's values; typ is E's name. A value missing
// from names has none: Name prints it as "typ(n)", as stringer does.
func New[E ~uint8](typ string, names map[E]string) Names[E] {
	n := Names[E]{typ: typ}
	for e, name := range names {
		if int(e) >= len(n.names) {
			n.names = append(n.names, make([]string, int(e)+1-len(n.names))...)
			n.named = append(n.named, make([]bool, int(e)+1-len(n.named))...)
		}
		n.names[e], n.named[e] = name, true
	}
	return n
}

// Name returns the name of e as the table gives it (even ""), or "typ(n)"
// for a value the table does not name.
func (n Names[E]) Name(e E) string {
	if int(e) < len(n.names) && n.named[e] {
		return n.names[e]
	}
	return fmt.Sprintf("%s(%d)", n.typ, e)
}

// Value returns the value named s, and whether there is one. The empty
// name names no value.
func (n Names[E]) Value(s string) (E, bool) {
	if s == "" {
		return 0, false
	}
	for e, name := range n.names {
		if name == s && n.named[e] {
			return E(e), true
		}
	}
	return 0, false
}
