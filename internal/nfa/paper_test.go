package nfa

import (
	"strings"
	"testing"
)

// paperNFA is the NFA 𝒜 of the automata paper's running example (Fig. 2b
// with letters, Fig. 3a): a = l1?m4, b = l3!m2, c = l2!m3, d = l2?m2,
// e = l1?m3, with locations Σ1 = {a,e}, Σ2 = {c,d}, Σ3 = {b} (Example 3).
// The transitions are read off Figs. 3–6: 0-b->1 0-c->2 0-a->3 1-d->4
// 2-e->3 4-b->1 4-c->2, final state 3.
func paperNFA(t testing.TB) (*NFA, *Alphabets) {
	t.Helper()
	b := NewBuilder()
	for _, x := range []string{"a", "b", "c", "d", "e"} {
		b.Symbol(x)
	}
	for q := range 5 {
		b.State(q == 3)
	}
	b.Initial(0)
	for _, tr := range []string{"0b1", "0c2", "0a3", "1d4", "2e3", "4b1", "4c2"} {
		x, _ := b.syms.Lookup(tr[1:2])
		b.Transition(State(tr[0]-'0'), x, State(tr[2]-'0'))
	}
	a := b.Build()
	locs, err := ParseAlphabets(a.Symbols(), "L1=a,e;L2=c,d;L3=b")
	if err != nil {
		t.Fatal(err)
	}
	return a, locs
}

// letters spells a local trace of location i, one letter per character.
func letters(t testing.TB, locs *Alphabets, i int, s string) []Letter {
	t.Helper()
	var out []Letter
	for _, r := range s {
		x, ok := locs.LookupLetter(i, string(r))
		if !ok {
			t.Fatalf("%q is no letter of %s", r, locs.Name(i))
		}
		out = append(out, x)
	}
	return out
}

func multi(t testing.TB, locs *Alphabets, s string) [][]Letter {
	t.Helper()
	parts := strings.Split(s, ",")
	mt := make([][]Letter, len(parts))
	for i, p := range parts {
		mt[i] = letters(t, locs, i, p)
	}
	return mt
}

