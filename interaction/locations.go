package interaction

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/internal/scan"
)

// Locations is a partition of the lifelines into locations: groups of
// lifelines that share a clock, in order. A multi-trace observed at
// Locations has one component per location.
type Locations []Lifelines

// LocationsSyntax describes, once for every command, the text that
// ParseLocations reads (the --locations flags).
const LocationsSyntax = `discrete (one location per lifeline), trivial (one location for all lifelines) or the lifelines of each location "a,b;c"`

// DiscreteLocations returns one location per lifeline of sig, in order.
func DiscreteLocations(sig *Signature) Locations {
	p := make(Locations, len(sig.Lifelines))
	for l := range p {
		p[l] = LifelinesOf(LifelineID(l))
	}
	return p
}

// TrivialLocations returns one location with every lifeline of sig: its
// multi-traces are global traces.
func TrivialLocations(sig *Signature) Locations {
	return Locations{sig.AllLifelines()}
}

// ParseLocations reads a partition of sig's lifelines into locations:
// "discrete", "trivial", the lifeline names of each location "a,b;c" (';'
// between locations, ',' within), or HIBOU's "{(a,b),(c)}". A name is
// written as in a .htf: bare, or quoted when it is not an identifier
// ("my.service","a;b";c). The empty text is "discrete". Lifelines that no
// location names get a location of their own, after the others, in
// signature order.
func ParseLocations(sig *Signature, text string) (Locations, error) {
	text = strings.TrimSpace(text)
	switch text {
	case "discrete":
		return DiscreteLocations(sig), nil
	case "trivial":
		return TrivialLocations(sig), nil
	}
	var groups []string
	if strings.HasPrefix(text, "{") {
		if !strings.HasSuffix(text, "}") {
			return nil, fmt.Errorf("locations %q: missing '}'", text)
		}
		rest := strings.TrimSpace(text[1 : len(text)-1])
		for rest != "" {
			if rest[0] != '(' {
				return nil, fmt.Errorf("locations %q: expected '(' at %q", text, rest)
			}
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return nil, fmt.Errorf("locations %q: missing ')'", text)
			}
			groups = append(groups, rest[1:end])
			rest = strings.TrimSpace(rest[end+1:])
			if strings.HasPrefix(rest, ",") {
				rest = strings.TrimSpace(rest[1:])
				if rest == "" {
					return nil, fmt.Errorf("locations %q: expected a location after ','", text)
				}
			} else if rest != "" {
				return nil, fmt.Errorf("locations %q: expected ',' between locations at %q", text, rest)
			}
		}
	} else if text != "" {
		groups = splitOutsideQuotes(text, ';')
	}
	names := make([][]string, len(groups))
	for k, g := range groups {
		for _, name := range splitOutsideQuotes(g, ',') {
			if name = strings.TrimSpace(name); name != "" && name[0] == '"' {
				n, end, _, msg := scan.Unquote([]byte(name), 0)
				if msg == "" && end != len(name) {
					msg = "text after a quoted name"
				}
				if msg != "" {
					return nil, fmt.Errorf("locations %q: %s: %s", text, name, msg)
				}
				name = n
			}
			names[k] = append(names[k], name)
		}
	}
	p, err := NamedLocations(sig, names)
	if err != nil {
		return nil, fmt.Errorf("locations %q: %v", text, err)
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

// NamedLocations returns the locations whose lifelines are named by groups
// (one list of names per location), completed as ParseLocations does.
func NamedLocations(sig *Signature, groups [][]string) (Locations, error) {
	var p Locations
	var used Lifelines
	for _, g := range groups {
		var ls Lifelines
		for _, name := range g {
			name = strings.TrimSpace(name)
			if name == "" {
				return nil, fmt.Errorf("empty lifeline name or location")
			}
			l, ok := sig.Lifeline(name)
			if !ok {
				return nil, fmt.Errorf("undeclared lifeline %q", name)
			}
			if used.Has(l) {
				return nil, fmt.Errorf("lifeline %q is in two locations", name)
			}
			used = used.Add(l)
			ls = ls.Add(l)
		}
		p = append(p, ls)
	}
	for l := range sig.Lifelines {
		if id := LifelineID(l); !used.Has(id) {
			p = append(p, LifelinesOf(id))
		}
	}
	return p, nil
}

// Format returns the locations as ParseLocations reads them: "a,b;c".
func (p Locations) Format(sig *Signature) string {
	parts := make([]string, len(p))
	for k, g := range p {
		parts[k] = g.Format(sig)
	}
	return strings.Join(parts, ";")
}
