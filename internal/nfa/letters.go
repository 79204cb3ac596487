package nfa

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/internal/nfa/engine"
)

// Letter is a letter of one location's alphabet: an index in
// Alphabets.Letters(loc). A value outside the alphabet stands for an event
// that no symbol shows at that location (a local check gets stuck on it).
// It is the engine's Action: the checker's locations have their letters
// from action 0 on.
type Letter = engine.Action

// Part is what one location observes of a symbol: the letter it reads there.
type Part struct {
	Loc    int
	Letter Letter
}

// Alphabets is a distributed alphabet: how the symbols of an automaton are
// observed in a multi-trace. There are n locations (groups of lifelines that share a
// clock), each with its own alphabet of local letters, and a symbol shows
// one letter at each location it touches. For the paper's setting (Σ = Σ1 ⊎
// … ⊎ Σn) every symbol has exactly one part, its own name at its location
// (see PartitionSymbols). For automata compiled from interactions a symbol
// is a multi-action: a <synch> message {a!m,b?m} touches the locations of a
// and of b and shows a!m at the first and b?m at the second, or {a!m,b?m}
// at one location holding both.
//
// Projection (Def. 5) treats a symbol as a letter of location i iff it has
// a part on i, and then as that part's letter; as ε otherwise. Definitions 5
// to 9 and their theorems only use that projection maps each symbol to one
// letter or to ε, so they hold as they are when a symbol touches several
// locations; the central check (Def. 4) then reads a symbol by consuming the
// head of every location it touches at once, which is how a multi-action is
// observed. A symbol without parts (observed nowhere) is ε everywhere.
type Alphabets struct {
	names   []string
	letters [][]string
	index   []map[string]Letter
	acts    [][][]Action // by location and letter, for letters added with their actions
	parts   [][]Part     // by Symbol
}

// NewAlphabets returns the alphabets of locations with the given names,
// empty.
func NewAlphabets(names ...string) *Alphabets {
	l := &Alphabets{names: slices.Clone(names)}
	l.letters = make([][]string, len(names))
	l.acts = make([][][]Action, len(names))
	l.index = make([]map[string]Letter, len(names))
	for i := range l.index {
		l.index[i] = map[string]Letter{}
	}
	return l
}

// Num returns the number of locations.
func (l *Alphabets) Num() int { return len(l.names) }

// Name returns the name of location i.
func (l *Alphabets) Name(i int) string { return l.names[i] }

// Names returns the names of the locations.
func (l *Alphabets) Names() []string { return slices.Clone(l.names) }

// Letters returns the alphabet of location i. It must not be modified.
func (l *Alphabets) Letters(i int) []string { return l.letters[i] }

// Letter interns the letter name of location i.
func (l *Alphabets) Letter(i int, name string) Letter {
	if x, ok := l.index[i][name]; ok {
		return x
	}
	x := Letter(len(l.letters[i]))
	l.letters[i] = append(l.letters[i], name)
	l.index[i][name] = x
	return x
}

// AddLetter adds to location i the letter made of the actions acts, named
// name (for printing: the letters of a location are told apart by their
// actions, which the caller interns). The name must be new at location i.
func (l *Alphabets) AddLetter(i int, name string, acts []Action) Letter {
	if _, dup := l.index[i][name]; dup {
		panic("nfa: letter " + name + " twice at location " + l.names[i])
	}
	x := l.Letter(i, name)
	for len(l.acts[i]) < int(x) {
		l.acts[i] = append(l.acts[i], nil)
	}
	l.acts[i] = append(l.acts[i], slices.Clone(acts))
	return x
}

// Actions returns the actions of letter x of location i, nil for a letter
// added by name only (Letter). It must not be modified.
func (l *Alphabets) Actions(i int, x Letter) []Action {
	if int(x) >= len(l.acts[i]) {
		return nil
	}
	return l.acts[i][x]
}

// LookupLetter returns the letter name of location i.
func (l *Alphabets) LookupLetter(i int, name string) (Letter, bool) {
	x, ok := l.index[i][name]
	return x, ok
}

