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

// TestDeepNesting: terms nested deep go through the parser, the resolver,
// the printers, Simplify and one step, with no stack overflow and at a cost
// linear in the depth (a left-nested chain is right-nested once, not once
// per level), measured at a depth and an eighth of it: MaxNesting with
// -tags sweep, 2,000 without. One level more than MaxNesting is an error
// (TestTooDeep).
func TestDeepNesting(t *testing.T) {
	depth := 1000
	if testutil.Sweep() {
		depth = MaxNesting
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
			testutil.Linear(t, depth, func(d int) func() {
				if tc.name == "alternating" {
					d /= 2 // two levels per repetition
				}
				src := nested(tc.open, tc.leaf, tc.close, d)
				return func() { checkEverything(t, src, tc.frontier) }
			})
		})
	}
}

// TestTooDeep: one level deeper than the bound is an error at the operator
// that goes too deep, for .hif, legacy .hsf and ParseTerm. The bound is
// MaxNesting with -tags sweep (four parses of seconds, for the stack) and
// lowered to 2,000 without.
func TestTooDeep(t *testing.T) {
	// Not parallel: it may lower maxNesting, which parallel tests read.
	limit := 2000
	if testutil.Sweep() {
		limit = MaxNesting
	} else {
		defer func(old int) { maxNesting = old }(maxNesting)
		maxNesting = limit
	}
	src := nested("seq(", "o", ", o)", limit+1)
	want := fmt.Sprintf("deep.hif:1:%d: operators nested more than %d deep", 4*limit+1, limit)
	if _, err := ParseHIF("deep.hif", src); err == nil || err.Error() != want {
		t.Errorf("ParseHIF: %v, want %s", err, want)
	}
	hsf := append([]byte("@lifeline{a}\n@message{m}\n"), nested("loop S(", "o", ")", limit+1)...)
	want = fmt.Sprintf("deep.hsf:3:%d: operators nested more than %d deep", 7*limit+1, limit)
	if _, err := ParseHSF("deep.hsf", hsf); err == nil || err.Error() != want {
		t.Errorf("ParseHSF: %v, want %s", err, want)
	}
	st := NewStore(testSignature(t))
	want = fmt.Sprintf("term:1:%d: term nested more than %d deep", 6*(limit+1)+1, limit)
	if _, err := st.ParseTerm(string(nested("loopS(", "a!m", ")", limit+1))); err == nil || err.Error() != want {
		t.Errorf("ParseTerm: %v, want %s", err, want)
	}
	// Unclosed: the error is at the end of the file, after the depth check.
	src = nested("seq(", "", "", limit)
	want = fmt.Sprintf("deep.hif:1:%d: expected an interaction", 4*limit+1)
	if _, err := ParseHIF("deep.hif", src); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ParseHIF: %v, want %s...", err, want)
	}
}

// TestWideTerms: n-ary operators with many operands are right-nested terms
// as deep; printing them flattens them back. The cost is linear in the
// width, measured at a width and an eighth of it: 100,000 operands with
// -tags sweep, 2,000 without.
func TestWideTerms(t *testing.T) {
	width := 2000
	if testutil.Sweep() {
		width = 100_000
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
			testutil.Linear(t, width, func(w int) func() {
				src := repeat(tc.op+"(", tc.leaf+",\n", w-1, "b -- n -> a)")
				return func() {
					checkEverything(t, src, tc.frontier)
					// The syntax tree keeps the operands in one list.
					n, _ := ParseHIF("wide.hif", src)
					if len(n.Args) != w {
						t.Errorf("%d operands, want %d", len(n.Args), w)
					}
				}
			})
		})
	}
}

