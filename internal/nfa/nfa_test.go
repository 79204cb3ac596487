package nfa

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// parse reads a dump ("init=0 final=2 0-a->1 1-b->2") back into an NFA.
// Symbols are interned in order of first appearance; the number of states
// is one more than the largest state mentioned.
func parse(t testing.TB, dump string) *NFA {
	t.Helper()
	b := NewBuilder()
	var init, fin []State
	var trans []Transition
	n := 0
	state := func(s string) State {
		q, err := strconv.Atoi(s)
		if err != nil || q < 0 {
			t.Fatalf("parse %q: bad state %q", dump, s)
		}
		n = max(n, q+1)
		return State(q)
	}
	states := func(s string) []State {
		var out []State
		if s == "" {
			return nil
		}
		for _, f := range strings.Split(s, ",") {
			out = append(out, state(f))
		}
		return out
	}
	for _, f := range strings.Fields(dump) {
		switch {
		case strings.HasPrefix(f, "init="):
			init = states(f[5:])
		case strings.HasPrefix(f, "final="):
			fin = states(f[6:])
		default:
			i, j := strings.Index(f, "-"), strings.LastIndex(f, "->")
			if i < 0 || j <= i {
				t.Fatalf("parse %q: bad transition %q", dump, f)
			}
			trans = append(trans, Transition{Src: state(f[:i]), Sym: b.Symbol(f[i+1 : j]), Dst: state(f[j+2:])})
		}
	}
	for range n {
		b.State(false)
	}
	for _, q := range fin {
		b.SetFinal(q, true)
	}
	for _, q := range init {
		b.Initial(q)
	}
	for _, tr := range trans {
		b.Transition(tr.Src, tr.Sym, tr.Dst)
	}
	return b.Build()
}

