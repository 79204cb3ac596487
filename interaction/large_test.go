package interaction

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// repeat returns prefix, n copies of unit, and suffix.
func repeat(prefix, unit string, n int, suffix string) []byte {
	b := make([]byte, 0, len(prefix)+n*len(unit)+len(suffix))
	b = append(b, prefix...)
	for range n {
		b = append(b, unit...)
	}
	return append(b, suffix...)
}

// nested returns open n times, then leaf, then close n times.
func nested(open, leaf, close string, n int) []byte {
	var b bytes.Buffer
	b.Grow(n*(len(open)+len(close)) + len(leaf))
	for range n {
		b.WriteString(open)
	}
	b.WriteString(leaf)
	for range n {
		b.WriteString(close)
	}
	return b.Bytes()
}

// checkEverything runs src through every function that walks a whole term
// or syntax tree, and checks the round trips:
//   - FormatHIF(n) parses back to n, and prints the same;
//   - FormatHIF(Syntax(t)) parses and resolves back to t;
//   - Format(t) parses back to t with ParseTerm;
//   - Simplify(t) gives a term that FormatTerm prints and whose frontier
//     can be computed and executed (when frontier is set: the frontier of a
//     long par or alt chain is quadratic to compute, one list per suffix).
func checkEverything(t *testing.T, src []byte, frontier bool) {
	t.Helper()
	sig := testSignature(t)
	n, err := ParseHIF("deep.hif", src)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore(sig)
	term, err := st.Resolve("deep.hif", n)
	if err != nil {
		t.Fatal(err)
	}
	printed := FormatHIF(n)
	again, err := ParseHIF("printed.hif", printed)
	if err != nil {
		t.Fatalf("reparsing FormatHIF: %v", err)
	}
	if !nodeEqual(n, again) {
		t.Fatal("FormatHIF does not parse back to the same syntax tree")
	}
	if !bytes.Equal(FormatHIF(again), printed) {
		t.Fatal("FormatHIF is not idempotent")
	}
	fromTerm, err := ParseHIF("term.hif", []byte(st.FormatTerm(term)))
	if err != nil {
		t.Fatalf("reparsing FormatTerm: %v", err)
	}
	if t2, err := st.Resolve("term.hif", fromTerm); err != nil || t2 != term {
		t.Fatalf("FormatTerm does not resolve back to the term (%v)", err)
	}
	// Format writes every operator binary, and messages as strict(a!m,b?m):
	// its output may nest deeper than ParseTerm accepts.
	if t2, err := st.ParseTerm(st.Format(term)); err != nil && !strings.Contains(err.Error(), "nested more than") ||
		err == nil && t2 != term {
		t.Fatalf("Format does not parse back to the term (%v)", err)
	}
	simple := st.Simplify(term)
	if st.Simplify(simple) != simple {
		t.Fatal("Simplify is not idempotent")
	}
	if len(st.FormatTerm(simple)) == 0 || len(st.Format(simple)) == 0 {
		t.Fatal("empty printing")
	}
	if frontier {
		// Engines step simplified terms: a step of a raw left-nested chain
		// builds a canonical chain at every level (quadratic).
		for _, x := range []Term{simple} {
			if k := st.NumFrontier(x); k == 0 {
				t.Fatalf("empty frontier of %.80s", st.Format(x))
			}
			st.Frontier(x)
			next := st.Step(x, 0)
			// A step in a loop unfolds it; elsewhere it consumes an action.
			if st.LoopDepth(x) == 0 && st.NumActions(next) >= st.NumActions(x) {
				t.Fatalf("a step leaves %d of %d actions", st.NumActions(next), st.NumActions(x))
			}
		}
	}
}