// See records that symbol x shows letter at location i.
func (l *Alphabets) See(x Symbol, i int, letter Letter) {
	for int(x) >= len(l.parts) {
		l.parts = append(l.parts, nil)
	}
	p := Part{i, letter}
	ps := l.parts[x]
	k, found := slices.BinarySearchFunc(ps, i, func(p Part, i int) int { return p.Loc - i })
	if found {
		ps[k] = p
		return
	}
	l.parts[x] = slices.Insert(ps, k, p)
}

// Parts returns what each location observes of symbol x, by location; none
// when x is observed nowhere. The slice must not be modified.
func (l *Alphabets) Parts(x Symbol) []Part {
	if int(x) >= len(l.parts) {
		return nil
	}
	return l.parts[x]
}

// String returns the alphabets as "L1={a,e} L2={c,d} L3={b}".
func (l *Alphabets) String() string {
	var b strings.Builder
	for i, n := range l.names {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s={%s}", n, strings.Join(l.letters[i], ","))
	}
	return b.String()
}

// PartitionSymbols returns the locations of the paper's setting: the
// alphabet Σ of syms split into disjoint location alphabets, group i holding
// the symbol names of location i (named names[i], or "L1", "L2", … when
// names is nil). Each symbol is a letter of its location under its own
// name. Every symbol must be in exactly one group.
func PartitionSymbols(syms *Symbols, groups [][]string, names []string) (*Alphabets, error) {
	if names == nil {
		for i := range groups {
			names = append(names, fmt.Sprintf("L%d", i+1))
		}
	}
	if len(names) != len(groups) {
		return nil, fmt.Errorf("%d location names for %d groups", len(names), len(groups))
	}
	l := NewAlphabets(names...)
	seen := make([]int, syms.Len())
	for i, g := range groups {
		for _, name := range g {
			x, ok := syms.Lookup(name)
			if !ok {
				return nil, fmt.Errorf("location %s: %q is no letter of the automaton", names[i], name)
			}
			if seen[x] != 0 {
				return nil, fmt.Errorf("letter %q is in locations %s and %s", name, names[seen[x]-1], names[i])
			}
			seen[x] = i + 1
			l.See(x, i, l.Letter(i, name))
		}
	}
	for x, s := range seen {
		if s == 0 {
			return nil, fmt.Errorf("letter %q is in no location", syms.Name(Symbol(x)))
		}
	}
	return l, nil
}

// ParseAlphabets reads a partition of the letters of syms written as
// groups separated by ';' with letters separated by ',', each group
// optionally named "NAME=": "a,e;c,d;b" or "p=a,e;q=c,d;r=b". Unnamed
// groups are named L1, L2, … by position. An empty group or letter
// ("a,e;;b", "a,,e") is an error, as in the locations of lifelines that
// compile takes: a location observes something. As for lifelines,
// "discrete" (or the empty text) is one location per letter, named after
// it, and "trivial" one location L1 with every letter.
func ParseAlphabets(syms *Symbols, spec string) (*Alphabets, error) {
	switch strings.TrimSpace(spec) {
	case "", "discrete":
		var groups [][]string
		for _, x := range syms.Names() {
			groups = append(groups, []string{x})
		}
		return PartitionSymbols(syms, groups, syms.Names())
	case "trivial":
		return PartitionSymbols(syms, [][]string{syms.Names()}, []string{"L1"})
	}
	var groups [][]string
	var names []string
	for i, g := range strings.Split(spec, ";") {
		name := fmt.Sprintf("L%d", i+1)
		if k := strings.IndexByte(g, '='); k >= 0 {
			name = strings.TrimSpace(g[:k])
			g = g[k+1:]
			if name == "" {
				return nil, fmt.Errorf("locations %q: empty name before '=' in group %d", spec, i+1)
			}
		}
		var letters []string
		for _, x := range strings.Split(g, ",") {
			if x = strings.TrimSpace(x); x == "" {
				return nil, fmt.Errorf("locations %q: empty letter or location (group %d)", spec, i+1)
			}
			letters = append(letters, x)
		}
		groups = append(groups, letters)
		names = append(names, name)
	}
	return PartitionSymbols(syms, groups, names)
}