func TestBuildDump(t *testing.T) {
	tests := []struct{ in, want string }{
		{"init=0 final=1 0-a->1", "init=0 final=1 0-a->1"},
		// Transitions are sorted and deduplicated.
		{"init=0 final=2 1-b->2 0-a->1 0-a->1", "init=0 final=2 0-a->1 1-b->2"},
		{"init=1,0 final=0 0-a->0", "init=0,1 final=0 0-a->0"},
		{"init=", "init="},
	}
	for _, tc := range tests {
		if got := parse(t, tc.in).String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestBuildExample(t *testing.T) {
	b := NewBuilder()
	a, m := b.Symbol("a!m"), b.Symbol("b?m")
	q0, q1, q2 := b.State(false), b.State(false), b.State(true)
	b.Initial(q0)
	b.Transition(q0, a, q1)
	b.Transition(q1, m, q2)
	n := b.Build()
	if got, want := n.String(), "init=0 final=2 0-a!m->1 1-b?m->2"; got != want {
		t.Errorf("dump %s, want %s", got, want)
	}
	if !n.AcceptsNames("a!m", "b?m") || n.AcceptsNames("a!m") || n.AcceptsNames("b?m", "a!m") || n.AcceptsNames("x") {
		t.Error("wrong membership")
	}
	if n.NumFinal() != 1 || n.OutIndex(1) != 1 || len(n.Out(2)) != 0 {
		t.Errorf("accessors: final %d, out index %d", n.NumFinal(), n.OutIndex(1))
	}
}

func TestAccepts(t *testing.T) {
	// (a|b)*abb
	n := parse(t, "init=0 final=3 0-a->0 0-b->0 0-a->1 1-b->2 2-b->3")
	tests := []struct {
		word string
		want bool
	}{
		{"abb", true}, {"aabb", true}, {"babb", true}, {"ab", false}, {"", false}, {"abba", false}, {"abc", false},
	}
	for _, tc := range tests {
		if got := n.AcceptsNames(strings.Split(tc.word, "")...); got != tc.want {
			t.Errorf("accepts %q = %v", tc.word, got)
		}
	}
	if !parse(t, "init=0 final=0").AcceptsNames() {
		t.Error("ε rejected by a final initial state")
	}
}

func TestEmptyTrim(t *testing.T) {
	tests := []struct {
		in    string
		empty bool
		trim  string
	}{
		{"init=0 final=1 0-a->1", false, "init=0 final=1 0-a->1"},
		{"init=0 0-a->1", true, "init="},
		{"init= final=0", true, "init="},
		// 2 is unreachable, 3 is a dead end: both go; renumbering is breadth-first.
		{"init=4 final=1 4-a->0 0-b->1 2-c->1 4-d->3", false, "init=0 final=2 0-a->1 1-b->2"},
	}
	for _, tc := range tests {
		n := parse(t, tc.in)
		if n.IsEmpty() != tc.empty {
			t.Errorf("%s: IsEmpty = %v", tc.in, !tc.empty)
		}
		if got := n.Trim().String(); got != tc.trim {
			t.Errorf("%s: trim\n got %s\nwant %s", tc.in, got, tc.trim)
		}
	}
}

func TestReduce(t *testing.T) {
	tests := []struct{ in, want string }{
		// Forward bisimulation: 1 and 2 have the same future.
		{"init=0 final=3 0-a->1 0-a->2 1-b->3 2-b->3", "init=0 final=2 0-a->1 1-b->2"},
		// Backward bisimulation: 1 and 2 have the same past, once 3 and 4 merge.
		{"init=0 final=3,4 0-a->1 0-a->2 1-b->3 2-c->4", "init=0 final=2 0-a->1 1-b->2 1-c->2"},
		// Two initial states with the same future.
		{"init=0,1 final=2 0-a->2 1-a->2", "init=0 final=1 0-a->1"},
		// A DFA: bisimulation is minimization ((ab)* with a redundant copy).
		{"init=0 final=0,2 0-a->1 1-b->2 2-a->3 3-b->0", "init=0 final=0 0-a->1 1-b->0"},
		// Nothing to merge.
		{"init=0 final=3 0-a->0 0-b->0 0-a->1 1-b->2 2-b->3", "init=0 final=3 0-a->0 0-a->1 0-b->0 1-b->2 2-b->3"},
		// Dead states go first.
		{"init=0 final=1 0-a->1 0-a->2 2-b->2", "init=0 final=1 0-a->1"},
	}
	for _, tc := range tests {
		if got := parse(t, tc.in).Reduce().String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestMinimize(t *testing.T) {
	tests := []struct{ in, want string }{
		// (a|b)*abb: the classic 4-state minimal DFA.
		{"init=0 final=3 0-a->0 0-b->0 0-a->1 1-b->2 2-b->3",
			"init=0 final=3 0-a->1 0-b->0 1-a->1 1-b->2 2-a->1 2-b->3 3-a->1 3-b->0"},
		{"init=0 0-a->1", "init="},
		{"init=0 final=0", "init=0 final=0"},
		// Two initial states: a|b a.
		{"init=0,1 final=2 0-a->2 1-b->3 3-a->2", "init=0 final=1 0-a->1 0-b->2 2-a->1"},
	}
	for _, tc := range tests {
		d, err := parse(t, tc.in).Determinize(0)
		if err != nil {
			t.Fatal(err)
		}
		m := d.Minimize()
		if got := m.String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if !m.NFA().IsDeterministic() {
			t.Errorf("%s: minimal DFA is not deterministic", tc.in)
		}
	}
}

func TestDeterminizeLimit(t *testing.T) {
	// (a|b)*a(a|b)^k needs 2^(k+1) DFA states.
	var b strings.Builder
	b.WriteString("init=0 final=6 0-a->0 0-b->0 0-a->1")
	for q := 1; q < 6; q++ {
		b.WriteString(" " + strconv.Itoa(q) + "-a->" + strconv.Itoa(q+1))
		b.WriteString(" " + strconv.Itoa(q) + "-b->" + strconv.Itoa(q+1))
	}
	n := parse(t, b.String())
	if _, err := n.Determinize(10); err == nil {
		t.Error("no error past the limit")
	}
	d, err := n.Determinize(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Minimize().NumStates(); got != 64 {
		t.Errorf("minimal DFA has %d states, want 64", got)
	}
}

// randomNFA returns a random NFA over symbols a, b, c.
func randomNFA(rng *rand.Rand, n, m int) *NFA {
	b := NewBuilder()
	syms := []Symbol{b.Symbol("a"), b.Symbol("b"), b.Symbol("c")}
	for range n {
		b.State(rng.IntN(3) == 0)
	}
	b.Initial(0)
	if rng.IntN(4) == 0 {
		b.Initial(State(rng.IntN(n)))
	}
	for range m {
		b.Transition(State(rng.IntN(n)), syms[rng.IntN(len(syms))], State(rng.IntN(n)))
	}
	return b.Build()
}

// words calls f with every word of length at most k over the symbols.
func words(nsym, k int, f func([]Symbol)) {
	var w []Symbol
	var rec func()
	rec = func() {
		f(w)
		if len(w) == k {
			return
		}
		for x := range nsym {
			w = append(w, Symbol(x))
			rec()
			w = w[:len(w)-1]
		}
	}
	rec()
}

func TestRandomLanguagePreserved(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		n := randomNFA(rng, 1+rng.IntN(8), rng.IntN(20))
		red := n.Reduce()
		d, err := n.Determinize(0)
		if err != nil {
			t.Fatal(err)
		}
		min := d.Minimize()
		if red.NumStates() > n.Trim().NumStates() || red.NumTransitions() > n.Trim().NumTransitions() {
			t.Fatalf("#%d %s: reduced to a larger %s", i, n, red)
		}
		words(3, 6, func(w []Symbol) {
			want := n.Accepts(w)
			if red.Accepts(w) != want || d.Accepts(w) != want || min.Accepts(w) != want {
				t.Fatalf("#%d %s: word %v: nfa %v, reduced %v (%s), dfa %v, min %v (%s)",
					i, n, w, want, red.Accepts(w), red, d.Accepts(w), min.Accepts(w), min)
			}
		})
		// The minimal DFA is unique and numbered canonically.
		d2, _ := red.Determinize(0)
		if got, want := d2.Minimize().String(), min.String(); got != want {
			t.Fatalf("#%d %s: minimal DFA of the reduced NFA\n%s\nwant\n%s", i, n, got, want)
		}
		if min.NumStates() > d.NumStates() {
			t.Fatalf("#%d: minimization grew the DFA", i)
		}
		if n.IsEmpty() != (min.NumStates() == 0) {
			t.Fatalf("#%d %s: IsEmpty %v but minimal DFA %s", i, n, n.IsEmpty(), min)
		}
	}
}

// mooreSize counts the Myhill-Nerode classes of the states of a trimmed DFA
// by the table-filling algorithm, independently of Minimize.
func mooreSize(d *DFA) int {
	n, k := d.NumStates(), d.Symbols().Len()
	dist := make([][]bool, n)
	for i := range dist {
		dist[i] = make([]bool, n)
		for j := range n {
			dist[i][j] = d.IsFinal(State(i)) != d.IsFinal(State(j))
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range n {
			for j := range n {
				if dist[i][j] {
					continue
				}
				for a := range k {
					p, q := d.Next(State(i), Symbol(a)), d.Next(State(j), Symbol(a))
					if (p < 0) != (q < 0) || p >= 0 && dist[p][q] {
						dist[i][j], changed = true, true
						break
					}
				}
			}
		}
	}
	classes := 0
	for i := range n {
		first := true
		for j := range i {
			if !dist[i][j] {
				first = false
				break
			}
		}
		if first {
			classes++
		}
	}
	return classes
}

func TestRandomMinimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		n := randomNFA(rng, 1+rng.IntN(8), rng.IntN(20))
		d, err := n.Determinize(0)
		if err != nil {
			t.Fatal(err)
		}
		trimmed := d.NFA().Trim().asDFA()
		if got, want := d.Minimize().NumStates(), mooreSize(trimmed); got != want {
			t.Fatalf("#%d %s: minimal DFA has %d states, Moore says %d", i, n, got, want)
		}
	}
}

func TestEquivalent(t *testing.T) {
	tests := []struct {
		a, b string
		want []string // nil when equivalent
	}{
		{"init=0 final=2 0-a->1 0-a->3 1-b->2 3-b->2", "init=0 final=1 0-a->2 2-b->1", nil},
		// Symbol tables in different orders.
		{"init=0 final=1 0-a->1 0-b->1", "init=0 final=1 0-b->1 0-a->1", nil},
		{"init=0 final=1 0-a->1", "init=0 final=1 0-a->1 0-b->1", []string{"b"}},
		{"init=0 final=0", "init=0", []string{}},
		{"init=0 final=3 0-a->1 1-b->2 2-c->3", "init=0 final=3 0-a->1 1-b->2 2-d->3", []string{"a", "b", "c"}},
	}
	for _, tc := range tests {
		a, b := parse(t, tc.a), parse(t, tc.b)
		ok, w := Equivalent(a, b)
		if ok != (tc.want == nil) || !ok && strings.Join(w, ".") != strings.Join(tc.want, ".") {
			t.Errorf("Equivalent(%s, %s) = %v %q, want %q", tc.a, tc.b, ok, w, tc.want)
		}
		if !ok && a.AcceptsNames(w...) == b.AcceptsNames(w...) {
			t.Errorf("witness %q does not tell %s from %s", w, tc.a, tc.b)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 200 {
		n := randomNFA(rng, 1+rng.IntN(6), rng.IntN(14))
		m := randomNFA(rng, 1+rng.IntN(6), rng.IntN(14))
		if ok, _ := Equivalent(n, n.Reduce()); !ok {
			t.Fatalf("#%d: %s not equivalent to its reduction", i, n)
		}
		ok, w := Equivalent(n, m)
		agree := true
		words(3, 5, func(x []Symbol) {
			if n.Accepts(x) != m.Accepts(x) {
				agree = false
			}
		})
		if !agree && ok {
			t.Fatalf("#%d: %s and %s differ but are said equivalent", i, n, m)
		}
		if !ok && n.AcceptsNames(w...) == m.AcceptsNames(w...) {
			t.Fatalf("#%d: witness %q does not tell %s from %s", i, w, n, m)
		}
	}
}
