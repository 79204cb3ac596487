package nfa

import (
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// FuzzTimbukWholeInput: a .timbuk file that parses was consumed whole (see
// testutil.WholeInput): a byte that no text has, wherever it is, is an
// error, and so is a negative arity.
func FuzzTimbukWholeInput(f *testing.F) {
	head := "Ops a:1 b:1 x:0\nAutomaton A\nStates q0 q1\nFinal States q1\nTransitions\n"
	for _, s := range []string{
		head + "x -> q0\na(q0) -> q1\n", head + "x -> q0\n# done\n", "Ops a:-1 x:0\n" + head[16:],
		"\ufeff" + head, head + "x -> q0\n\x01", "Ops a:1\nStates q\x000\nTransitions\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		testutil.WholeInput(t, src, func(src []byte) error {
			_, err := ParseTimbuk("fuzz.timbuk", src)
			return err
		}, testutil.Trailers)
	})
}

// FuzzLetterTracesWholeInput: a file of letter traces that parses was
// consumed whole (see testutil.WholeInput).
func FuzzLetterTracesWholeInput(f *testing.F) {
	_, locs := paperNFA(f)
	for _, s := range []string{"# Example 7\nL1: e\nL2: d.d.d c\n\nL3: b b\n", "", "L1: e # no comment\n", "L3: b\xff\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		testutil.WholeInput(t, src, func(src []byte) error {
			_, err := ParseLetterTraces("fuzz.txt", src, locs)
			return err
		}, testutil.Trailers)
	})
}