func TestPaperProjection(t *testing.T) {
	a, locs := paperNFA(t)
	c, err := NewChecker(a, locs, CheckerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.NFA() != a {
		t.Fatal("the paper's NFA is trim: the checker must keep its numbering")
	}
	p := c.Proj(1)
	// Fig. 3b: the DFA Proj(𝒜, {c,d}).
	if got, want := p.String(), "init={0,1,3} final={0,1,3},{2,3} {0,1,3}-c->{2,3} {0,1,3}-d->{1,4} {1,4}-c->{2,3} {1,4}-d->{1,4}"; got != want {
		t.Errorf("Proj(A,{c,d}):\n got %s\nwant %s", got, want)
	}
	// Fig. 4a: the areas of its transitions; Fig. 4b: init.
	d := p.DFA()
	area := func(from string, x string) string {
		for q := range State(d.NumStates()) {
			if p.Subset(q).String() == from {
				l, _ := locs.LookupLetter(1, x)
				return a.FormatSub(p.Area(q, l))
			}
		}
		return "no state " + from
	}
	for _, tc := range []struct{ from, x, want string }{
		{"{0,1,3}", "c", "0-c->2 2-e->3"},
		{"{0,1,3}", "d", "1-d->4 4-b->1"},
		{"{1,4}", "c", "2-e->3 4-c->2"},
		{"{1,4}", "d", "1-d->4 4-b->1"},
	} {
		if got := area(tc.from, tc.x); got != tc.want {
			t.Errorf("area(%s -%s->): got %s, want %s", tc.from, tc.x, got, tc.want)
		}
	}
	if got, want := a.FormatSub(p.Init()), "0-a->3 0-b->1"; got != want {
		t.Errorf("init: got %s, want %s", got, want)
	}
	if got := p.NumAreas(); got != 3 {
		t.Errorf("%d distinct areas, want 3 (Fig. 4a)", got)
	}
}

func TestPaperAreas(t *testing.T) {
	a, locs := paperNFA(t)
	c, err := NewChecker(a, locs, CheckerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		loc         int
		trace, want string
	}{
		// Fig. 5a draws Area(c) without 2-e->3, but Definition 8 puts
		// area({0,1,3}-c->{2,3}) in it, and Fig. 4a draws that area with
		// 2-e->3: Def. 8 wins.
		{1, "c", "0-a->3 0-b->1 0-c->2 2-e->3"},
		{1, "dddc", "0-a->3 0-b->1 1-d->4 2-e->3 4-b->1 4-c->2"}, // Fig. 5b
		{2, "", "0-a->3 0-c->2 2-e->3"},                          // Example 8: Area(ε) for Σ3
		{0, "e", "0-b->1 0-c->2 1-d->4 2-e->3 4-b->1 4-c->2"},
		{2, "bb", "0-a->3 0-b->1 0-c->2 1-d->4 2-e->3 4-b->1 4-c->2"},
	} {
		area, _, stuck := c.Walk(tc.loc, letters(t, locs, tc.loc, tc.trace))
		if stuck >= 0 {
			t.Errorf("Area(%s) at %s: stuck at %d", tc.trace, locs.Name(tc.loc), stuck)
		}
		if got := a.FormatSub(area); got != tc.want {
			t.Errorf("Area(%s) at %s:\n got %s\nwant %s", tc.trace, locs.Name(tc.loc), got, tc.want)
		}
	}
	// Fig. 6: Inter(𝒜, (e, dddc, bb)).
	mt := multi(t, locs, "e,dddc,bb")
	var areas []Bits
	for i, tr := range mt {
		ar, _, _ := c.Walk(i, tr)
		areas = append(areas, ar)
	}
	if got, want := a.FormatSub(Inter(areas...)), "0-b->1 1-d->4 2-e->3 4-b->1 4-c->2"; got != want {
		t.Errorf("Inter(e,dddc,bb): got %s, want %s", got, want)
	}
	// Example 8: Inter(𝒜, (e, dddc, ε)) has no accepting path. (The paper
	// says it is q0 alone; by Def. 9 it keeps 2-e->3, unreachable from q0.)
	areas = areas[:2]
	ar, _, _ := c.Walk(2, nil)
	in := Inter(append(areas, ar)...)
	if got, want := a.FormatSub(in), "2-e->3"; got != want {
		t.Errorf("Inter(e,dddc,ε): got %s, want %s", got, want)
	}
	if a.HasAcceptingPath(in) {
		t.Error("Inter(e,dddc,ε) has an accepting path")
	}
}

func TestPaperVerdicts(t *testing.T) {
	a, locs := paperNFA(t)
	for _, opt := range []CheckerOptions{{}, {NoPruning: true}} {
		c, err := NewChecker(a, locs, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			mt, as, ac, asPrefix string
		}{
			{"e,dddc,bb", "Fail CentralError", "Fail Error", "WeakPass"},                // Example 7
			{"e,dddc,", "Fail InterError", "Fail Error", "WeakPass"},                    // Example 8
			{"e,cd,bbbb", "Fail LocalError(1@1)", "Fail Error", "Fail LocalError(1@1)"}, // Example 3
			{"e,dc,b", "Pass", "Pass", "Pass"},
			{"e,dddc,bbb", "Pass", "Pass", "Pass"},
			{"a,,", "Pass", "Pass", "Pass"},
			{",,", "Fail LocalError(0@0)", "Fail Error", "WeakPass"},
			{"a,c,", "Fail CentralError", "Fail Error", "Fail CentralError"},
			{"e,d,", "Fail LocalError(1@1)", "Fail Error", "WeakPass"}, // b.d.c.e
			{",dd,b", "Fail LocalError(0@0,1@2)", "Fail Error", "WeakPass"},
			{",dd,bbb", "Fail LocalError(0@0,1@2)", "Fail Error", "WeakPass"},
			{"a,,b", "Fail CentralError", "Fail Error", "Fail CentralError"},
			{"e,dc,bb", "Fail CentralError", "Fail Error", "Fail CentralError"},
		} {
			mt := multi(t, locs, tc.mt)
			if got := c.CheckAS(mt, Accept).String(); got != tc.as {
				t.Errorf("AS(%s) = %s, want %s", tc.mt, got, tc.as)
			}
			if got := c.CheckAC(mt, Accept).String(); got != tc.ac {
				t.Errorf("AC(%s) = %s, want %s", tc.mt, got, tc.ac)
			}
			if got := c.CheckAS(mt, Prefix).String(); got != tc.asPrefix {
				t.Errorf("AS prefix(%s) = %s, want %s", tc.mt, got, tc.asPrefix)
			}
			if got, want := c.CheckAC(mt, Prefix).Verdict, c.CheckAS(mt, Prefix).Verdict; got != want {
				t.Errorf("AC prefix(%s) = %s, AS prefix %s", tc.mt, got, want)
			}
		}
	}
}
