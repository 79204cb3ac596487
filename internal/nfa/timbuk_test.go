package nfa

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// TestTimbukBenchmarks reads the four NFAs of the automata paper's Table 1.
// (The paper prints NFA2 with 35 states and NFA3 with 15: the files have
// them the other way round.)
func TestTimbukBenchmarks(t *testing.T) {
	dir := filepath.Join(testutil.Shared(t), "benchmarks", "automatark")
	for _, tc := range []struct {
		name        string
		states, tr  int
		initial     int
		letters, fi int
	}{
		{"nfa1", 94, 320, 1, 19, 1},
		{"nfa2", 15, 22, 1, 19, 2},
		{"nfa3", 35, 75, 1, 19, 1},
		{"nfa4", 124, 348, 2, 19, 1},
	} {
		src, err := os.ReadFile(filepath.Join(dir, tc.name+".timbuk"))
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseTimbuk(tc.name+".timbuk", src)
		if err != nil {
			t.Fatal(err)
		}
		if a.NumStates() != tc.states || a.NumTransitions() != tc.tr || len(a.Initial()) != tc.initial ||
			a.Symbols().Len() != tc.letters || a.NumFinal() != tc.fi {
			t.Errorf("%s: %d states, %d transitions, %d initial, %d letters, %d final; want %+v", tc.name,
				a.NumStates(), a.NumTransitions(), len(a.Initial()), a.Symbols().Len(), a.NumFinal(), tc)
		}
		if a.Label(0) != "q0" {
			t.Errorf("%s: state 0 is labelled %q", tc.name, a.Label(0))
		}
	}
}

func TestTimbukErrors(t *testing.T) {
	head := "Ops a:1 b:1 x:0\nAutomaton A\nStates q0 q1\nFinal States q1\nTransitions\n"
	for _, tc := range []struct{ src, want string }{
		{head + "x -> q0\na(q0) -> q1\n", ""},
		{head + "x -> q0\nc(q0) -> q1\n", `t.timbuk:7:1: undeclared operator "c"`},
		{head + "x -> q0\na(q0) -> q9\n", `t.timbuk:7:10: undeclared state "q9"`},
		{head + "x -> q0\na(q7) -> q1\n", `t.timbuk:7:3: undeclared state "q7"`},
		{head + "x(q0) -> q0\n", "t.timbuk:6:1: operator x has arity 0: expected x -> q"},
		{head + "a -> q0\n", "t.timbuk:6:1: operator a has arity 1: expected a(q) -> p"},
		{head + "x q0\n", "t.timbuk:6:1: expected a transition"},
		{"Ops f:2\n", "t.timbuk:1:5: operator f has arity 2: only word automata"},
		{"States q0\n", "t.timbuk:1:1: States before Ops"},
		{"Ops a:1\nStates q0\nFinal States q1\n", `t.timbuk:3:14: undeclared state "q1"`},
		{"Ops a:1\nStates q0\n", "t.timbuk:3:1: missing Transitions section"},
		{"Ops a:one\n", `t.timbuk:1:5: expected an operator name:arity, found "a:one"`},
		{"hello\n", `t.timbuk:1:1: unexpected "hello"`},
		// A negative arity is no arity.
		{"Ops a:-1 x:0\n", "t.timbuk:1:5: operator a has arity -1: an arity is 0 or 1"},
		// A byte order mark is skipped; columns start after it.
		{"\ufeff" + head + "x -> q0\n", ""},
		{"\ufeffOps a:one\n", `t.timbuk:1:5: expected an operator name:arity, found "a:one"`},
		// Bytes that no text file has are errors, wherever they are.
		{head + "x -> q0\n\x01", "t.timbuk:7:1: unexpected control character U+0001"},
		{"Ops a:1\nStates q\x000\n", "t.timbuk:2:9: unexpected control character U+0000"},
		{head + "x -> q0 \xff\n", "t.timbuk:6:9: invalid UTF-8 byte 0xff"},
		{head + "x -> q0\n\ufeff", `t.timbuk:7:1: expected a transition`},
	} {
		_, err := ParseTimbuk("t.timbuk", []byte(tc.src))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.src, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%q: got %v, want %s...", tc.src, err, tc.want)
		}
	}
}

func TestLetterTraces(t *testing.T) {
	_, locs := paperNFA(t)
	src := "# Example 7\nL1: e\nL2: d.d.d c\n\nL3: b b\n"
	mt, err := ParseLetterTraces("ex7.txt", []byte(src), locs)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := FormatLetterTraces(locs, mt), "L1: e\nL2: d d d c\nL3: b b\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if bom, err := ParseLetterTraces("ex7.txt", []byte("\ufeff"+src), locs); err != nil || !slices.EqualFunc(bom, mt, slices.Equal) {
		t.Errorf("with a byte order mark: %v, %v", bom, err)
	}
	for _, tc := range []struct{ src, want string }{
		{"L4: a\n", `x.txt:1:1: unknown location "L4"`},
		{"L1: a\nL1: e\n", "x.txt:2:1: location L1 already has a trace, line 1"},
		{"L1: a b\n", "x.txt:1:7: letter b is observed at L3, not at L1"},
		{"L1: a z\n", `x.txt:1:7: unknown letter "z"`},
		{"a b\n", "x.txt:1:1: expected 'LOCATION: letters...'"},
		{"L1: e\n\x00", "x.txt:2:1: unexpected control character U+0000"},
		{"L1: e\xff\n", "x.txt:1:6: invalid UTF-8 byte 0xff"},
		{"\ufeffL1: z\n", `x.txt:1:5: unknown letter "z"`},
	} {
		_, err := ParseLetterTraces("x.txt", []byte(tc.src), locs)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s...", tc.src, err, tc.want)
		}
	}
}

// TestTables checks that the exported tables are the checker's: walking
// them gives Area(dddc) of Fig. 5b.
func TestTables(t *testing.T) {
	a, locs := paperNFA(t)
	c, err := NewChecker(a, locs, CheckerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tb := c.Tables()
	if len(tb.Projs) != 3 || tb.NumStates != 5 || len(tb.Trans) != 7 {
		t.Fatalf("tables: %d locations, %d states, %d transitions", len(tb.Projs), tb.NumStates, len(tb.Trans))
	}
	l := &tb.Projs[1]
	tw := nwords(len(tb.Trans))
	area := append(Bits(nil), l.Init...)
	q := l.Start
	for _, x := range letters(t, locs, 1, "dddc") {
		i := int(q)*l.K + int(x)
		orInto(area, l.Areas[int(l.AreaOf[i])*tw:][:tw])
		q = l.Next[i]
	}
	if got, want := a.FormatSub(area), "0-a->3 0-b->1 1-d->4 2-e->3 4-b->1 4-c->2"; got != want || !l.IsFinal(q) {
		t.Errorf("Area(dddc) from the tables: %s (final %v), want %s", got, l.IsFinal(q), want)
	}
}