// RandomAlphabets splits the symbols of syms into n locations L1..Ln at
// random (deterministically for seed), as the paper's experiments do; each
// location gets at least one symbol when there are n or more.
func RandomAlphabets(syms *Symbols, n int, seed uint64) *Alphabets {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	order := rng.Perm(syms.Len())
	groups := make([][]string, n)
	for k, x := range order {
		i := k
		if k >= n {
			i = rng.IntN(n)
		}
		groups[i] = append(groups[i], syms.Name(Symbol(x)))
	}
	for _, g := range groups {
		slices.SortFunc(g, func(a, b string) int { sa, _ := syms.Lookup(a); sb, _ := syms.Lookup(b); return int(sa - sb) })
	}
	l, err := PartitionSymbols(syms, groups, nil)
	if err != nil {
		panic(err) // a partition by construction
	}
	return l
}

// ParseLetterTraces reads a multi-trace of letters in ivc's plain text
// format, one line per location:
//
//	# the paper's Example 7
//	L1: e
//	L2: d d d c
//	L3: b b
//
// A line is a location's name, ':', and its letters separated by spaces
// (or dots); a location without a line has an empty trace; '#' starts a
// comment line. Every letter must be a letter of its location. Errors name
// file:line:col. As in ParseTimbuk, a byte order mark at the start is
// skipped and control characters and bytes that are not UTF-8 are errors.
func ParseLetterTraces(file string, src []byte, locs *Alphabets) ([][]Letter, error) {
	text, err := textOf(file, src)
	if err != nil {
		return nil, err
	}
	mt := make([][]Letter, locs.Num())
	seen := make([]int, locs.Num())
	byName := map[string]int{}
	for i, n := range locs.names {
		byName[n] = i
	}
	for n, line := range strings.Split(text, "\n") {
		errorf := func(col int, format string, args ...any) error {
			return posError(file, n+1, col, format, args...)
		}
		body := strings.TrimSpace(line)
		if body == "" || body[0] == '#' {
			continue
		}
		colon := strings.IndexByte(line, ':')
		if colon < 0 {
			return nil, errorf(1, "expected 'LOCATION: letters...'")
		}
		name := strings.TrimSpace(line[:colon])
		i, ok := byName[name]
		if !ok {
			return nil, errorf(strings.Index(line, name)+1, "unknown location %q (the locations are %s)", name, strings.Join(locs.names, ", "))
		}
		if seen[i] != 0 {
			return nil, errorf(strings.Index(line, name)+1, "location %s already has a trace, line %d", name, seen[i])
		}
		seen[i] = n + 1
		rest := line[colon+1:]
		fs, cols := fields(strings.ReplaceAll(rest, ".", " "))
		tr := make([]Letter, 0, len(fs))
		for k, f := range fs {
			x, ok := locs.LookupLetter(i, f)
			if !ok {
				for j := range locs.names {
					if _, there := locs.LookupLetter(j, f); there {
						return nil, errorf(colon+1+cols[k], "letter %s is observed at %s, not at %s", f, locs.names[j], name)
					}
				}
				return nil, errorf(colon+1+cols[k], "unknown letter %q", f)
			}
			tr = append(tr, x)
		}
		mt[i] = tr
	}
	return mt, nil
}

// FormatLetterTraces prints mt in the format of ParseLetterTraces.
func FormatLetterTraces(locs *Alphabets, mt [][]Letter) string {
	var b strings.Builder
	for i, tr := range mt {
		b.WriteString(locs.names[i])
		b.WriteByte(':')
		for _, x := range tr {
			b.WriteByte(' ')
			b.WriteString(locs.letters[i][x])
		}
		b.WriteByte('\n')
	}
	return b.String()
}