// TestDeepNesting: terms nested MaxNesting deep go through the parser, the
// resolver, the printers, Simplify and one step, with no stack overflow and
// in linear time (a left-nested chain is right-nested once, not once per
// level); one level more is a positioned error.
func TestDeepNesting(t *testing.T) {
	depth := MaxNesting
	if testing.Short() {
		depth = MaxNesting / 10
	}
	tests := []struct {
		name              string
		open, leaf, close string
		frontier          bool
	}{
		{"left-nested seq", "seq(", "a -- m -> b", ", b -- n -> c)", true},
		{"right-nested strict", "strict(a -- m -> b, ", "c -- n ->|", ")", true},
		{"left-nested par", "par(", "a -- m -> b", ", m -> c)", false},
		{"right-nested alt", "alt(a -- m ->|, ", "o", ")", false},
		{"coreg", "coreg(a)(m -> a, ", "b -- n -> a", ")", false},
		{"sync", "sync(a!m)(", "a -- m -> b", ", a -- m -> c)", false},
		{"loops", "loopW(", "a -- m -> b", ")", true},
		{"loop S", "loop S(", "a -- m -> b", ")", true},
		{"alternating", "seq(b -- n ->|, par(m -> c, ", "a -- m -> b", "))", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := depth
			if tc.name == "alternating" {
				d /= 2 // two levels per repetition
			}
			checkEverything(t, nested(tc.open, tc.leaf, tc.close, d), tc.frontier)
		})
	}
}

// TestTooDeep: one level deeper than MaxNesting is an error at the operator
// that goes too deep, for .hif, legacy .hsf and ParseTerm.
func TestTooDeep(t *testing.T) {
	src := nested("seq(", "o", ", o)", MaxNesting+1)
	want := fmt.Sprintf("deep.hif:1:%d: operators nested more than %d deep", 4*MaxNesting+1, MaxNesting)
	if _, err := ParseHIF("deep.hif", src); err == nil || err.Error() != want {
		t.Errorf("ParseHIF: %v, want %s", err, want)
	}
	hsf := append([]byte("@lifeline{a}\n@message{m}\n"), nested("loop S(", "o", ")", MaxNesting+1)...)
	want = fmt.Sprintf("deep.hsf:3:%d: operators nested more than %d deep", 7*MaxNesting+1, MaxNesting)
	if _, err := ParseHSF("deep.hsf", hsf); err == nil || err.Error() != want {
		t.Errorf("ParseHSF: %v, want %s", err, want)
	}
	st := NewStore(testSignature(t))
	want = fmt.Sprintf("term:1:%d: term nested more than %d deep", 6*(MaxNesting+1)+1, MaxNesting)
	if _, err := st.ParseTerm(string(nested("loopS(", "a!m", ")", MaxNesting+1))); err == nil || err.Error() != want {
		t.Errorf("ParseTerm: %v, want %s", err, want)
	}
	// Unclosed: the error is at the end of the file, after the depth check.
	src = nested("seq(", "", "", MaxNesting)
	want = fmt.Sprintf("deep.hif:1:%d: expected an interaction", 4*MaxNesting+1)
	if _, err := ParseHIF("deep.hif", src); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ParseHIF: %v, want %s...", err, want)
	}
}

// TestWideTerms: n-ary operators with 100,000 operands are right-nested
// terms 100,000 deep; printing them flattens them back.
func TestWideTerms(t *testing.T) {
	width := 100_000
	if testing.Short() {
		width /= 10
	}
	for _, tc := range []struct {
		op, leaf string
		frontier bool
	}{
		{"seq", "a -- m -> b", true},
		{"seq", "m -> b", true}, // written m -> (b,b,...) by Syntax
		{"strict", "a -- m -> (b,c)", true},
		{"par", "a -- m ->|", false},
		{"alt", "m -> c", false},
		{"coreg(b)", "a -- m -> b", true},
	} {
		t.Run(tc.op+" "+tc.leaf, func(t *testing.T) {
			src := repeat(tc.op+"(", tc.leaf+",\n", width-1, "b -- n -> a)")
			checkEverything(t, src, tc.frontier)
			// The syntax tree keeps the operands in one list.
			n, _ := ParseHIF("wide.hif", src)
			if len(n.Args) != width {
				t.Errorf("%d operands, want %d", len(n.Args), width)
			}
		})
	}
}

