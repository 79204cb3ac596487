package reference

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// Trace is a global trace: a sequence of events, each a (multi-)action.
type Trace []interaction.MultiAction

// Format returns the trace as "l1!m.{l2?m,l3?m}", or "ε" when it is empty.
func (tr Trace) Format(sig *interaction.Signature) string {
	if len(tr) == 0 {
		return "ε"
	}
	var b strings.Builder
	for i, e := range tr {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.Format(sig))
	}
	return b.String()
}

// ParseTrace reads a trace written as Format prints it: events separated by
// '.', a multi-action as {a!m,b?m}; "" and "ε" are the empty trace.
func ParseTrace(sig *interaction.Signature, text string) (Trace, error) {
	text = strings.Join(strings.Fields(text), "")
	if text == "" || text == "ε" {
		return Trace{}, nil
	}
	var tr Trace
	for text != "" {
		var ev string
		if text[0] == '{' {
			end := strings.IndexByte(text, '}')
			if end < 0 {
				return nil, fmt.Errorf("trace: missing '}' in %q", text)
			}
			ev, text = text[1:end], text[end+1:]
		} else {
			end := strings.IndexByte(text, '.')
			if end < 0 {
				end = len(text)
			}
			ev, text = text[:end], text[end:]
		}
		var acts []interaction.Action
		for _, s := range strings.Split(ev, ",") {
			a, err := sig.ParseAction(s)
			if err != nil {
				return nil, fmt.Errorf("trace: %w", err)
			}
			acts = append(acts, a)
		}
		tr = append(tr, interaction.NewMultiAction(acts...))
		if text != "" {
			if text[0] != '.' || len(text) == 1 {
				return nil, fmt.Errorf("trace: expected '.' between events at %q", text)
			}
			text = text[1:]
		}
	}
	return tr, nil
}

// MustParseTrace is ParseTrace for traces known to be valid; it panics otherwise.
func MustParseTrace(sig *interaction.Signature, text string) Trace {
	tr, err := ParseTrace(sig, text)
	if err != nil {
		panic(err)
	}
	return tr
}

// traceKey identifies a trace: for each event, its number of actions (one
// byte) then its actions (4 bytes each), so that the key is unambiguous.
func traceKey(tr Trace) string {
	var b strings.Builder
	for _, e := range tr {
		if len(e) > 255 {
			panic("reference: an event of more than 255 actions")
		}
		b.WriteByte(byte(len(e)))
		for _, a := range e {
			b.WriteByte(byte(a >> 24))
			b.WriteByte(byte(a >> 16))
			b.WriteByte(byte(a >> 8))
			b.WriteByte(byte(a))
		}
	}
	return b.String()
}

// TraceSet is a finite set of global traces, kept canonical: a trace is in
// the set at most once, whatever the term that produced it.
type TraceSet struct {
	byKey map[string]Trace
}

// Len returns the number of traces in the set.
func (s TraceSet) Len() int { return len(s.byKey) }

// Has reports whether tr is in the set.
func (s TraceSet) Has(tr Trace) bool {
	_, ok := s.byKey[traceKey(tr)]
	return ok
}

// All returns the traces of the set, shortest first, then in the numeric
// order of their actions: a deterministic order.
func (s TraceSet) All() []Trace {
	keys := make([]string, 0, len(s.byKey))
	for k := range s.byKey {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(len(s.byKey[a]), len(s.byKey[b])); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	out := make([]Trace, len(keys))
	for i, k := range keys {
		out[i] = s.byKey[k]
	}
	return out
}

// Strings returns the formatted traces of the set, sorted as strings.
func (s TraceSet) Strings(sig *interaction.Signature) []string {
	out := make([]string, 0, len(s.byKey))
	for _, tr := range s.byKey {
		out = append(out, tr.Format(sig))
	}
	slices.Sort(out)
	return out
}

// Traces returns every global trace of t of length at most maxLen.
func Traces(st *interaction.Store, t interaction.Term, maxLen int) TraceSet {
	return newEvaluator(st, maxLen, nil).traceSet(t)
}