// TestLargeInputs: large inputs, valid or not, end in an error or a result,
// at a cost linear in their size, measured at a size and an eighth of it.
// Inputs that fail early are 100 MB with -tags sweep (512 KB without);
// valid inputs, whose syntax tree and terms take about 100 bytes per input
// byte, are 24 MB (about 2.5 GB of memory) with -tags sweep (256 KB
// without).
func TestLargeInputs(t *testing.T) {
	big, valid := 128<<10, 64<<10
	if testutil.Sweep() {
		big, valid = 100<<20, 24<<20
	}
	sig := testSignature(t)
	type input struct {
		src []byte
		err string // the error's suffix; "" for none
	}
	tests := []struct {
		name  string
		input func(big, valid int) input
	}{
		{"binary garbage", func(big, _ int) input {
			return input{bytes.Repeat([]byte{0xff, 0x00, 0xfe, 0x01}, big/4), "deep.hif:1:1: invalid UTF-8 byte 0xff: not a text file?"}
		}},
		{"garbage after a valid prefix", func(big, _ int) input {
			return input{append([]byte("seq(a -- m -> b,\n\t"), bytes.Repeat([]byte{0, 1, 2, 3}, big/4)...),
				"deep.hif:2:2: unexpected control character U+0000"}
		}},
		{"valid prefix and lines of garbage", func(big, _ int) input {
			return input{repeat("alt(a -- m -> b,\n", "@#!\n", big/4, ""), "deep.hif:2:1: " + expInteraction + ", found '@'"}
		}},
		{"zero bytes", func(big, _ int) input {
			return input{make([]byte, big), "deep.hif:1:1: unexpected control character U+0000"}
		}},
		{"whitespace", func(big, _ int) input {
			return input{bytes.Repeat([]byte(" \t\r\n"), big/4), fmt.Sprintf("deep.hif:%d:1: empty file: expected an interaction term", big/4+1)}
		}},
		// Error messages show the first 64 bytes of a long name.
		{"one long name", func(big, _ int) input {
			return input{bytes.Repeat([]byte("a"), big), fmt.Sprintf("deep.hif:1:%d: expected '(' after operator %[2]s, "+
				"or '--'/'->' after the name %[2]s of a message, found end of file", big+1, `"`+strings.Repeat("a", 64)+fmt.Sprintf(`"... (%d bytes)`, big))}
		}},
		{"long undeclared name", func(big, _ int) input {
			return input{repeat("seq(o, ", "é", big/2, " -- m -> a)"), fmt.Sprintf("deep.hif:1:8: undeclared lifeline or gate %s (add it to @lifeline or @gate in the signature)",
				`"`+strings.Repeat("é", 32)+fmt.Sprintf(`"... (%d bytes)`, big/2*2))}
		}},
		{"unterminated comment", func(big, _ int) input {
			return input{repeat("seq(o, /*", "*", big, ""), "deep.hif:1:8: comment not terminated: missing '*/'"}
		}},
		{"long comment", func(big, _ int) input { return input{repeat("seq(o, /*", "* /", big/3, "*/ a -- m -> b)"), ""} }},
		{"many comments", func(big, _ int) input { return input{repeat("seq(o, ", "/**/", big/4, "o)"), ""} }},
		// Unclosed: at least one level more than MaxNesting.
		{"unclosed", func(big, _ int) input {
			return input{repeat("", "seq(o, ", max(big/7, MaxNesting+1), ""), fmt.Sprintf("deep.hif:1:%d: operators nested more than %d deep", 7*MaxNesting+1, MaxNesting)}
		}},
		{"many operands", func(_, valid int) input { return input{repeat("seq(", "a -- m -> b,\n", valid/13, "o)"), ""} }},
		{"many operands, error at the end", func(_, valid int) input {
			return input{repeat("seq(", "a -- m -> b,\n", valid/13, "a -- m -> z)"),
				fmt.Sprintf("deep.hif:%d:11: undeclared lifeline or gate \"z\" (add it to @lifeline or @gate in the signature)", valid/13+1)}
		}},
		{"many receivers", func(_, valid int) input { return input{repeat("a -- m -> (b", ",c", valid/2, ")"), ""} }},
		{"many coregion lifelines", func(_, valid int) input { return input{repeat("coreg(a", ",b", valid/2, ")(o, o)"), ""} }},
	}
	parse := func(t *testing.T, in input) {
		t.Helper()
		n, err := ParseHIF("deep.hif", in.src)
		if err == nil {
			st := NewStore(sig)
			var term Term
			term, err = st.Resolve("deep.hif", n)
			if err == nil {
				st.Simplify(term)
			}
		}
		switch {
		case in.err == "" && err != nil:
			t.Fatal(err)
		case in.err != "" && (err == nil || !strings.HasSuffix(err.Error(), in.err)):
			t.Fatalf("error %.300v\nwant ...%s", err, in.err)
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "unclosed" && big/7 <= MaxNesting+1 {
				// Below the sweep's sizes, both sizes would nest
				// MaxNesting+1 operators, the input of TestTooDeep (a
				// parse of seconds, for the stack): nothing to compare.
				t.Skip("the sizes of the sweep only (go test -tags sweep); TestTooDeep checks the error")
			}
			testutil.Linear(t, valid, func(n int) func() {
				in := tc.input(int(int64(n)*int64(big)/int64(valid)), n) // n is the size of a valid input
				return func() { parse(t, in) }
			})
		})
	}
}
