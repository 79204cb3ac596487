package infer

import (
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// letters returns the alphabet of the items named by single letters, and
// the word of s over it: the letter x is the message x from lifeline 0
// to lifeline 1.
func letters(a *alphabet, s string) []int {
	var w []int
	for _, c := range s {
		w = append(w, a.itemUnit(item{from: 0, to: 1, msg: interaction.MessageID(c - 'a')}))
	}
	return w
}

// dump writes e compactly: a letter per item, (x y)* a loop, [x | y] an
// alt, ∅.
func dump(a *alphabet, e *expr) string {
	switch {
	case e == nil:
		return "∅"
	case e.loop:
		return "(" + dump(a, e.args[0]) + ")*"
	case e.args != nil:
		parts := make([]string, len(e.args))
		for i, x := range e.args {
			parts[i] = dump(a, x)
		}
		if e.alt {
			return "[" + strings.Join(parts, " | ") + "]"
		}
		return strings.Join(parts, " ")
	}
	return string(rune('a' + a.units[e.unit].item.msg))
}

func TestDraftOfWords(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"abc"}, "a b c"},
		{[]string{"ababab"}, "(a b)*"},
		{[]string{"xabababy"}, "x (a b)* y"},
		{[]string{"aaabab"}, "(a)* b (a)* b"},                    // the shortest blocks first; a loop's body is the loop everywhere
		{[]string{"abcabcd", "abcd"}, "(a b c)* d"},              // one iteration has the loop's shape
		{[]string{"xababy", "xy"}, "x (a b)* y"},                 // and none too
		{[]string{"abcx", "abdx"}, "a b [c | d] x"},              // common prefix and suffix
		{[]string{"ab", "abc"}, "a b [c | ∅]"},                   // a word is another's prefix
		{[]string{"acd", "ace", "bcd"}, "[a c [d | e] | b c d]"}, // grouped by first unit
	} {
		a := newAlphabet()
		var words [][]int
		for _, s := range tc.words {
			words = append(words, a.fold(letters(a, s)))
		}
		var shapes [][]int
		seen := map[string]bool{}
		for _, w := range words {
			w = a.generalize(w)
			if !seen[wordKey(w)] {
				seen[wordKey(w)] = true
				shapes = append(shapes, w)
			}
		}
		m := &merger{a: a, maxBranches: DefaultMaxBranches}
		if got := dump(a, m.merge(shapes)); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.words, got, tc.want)
		}
	}
}

// TestWiden: past maxBranches, the branches become a loop over their
// units.
func TestWiden(t *testing.T) {
	a := newAlphabet()
	words := [][]int{letters(a, "xa"), letters(a, "xb"), letters(a, "xcd")}
	m := &merger{a: a, maxBranches: 2}
	if got, want := dump(a, m.merge(words)), "x ([a | b | c | d])*"; got != want || m.widened != 1 {
		t.Errorf("got %s (widened %d), want %s", got, m.widened, want)
	}
}

// TestShape: receptions meet earlier emissions of their message; a
// self-message's two ends stay on its lifeline when it is split.
func TestShape(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a", "b"}, []string{"m", "n", "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ htf, want string }{
		{"[a] a!m.a?n; [b] b?m.b!n;", "a -m-> b, b -n-> a"},
		{"[a] a?x; [b] ;", "env -x-> a"},
		{"[a] a!x; [b] ;", "a -x-> env"},
		// Crossing messages: a sends m then n, b receives n then m.
		{"[a] a!m.a!n; [b] b?n.b?m;", "a -m-> env, a -n-> b, env -m-> b"},
		// A self-message, and one around another message, which crosses
		// it: its ends are split, each on its lifeline.
		{"[a] a!m.a?m.a!n; [b] b?n;", "a -m-> a, a -n-> b"},
		{"[a] a!m.a!n.a?m; [b] b?n;", "a -m-> env, a -n-> b, env -m-> a"},
		{"[a] a!m.a?n.a?m; [b] b!n;", "a -m-> env, b -n-> a, env -m-> a"},
	} {
		mt, err := multitrace.ParseResolve("t.htf", []byte("{"+tc.htf+"}"), sig)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range shape(mt, len(sig.Lifelines)) {
			end := func(l int) string {
				if l == env {
					return "env"
				}
				return sig.Lifelines[l]
			}
			got = append(got, end(it.from)+" -"+sig.Messages[it.msg]+"-> "+end(it.to))
		}
		if g := strings.Join(got, ", "); g != tc.want {
			t.Errorf("%s: got %s, want %s", tc.htf, g, tc.want)
		}
	}
}

// TestShrink: past maxArrows, the largest alts become loops over their
// items, until none but alts of single arrows is left.
func TestShrink(t *testing.T) {
	for _, tc := range []struct {
		max  int
		want string
	}{
		{20, "x [a b | c d | e f] y"},
		{7, "x ([a | b | c | d | e | f])* y"},
		{2, "x ([a | b | c | d | e | f])* y"},
	} {
		a := newAlphabet()
		words := [][]int{letters(a, "xaby"), letters(a, "xcdy"), letters(a, "xefy")}
		m := &merger{a: a, maxBranches: DefaultMaxBranches}
		if got := dump(a, m.shrink(m.merge(words), tc.max)); got != tc.want {
			t.Errorf("max %d: got %s, want %s", tc.max, got, tc.want)
		}
	}
}
