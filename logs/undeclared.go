package logs

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Undeclared is a name that events of a log carry and the signature does
// not declare, with the number of events ignored for it: what a summary
// shows when a spec matches little or nothing of a log.
type Undeclared struct {
	Lifeline bool // a lifeline's name, else a message's
	Name     string
	// Also holds the other candidate names of spans none of whose names is
	// declared (the naming rule, naming.go), separated by NUL bytes: Names
	// lists them all.
	Also   string
	Events int
}

// Names returns the names u stands for: Name, then the candidates of Also.
func (u Undeclared) Names() []string {
	if u.Also == "" {
		return []string{u.Name}
	}
	return append([]string{u.Name}, Candidates(u.Also)...)
}

// MaxUndeclared bounds the distinct names a Tally counts: a log of random
// names costs no more.
const MaxUndeclared = 1 << 10

// maxNameLen is the longest name of a log kept as is where a reader keeps
// names: longer ones are kept shortened (shortName).
const maxNameLen = 256

// shortName returns a copy of the first bytes of name (at most max, cut
// at a rune's start) followed by "…": it shares no memory with name, and
// is no identifier of a signature.
func shortName(name string, max int) string {
	n := max
	for n > 0 && !utf8.RuneStart(name[n]) {
		n--
	}
	return strings.Clone(name[:n]) + "…"
}

// ShortName returns a name of a log as messages and tallies keep it: as it
// is, or, past maxNameLen bytes, a copy of its start followed by "…".
func ShortName(name string) string {
	if len(name) <= maxNameLen {
		return name
	}
	return shortName(name, maxNameLen)
}

// A Tally counts the events of the names a signature does not declare: a
// reader keeps one for its input (Input.Undeclared), and so does the
// pairing of spans at a session's assembly (session.Joiner.Undeclared),
// which decides the names of the spans it pairs. The zero Tally is empty.
type Tally struct{ n map[Undeclared]int }

// Add counts an event of name, a lifeline's or a message's, at most
// MaxUndeclared distinct names (the others are not counted).
func (t *Tally) Add(lifeline bool, name []byte) {
	if t.n == nil {
		t.n = map[Undeclared]int{}
	}
	k := Undeclared{Lifeline: lifeline}
	if len(name) > maxNameLen { // a log of huge names costs no more
		name = []byte(shortName(string(name[:maxNameLen+1]), maxNameLen))
	}
	if i := bytes.IndexByte(name, candidateSep); i >= 0 {
		k.Name, k.Also = string(name[:i]), string(name[i+1:])
	} else {
		k.Name = string(name)
	}
	if _, ok := t.n[k]; ok || len(t.n) < MaxUndeclared {
		t.n[k]++
	}
}

// List returns the names of t, most events first.
func (t *Tally) List() []Undeclared {
	out := make([]Undeclared, 0, len(t.n))
	for k, n := range t.n {
		k.Events = n
		out = append(out, k)
	}
	return MostUndeclared(len(out), out)
}

// MostUndeclared merges the tallies of several logs and returns the n
// names with the most events, most first (then by name, lifelines before
// messages, then by the other candidates: an order that does not depend on
// the maps it was counted in).
func MostUndeclared(n int, lists ...[]Undeclared) []Undeclared {
	sum := map[Undeclared]int{}
	for _, l := range lists {
		for _, u := range l {
			k := u
			k.Events = 0
			sum[k] += u.Events
		}
	}
	out := make([]Undeclared, 0, len(sum))
	for k, c := range sum {
		k.Events = c
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Undeclared) int {
		if c := cmp.Compare(b.Events, a.Events); c != 0 {
			return c
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if a.Lifeline != b.Lifeline {
			if a.Lifeline {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Also, b.Also)
	})
	return out[:min(n, len(out))]
}

// Nearest returns the name of declared nearest to name, by edit distance
// ignoring case, when it is near enough to be a likely misspelling (at most
// a third of the name's length, and 1 for short names); "" otherwise.
func Nearest(name string, declared []string) string {
	if name == "" {
		return "" // an attribute that is not there: nothing is near
	}
	best, bestD := "", max(1, len(name)/3)+1
	for _, d := range declared {
		if dist := editDistance(strings.ToLower(name), strings.ToLower(d)); dist < bestD {
			best, bestD = d, dist
		}
	}
	return best
}

// editDistance is Levenshtein's distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
