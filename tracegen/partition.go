package tracegen

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/multitrace"
)

// Partition is a partition of the lifelines into locations (groups of
// lifelines that share a clock): one component of the projected
// multi-traces per location, in order.
type Partition []interaction.Lifelines

// Discrete returns one location per lifeline of sig, in order.
func Discrete(sig *interaction.Signature) Partition {
	p := make(Partition, len(sig.Lifelines))
	for l := range p {
		p[l] = interaction.LifelinesOf(interaction.LifelineID(l))
	}
	return p
}

// Trivial returns one location with every lifeline of sig: projected
// multi-traces are global traces.
func Trivial(sig *interaction.Signature) Partition {
	return Partition{sig.AllLifelines()}
}

// ParsePartition reads a partition of sig's lifelines into locations, as
// the --locations flags take it: "discrete", "trivial", the lifeline names
// of each location "a,b;c" (';' between locations, ',' within), or HIBOU's
// "{(a,b),(c)}". A name is written as in a .htf: bare, or quoted when it is
// not an identifier ("my.service","a;b";c). Lifelines that no location names
// get a location of their own, after the others, in signature order.
func ParsePartition(sig *interaction.Signature, spec string) (Partition, error) {
	spec = strings.TrimSpace(spec)
	switch spec {
	case "discrete":
		return Discrete(sig), nil
	case "trivial":
		return Trivial(sig), nil
	}
	var groups []string
	if strings.HasPrefix(spec, "{") {
		if !strings.HasSuffix(spec, "}") {
			return nil, fmt.Errorf("locations %q: missing '}'", spec)
		}
		rest := strings.TrimSpace(spec[1 : len(spec)-1])
		for rest != "" {
			if rest[0] != '(' {
				return nil, fmt.Errorf("locations %q: expected '(' at %q", spec, rest)
			}
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return nil, fmt.Errorf("locations %q: missing ')'", spec)
			}
			groups = append(groups, rest[1:end])
			rest = strings.TrimSpace(rest[end+1:])
			if strings.HasPrefix(rest, ",") {
				rest = strings.TrimSpace(rest[1:])
				if rest == "" {
					return nil, fmt.Errorf("locations %q: expected a location after ','", spec)
				}
			} else if rest != "" {
				return nil, fmt.Errorf("locations %q: expected ',' between locations at %q", spec, rest)
			}
		}
	} else if spec != "" {
		groups = splitOutsideQuotes(spec, ';')
	}
	var p Partition
	var used interaction.Lifelines
	for _, g := range groups {
		var ls interaction.Lifelines
		for _, name := range splitOutsideQuotes(g, ',') {
			name = strings.TrimSpace(name)
			if name == "" {
				return nil, fmt.Errorf("locations %q: empty lifeline name or location", spec)
			}
			if name[0] == '"' {
				n, end, _, msg := scan.Unquote([]byte(name), 0)
				if msg == "" && end != len(name) {
					msg = "text after a quoted name"
				}
				if msg != "" {
					return nil, fmt.Errorf("locations %q: %s: %s", spec, name, msg)
				}
				name = n
			}
			l, ok := sig.Lifeline(name)
			if !ok {
				return nil, fmt.Errorf("locations %q: undeclared lifeline %q", spec, name)
			}
			if used.Has(l) {
				return nil, fmt.Errorf("locations %q: lifeline %q is in two locations", spec, name)
			}
			used = used.Add(l)
			ls = ls.Add(l)
		}
		p = append(p, ls)
	}
	for l := range sig.Lifelines {
		if id := interaction.LifelineID(l); !used.Has(id) {
			p = append(p, interaction.LifelinesOf(id))
		}
	}
	return p, nil
}

// splitOutsideQuotes splits s at each sep that is not in a quoted name.
func splitOutsideQuotes(s string, sep byte) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// Format returns the partition as ParsePartition reads it: "a,b;c".
func (p Partition) Format(sig *interaction.Signature) string {
	parts := make([]string, len(p))
	for k, g := range p {
		parts[k] = g.Format(sig)
	}
	return strings.Join(parts, ";")
}

// Project returns the multi-trace that the locations of p observe of the
// global trace tr: each event is split per location, the actions on its
// lifelines forming one event of its component. Actions on lifelines
// outside p are dropped.
func Project(tr []interaction.MultiAction, p Partition) multitrace.MultiTrace {
	mt := multitrace.MultiTrace{Components: make([]multitrace.Component, len(p))}
	for k, g := range p {
		mt.Components[k].Lifelines = g
	}
	for _, ev := range tr {
		for k, g := range p {
			var part interaction.MultiAction
			for _, a := range ev { // ev is sorted, so part is too
				if g.Has(a.Lifeline()) {
					part = append(part, a)
				}
			}
			if len(part) > 0 {
				mt.Components[k].Trace = append(mt.Components[k].Trace, part)
			}
		}
	}
	return mt
}
