package interaction

import (
	"slices"
	"strings"

	"github.com/ivc-project/ivc/syntax"
)

// Kind tells an emission (l!m) from a reception (l?m).
type Kind uint8

const (
	Emission  Kind = 0
	Reception Kind = 1
)

// Action is an atomic action l!m or l?m, packed into an integer: lifeline in
// the high 16 bits, message and kind below. The numeric order sorts actions by
// lifeline, then message, then kind.
type Action uint32

// MakeAction packs an action.
func MakeAction(l LifelineID, k Kind, m MessageID) Action {
	return Action(uint32(l)<<16 | uint32(m)<<1 | uint32(k))
}

// ghostBit marks ghost actions, in the message field.
const ghostBit = 1 << 14

// Ghost returns the ghost of a: a silent copy of the action that occupies its
// lifeline (it orders events as a does, and synchronizes as a does in a sync)
// but is never observed. RemoveObserved turns the actions of removed
// lifelines into ghosts where they still order observed events.
func Ghost(a Action) Action { return a | ghostBit<<1 }

// IsGhost reports whether a is a ghost action.
func (a Action) IsGhost() bool { return a&(ghostBit<<1) != 0 }

// Lifeline returns θ(a), the lifeline the action occurs on.
func (a Action) Lifeline() LifelineID { return LifelineID(a >> 16) }

// Message returns the message of the action.
func (a Action) Message() MessageID { return MessageID(a >> 1 & (ghostBit - 1)) }

// Kind returns Emission or Reception.
func (a Action) Kind() Kind { return Kind(a & 1) }

// Format returns "l!m" or "l?m" with the names of sig, each quoted when it
// is not an identifier (see syntax.QuoteName), as a .htf writes it.
func (a Action) Format(sig *Signature) string {
	var buf [32]byte
	return string(a.AppendFormat(buf[:0], sig))
}

// AppendFormat appends the Format of a to b.
func (a Action) AppendFormat(b []byte, sig *Signature) []byte {
	if a.IsGhost() {
		b = append(b, '~')
	}
	b = syntax.AppendName(b, sig.Lifelines[a.Lifeline()])
	if a.Kind() == Emission {
		b = append(b, '!')
	} else {
		b = append(b, '?')
	}
	return syntax.AppendName(b, sig.Messages[a.Message()])
}

func (a Action) writeTo(b *strings.Builder, sig *Signature) {
	var buf [64]byte
	b.Write(a.AppendFormat(buf[:0], sig))
}

// MultiAction is a non-empty set of actions that occur simultaneously (the
// actions of a <synch> message, or of a sync operator). It is kept sorted and
// without duplicates; a single action is a MultiAction of length 1.
type MultiAction []Action

// NewMultiAction returns the sorted, duplicate-free multi-action of acts.
func NewMultiAction(acts ...Action) MultiAction {
	m := slices.Clone(acts)
	slices.Sort(m)
	return slices.Compact(m)
}

// IsSilent reports whether every action of m is a ghost.
func (m MultiAction) IsSilent() bool {
	for _, a := range m {
		if !a.IsGhost() {
			return false
		}
	}
	return true
}

// Lifelines returns θ(m), the lifelines the multi-action occurs on.
func (m MultiAction) Lifelines() Lifelines {
	var buf [32]byte
	b := buf[:0]
	for _, a := range m {
		l := a.Lifeline()
		i := int(l >> 3)
		for len(b) <= i {
			b = append(b, 0)
		}
		b[i] |= 1 << (l & 7)
	}
	return trimmed(b)
}

// Restrict returns the actions of m on the lifelines of g, nil when there
// is none: what a location whose lifelines are g observes of m (its part
// there, one event of its log).
func (m MultiAction) Restrict(g Lifelines) MultiAction {
	var part MultiAction
	for _, a := range m {
		if g.Has(a.Lifeline()) {
			part = append(part, a)
		}
	}
	return part
}

// Format returns "l!m" for a single action and "{a!m,b?m}" otherwise.
func (m MultiAction) Format(sig *Signature) string {
	var buf [64]byte
	return string(m.AppendFormat(buf[:0], sig))
}

// AppendFormat appends the Format of m to b.
func (m MultiAction) AppendFormat(b []byte, sig *Signature) []byte {
	if len(m) == 1 {
		return m[0].AppendFormat(b, sig)
	}
	b = append(b, '{')
	for i, a := range m {
		if i > 0 {
			b = append(b, ',')
		}
		b = a.AppendFormat(b, sig)
	}
	return append(b, '}')
}

func (m MultiAction) writeTo(b *strings.Builder, sig *Signature) {
	var buf [64]byte
	b.Write(m.AppendFormat(buf[:0], sig))
}

// appendKey appends bytes that identify the multi-action, for interning.
func (m MultiAction) appendKey(b []byte) []byte {
	for _, a := range m {
		b = append(b, byte(a>>24), byte(a>>16), byte(a>>8), byte(a))
	}
	return b
}