// TestLargeInputs: 100 MB inputs, valid or not, end in an error or a
// result, in time linear in their size. Inputs that fail early are 100 MB
// (10 MB with -short); valid inputs, whose syntax tree and terms take about
// 100 bytes per input byte, are 8 MB (24 MB, about 2.5 GB of memory, with
// -tags sweep or IVC_SWEEP=1).
func TestLargeInputs(t *testing.T) {
	big, valid := 100<<20, 8<<20
	if testing.Short() {
		big, valid = big/10, valid/10
	}
	if testutil.Sweep() {
		valid = 24 << 20
	}
	sig := testSignature(t)
	tests := []struct {
		name string
		src  []byte
		err  string // the error's suffix; "" for none
	}{
		{"binary garbage", bytes.Repeat([]byte{0xff, 0x00, 0xfe, 0x01}, big/4), "deep.hif:1:1: invalid UTF-8 byte 0xff: not a text file?"},
		{"garbage after a valid prefix", append([]byte("seq(a -- m -> b,\n\t"), bytes.Repeat([]byte{0, 1, 2, 3}, big/4)...),
			"deep.hif:2:2: unexpected control character U+0000"},
		{"valid prefix and lines of garbage", repeat("alt(a -- m -> b,\n", "@#!\n", big/4, ""), "deep.hif:2:1: " + expInteraction + ", found '@'"},
		{"zero bytes", make([]byte, big), "deep.hif:1:1: unexpected control character U+0000"},
		{"whitespace", bytes.Repeat([]byte(" \t\r\n"), big/4), fmt.Sprintf("deep.hif:%d:1: empty file: expected an interaction term", big/4+1)},
		// Error messages show the first 64 bytes of a long name.
		{"one long name", bytes.Repeat([]byte("a"), big), fmt.Sprintf("deep.hif:1:%d: expected '(' after operator %[2]s, "+
			"or '--'/'->' after the name %[2]s of a message, found end of file", big+1, `"`+strings.Repeat("a", 64)+fmt.Sprintf(`"... (%d bytes)`, big))},
		{"long undeclared name", repeat("seq(o, ", "é", big/2, " -- m -> a)"), fmt.Sprintf("deep.hif:1:8: undeclared lifeline or gate %s (add it to @lifeline or @gate in the signature)",
			`"`+strings.Repeat("é", 32)+fmt.Sprintf(`"... (%d bytes)`, big/2*2))},
		{"unterminated comment", repeat("seq(o, /*", "*", big, ""), "deep.hif:1:8: comment not terminated: missing '*/'"},
		{"long comment", repeat("seq(o, /*", "* /", big/3, "*/ a -- m -> b)"), ""},
		{"many comments", repeat("seq(o, ", "/**/", big/4, "o)"), ""},
		{"unclosed", repeat("", "seq(o, ", big/7, ""), fmt.Sprintf("deep.hif:1:%d: operators nested more than %d deep", 7*MaxNesting+1, MaxNesting)},
		{"many operands", repeat("seq(", "a -- m -> b,\n", valid/13, "o)"), ""},
		{"many operands, error at the end", repeat("seq(", "a -- m -> b,\n", valid/13, "a -- m -> z)"),
			fmt.Sprintf("deep.hif:%d:11: undeclared lifeline or gate \"z\" (add it to @lifeline or @gate in the signature)", valid/13+1)},
		{"many receivers", repeat("a -- m -> (b", ",c", valid/2, ")"), ""},
		{"many coregion lifelines", repeat("coreg(a", ",b", valid/2, ")(o, o)"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := ParseHIF("deep.hif", tc.src)
			if err == nil {
				st := NewStore(sig)
				var term Term
				term, err = st.Resolve("deep.hif", n)
				if err == nil {
					st.Simplify(term)
				}
			}
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.err)):
				t.Fatalf("error %.300v\nwant ...%s", err, tc.err)
			}
		})
	}
}
