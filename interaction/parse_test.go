package interaction

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/syntax"
)

// testHSF is the signature of the table tests: three lifelines, two
// messages and two gates.
const testHSF = "@lifeline{a;b;c}\n@message{m;n}\n@gate{g;h}\n"

func testSignature(t testing.TB) *Signature {
	t.Helper()
	f, err := ParseHSF("sig.hsf", []byte(testHSF))
	if err != nil {
		t.Fatal(err)
	}
	sig, warnings, err := f.Signature("sig.hsf")
	if err != nil || warnings != nil {
		t.Fatal(err, warnings)
	}
	return sig
}

// parseResolve parses a .hif source and resolves it in a fresh store.
func parseResolve(sig *Signature, file, src string) (*Store, Term, error) {
	n, err := ParseHIF(file, []byte(src))
	if err != nil {
		return nil, 0, err
	}
	st := NewStore(sig)
	t, err := st.Resolve(file, n)
	return st, t, err
}

// TestDesugar checks how Resolve turns each construct of a .hif file into a
// term, printed by Store.Format: the message forms of the package
// documentation, gates, <synch>/<asynch>, n-ary operators nested to the
// right, loops, coreg and sync. Resolve builds terms as written: no
// ∅-simplification, no canonical rewriting.
func TestDesugar(t *testing.T) {
	sig := testSignature(t)
	tests := []struct{ src, want string }{
		// The empty interaction.
		{"o", "∅"},
		{"∅", "∅"},
		{"/* nothing */ o /* at all */", "∅"},
		// Messages.
		{"a -- m -> b", "strict(a!m,b?m)"},
		{"a--m->b", "strict(a!m,b?m)"},
		{"a -- m -> (b)", "strict(a!m,b?m)"},
		{"a -- m -> (b,c)", "strict(a!m,seq(b?m,c?m))"},
		{"a -- m -> ( b , c , a )", "strict(a!m,seq(b?m,seq(c?m,a?m)))"},
		{"a -- m ->|", "a!m"},
		{"a -- m -> |", "a!m"},
		{"m -> b", "b?m"},
		{"m -> (a,b)", "seq(a?m,b?m)"},
		{"m -> (a,b,c)", "seq(a?m,seq(b?m,c?m))"},
		// <synch>: one multi-action; <asynch> is the default.
		{"a -- <synch>m -> b", "{a!m,b?m}"},
		{"a -- <synch>m -> (b,c)", "{a!m,b?m,c?m}"},
		{"a -- <synch>m -> (c,b)", "{a!m,b?m,c?m}"},
		{"a -- < synch > m -> b", "{a!m,b?m}"},
		{"<synch>m -> (a,b)", "{a?m,b?m}"},
		{"<synch>m -> b", "b?m"},
		{"a -- <synch>m ->|", "a!m"},
		{"a -- <asynch>m -> b", "strict(a!m,b?m)"},
		{"a -- <asynch>m -> (b,c)", "strict(a!m,seq(b?m,c?m))"},
		{"<asynch>m -> b", "b?m"},
		// A broadcast may reach a lifeline twice when asynchronous.
		{"a -- m -> (b,b)", "strict(a!m,seq(b?m,b?m))"},
		// Gates are the environment: they leave no action.
		{"g -- m -> b", "b?m"},
		{"g -- m -> (a,b)", "seq(a?m,b?m)"},
		{"a -- m -> g", "a!m"},
		{"a -- m -> (b,g)", "strict(a!m,b?m)"},
		{"a -- m -> (g,b,h)", "strict(a!m,b?m)"},
		{"g -- <synch>m -> (a,b)", "{a?m,b?m}"},
		{"a -- <synch>m -> (g,b)", "{a!m,b?m}"},
		{"m -> (g,b)", "b?m"},
		// N-ary operators nest to the right.
		{"seq(o,o)", "seq(∅,∅)"},
		{"seq(a -- m ->|, b -- m ->|, c -- m ->|)", "seq(a!m,seq(b!m,c!m))"},
		{"strict(a -- m ->|, b -- m ->|, c -- m ->|, o)", "strict(a!m,strict(b!m,strict(c!m,∅)))"},
		{"par(a -- m ->|, b -- n ->|, c -- m ->|)", "par(a!m,par(b!n,c!m))"},
		{"alt(o, o, a -- m -> b)", "alt(∅,alt(∅,strict(a!m,b?m)))"},
		{"seq (o , o)", "seq(∅,∅)"},
		// Nesting as written is kept.
		{"seq(seq(a -- m ->|, b -- m ->|), c -- m ->|)", "seq(seq(a!m,b!m),c!m)"},
		{"seq(a -- m ->|, seq(b -- m ->|, c -- m ->|))", "seq(a!m,seq(b!m,c!m))"},
		{"alt(par(a -- m ->|, o), strict(m -> b, b -- n -> c))", "alt(par(a!m,∅),strict(b?m,strict(b!n,c?n)))"},
		// Loops.
		{"loopS(a -- m -> b)", "loopS(strict(a!m,b?m))"},
		{"loopH(a -- m -> b)", "loopH(strict(a!m,b?m))"},
		{"loopW(a -- m -> b)", "loopW(strict(a!m,b?m))"},
		{"loopP(a -- m -> b)", "loopP(strict(a!m,b?m))"},
		{"loop S(a -- m ->|)", "loopS(a!m)"},
		{"loop H(a -- m ->|)", "loopH(a!m)"},
		{"loop W (a -- m ->|)", "loopW(a!m)"},
		{"loop P(a -- m ->|)", "loopP(a!m)"},
		{"loopS(loopW(o))", "loopS(loopW(∅))"},
		// Coregions.
		{"coreg(a)(a -- m ->|, b -- n ->|)", "coreg(a)(a!m,b!n)"},
		{"coreg(b,a)(a -- m -> b, b -- n -> a, c -- m ->|)", "coreg(a,b)(strict(a!m,b?m),coreg(a,b)(strict(b!n,a?n),c!m))"},
		// Synchronizations.
		{"sync(a!m)(a -- m ->|, a -- m ->|)", "sync(a!m)(a!m,a!m)"},
		{"sync(b?m)(m -> b, m -> b)", "sync(b?m)(b?m,b?m)"},
		{"sync{a!m}(o, o)", "sync(a!m)(∅,∅)"},
		{"sync{b?m,a!m}(a -- m -> b, a -- m -> b)", "sync(a!m,b?m)(strict(a!m,b?m),strict(a!m,b?m))"},
		{"sync{a!m,b?m}(o, o, a -- m ->|)", "sync(a!m,b?m)(∅,sync(a!m,b?m)(∅,a!m))"},
		// Everything together, with comments and line breaks.
		{"seq( a -- m -> b , /* c */ alt(b -- n -> (a,c), o),\n  loopW( par(m -> a, c -- n ->|) ), g -- m -> c)",
			"seq(strict(a!m,b?m),seq(alt(strict(b!n,seq(a?n,c?n)),∅),seq(loopW(par(a?m,c!n)),c?m)))"},
	}
	for _, tc := range tests {
		st, term, err := parseResolve(sig, "t.hif", tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if got := st.Format(term); got != tc.want {
			t.Errorf("%q\n got %s\nwant %s", tc.src, got, tc.want)
		}
		// The term prints back to .hif text that means the same term.
		back, err := ParseHIF("back.hif", []byte(st.FormatTerm(term)))
		if err != nil {
			t.Errorf("%q: FormatTerm does not parse: %v\n%s", tc.src, err, st.FormatTerm(term))
			continue
		}
		if t2, err := st.Resolve("back.hif", back); err != nil || t2 != term {
			t.Errorf("%q: FormatTerm resolves to %s (%v)", tc.src, st.Format(t2), err)
		}
	}
}

// TestNamesLikeKeywords: operator names, o and the words of <synch> are
// labels where a lifeline or a message is expected.
func TestNamesLikeKeywords(t *testing.T) {
	names := []string{"o", "seq", "loop", "loopS", "and", "sync", "synch", "coreg"}
	sig, err := NewSignature(names, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ src, want string }{
		{"o -- o -> o", "strict(o!o,o?o)"},
		{"o -> seq", "seq?o"},
		{"seq -- seq -> (loop,and)", "strict(seq!seq,seq(loop?seq,and?seq))"},
		{"loop -- <synch>synch ->|", "loop!synch"},
		{"loopS(sync -- coreg -> o)", "loopS(strict(sync!coreg,o?coreg))"},
		{"coreg(o,and)(o, and -> o)", "coreg(o,and)(∅,o?and)"},
		{"sync(o!o)(o, o -- o ->|)", "sync(o!o)(∅,o!o)"},
	}
	for _, tc := range tests {
		st, term, err := parseResolve(sig, "t.hif", tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if got := st.Format(term); got != tc.want {
			t.Errorf("%q\n got %s\nwant %s", tc.src, got, tc.want)
		}
		n, _ := ParseHIF("t.hif", []byte(tc.src))
		again, err := ParseHIF("printed.hif", FormatHIF(n))
		if err != nil || !nodeEqual(n, again) {
			t.Errorf("%q: printed as %q, which parses to another node (%v)", tc.src, FormatHIF(n), err)
		}
	}
}

// TestParseHSF checks the sections of .hsf files: any order, repeated
// sections, trailing ';', comments, and the legacy single-file form.
func TestParseHSF(t *testing.T) {
	tests := []struct {
		src                        string
		lifelines, messages, gates string
		options                    []string // option sections, as in the source
		interaction                string   // FormatHIF of the legacy interaction, "" for none
	}{
		{src: "@message{m;n}@lifeline{a;b}", lifelines: "a,b", messages: "m,n"},
		{src: "@lifeline{a;b}\n@message{m;n}\n", lifelines: "a,b", messages: "m,n"},
		{src: "@gate{g}@lifeline{b;a}@message{n;m}", lifelines: "b,a", messages: "n,m", gates: "g"},
		{src: "@lifeline{a;b;}@message{m;}@gate{g;}", lifelines: "a,b", messages: "m", gates: "g"},
		{src: "@lifeline{a}@message{m}@lifeline{b}", lifelines: "a,b", messages: "m"},
		{src: "@lifeline{a}", lifelines: "a"},
		{src: "/* sig */ @lifeline /* x */ { a /* y */ ; b } /* after */\n", lifelines: "a,b"},
		{src: "@ lifeline { a }", lifelines: "a"},
		{src: "@lifeline{été;l_2;L3}@message{çà}", lifelines: "été,l_2,L3", messages: "çà"},
		// Legacy: options, signature and interaction in one file.
		{src: "@analyze_option{ strategy = DFS; filters = [max_depth = 3] }\n@message{m}\n@lifeline{a;b}\na -- m -> b",
			lifelines: "a,b", messages: "m",
			options:     []string{"@analyze_option{ strategy = DFS; filters = [max_depth = 3] }"},
			interaction: "a -- m -> b\n"},
		{src: "@explore_option{ a = { b } }@canonize_option{}@lifeline{a}@message{m} seq(o, m -> a)",
			lifelines: "a", messages: "m",
			options:     []string{"@explore_option{ a = { b } }", "@canonize_option{}"},
			interaction: "seq(\n\to,\n\tm -> a\n)\n"},
		{src: "@lifeline{a}@message{m}o", lifelines: "a", messages: "m", interaction: "o\n"},
		// Section names are names too.
		{src: "@lifeline{message;gate}@message{lifeline} gate -- lifeline -> message", lifelines: "message,gate",
			messages: "lifeline", interaction: "gate -- lifeline -> message\n"},
		{src: "@lifeline{a}@message{lifeline} lifeline -> a", lifelines: "a", messages: "lifeline", interaction: "lifeline -> a\n"},
	}
	for _, tc := range tests {
		src := tc.src
		f, err := ParseHSF("t.hsf", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		sig, warnings, err := f.Signature("t.hsf")
		if err != nil || warnings != nil {
			t.Errorf("%q: %v %v", src, err, warnings)
			continue
		}
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, ",")
		}
		if !slices.Equal(sig.Lifelines, split(tc.lifelines)) || !slices.Equal(sig.Messages, split(tc.messages)) ||
			!slices.Equal(sig.Gates, split(tc.gates)) {
			t.Errorf("%q: lifelines %v, messages %v, gates %v", src, sig.Lifelines, sig.Messages, sig.Gates)
		}
		var opts []string
		for _, o := range f.Options {
			opts = append(opts, src[o.Start.Offset:o.End])
			if !strings.HasPrefix(opts[len(opts)-1], "@"+o.Name) {
				t.Errorf("%q: option section %s at %s", src, o.Name, o.Start)
			}
		}
		if !slices.Equal(opts, tc.options) {
			t.Errorf("%q: options %q, want %q", src, opts, tc.options)
		}
		got := ""
		if f.Interaction != nil {
			got = string(FormatHIF(f.Interaction))
		}
		if got != tc.interaction {
			t.Errorf("%q: interaction %q, want %q", src, got, tc.interaction)
		}
		// FormatHSF prints what parses to the same signature and interaction.
		again, err := ParseHSF("printed.hsf", FormatHSF(f))
		if err != nil {
			t.Errorf("%q: reparsing %q: %v", src, FormatHSF(f), err)
			continue
		}
		if !sigFileEqual(f, again) {
			t.Errorf("%q: FormatHSF gives %q, which parses to another file", src, FormatHSF(f))
		}
	}
}

// TestPositions checks that names and nodes carry the position of their
// first byte: lines count '\n', columns count bytes (as Go does), tabs and
// multi-byte letters included.
func TestPositions(t *testing.T) {
	src := "seq(\n\tété -- m -> (b,\n\t\tc),\r\n  ∅, loop S(m -> a)\n)"
	n, err := ParseHIF("p.hif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	msg, empty, loop := n.Args[0], n.Args[1], n.Args[2]
	got := []string{n.Pos.String(), msg.Pos.String(), msg.From.Pos.String(), msg.Msg.Pos.String(),
		msg.To[0].Pos.String(), msg.To[1].Pos.String(), empty.Pos.String(), loop.Pos.String(),
		loop.Args[0].Pos.String(), loop.Args[0].To[0].Pos.String()}
	want := []string{"1:1", "2:2", "2:2", "2:11", "2:17", "3:3", "4:3", "4:8", "4:15", "4:20"}
	if !slices.Equal(got, want) {
		t.Errorf("positions %v, want %v", got, want)
	}
	for _, p := range []syntax.Pos{n.Pos, msg.Msg.Pos, loop.Pos} {
		if line := strings.Count(src[:p.Offset], "\n") + 1; line != p.Line {
			t.Errorf("offset %d is on line %d, not %d", p.Offset, line, p.Line)
		}
	}
}

// expInteraction is the start of the error for a missing interaction.
const expInteraction = "expected an interaction (o, a message like a -- m -> b, or an operator: strict, seq, par, alt, coreg, sync, loopS, loopH, loopW or loopP)"

// errorCase is a bad input and the exact error it gives.
type errorCase struct {
	name, src string
	want      string // "file:line:col: message"
}

// TestHIFErrors checks the error of each kind of bad .hif input: its text
// and its position. Names are resolved against testHSF.
func TestHIFErrors(t *testing.T) {
	tests := []errorCase{
		// Empty files.
		{"empty", "", "x.hif:1:1: empty file: expected an interaction term"},
		{"blank", "  \n\t\n", "x.hif:3:1: empty file: expected an interaction term"},
		{"only a comment", "/* nothing */", "x.hif:1:14: empty file: expected an interaction term"},
		// Lexical errors.
		{"unterminated comment", "seq(o, /* o)", "x.hif:1:8: comment not terminated: missing '*/'"},
		{"unterminated comment alone", "/*", "x.hif:1:1: comment not terminated: missing '*/'"},
		{"binary garbage", "\xff\xfe\x00\x01", "x.hif:1:1: invalid UTF-8 byte 0xff: not a text file?"},
		{"NUL bytes", "\x00\x00\x00", "x.hif:1:1: unexpected control character U+0000"},
		{"garbage inside", "seq(o,\n  \x07)", "x.hif:2:3: unexpected control character U+0007"},
		// Lexical garbage after a complete term: the scanner
		// stops there as at the end of the input, but it is no end.
		{"garbage after the term", "a -- m -> b\n%% garbage", "x.hif:2:1: unexpected character '%'"},
		{"unterminated comment after the term", "a -- m -> b\n/* open", "x.hif:2:1: comment not terminated: missing '*/'"},
		{"0xff after the term", "a -- m -> b\xff", "x.hif:1:12: invalid UTF-8 byte 0xff: not a text file?"},
		{"0x01 after the term", "a -- m -> b\x01", "x.hif:1:12: unexpected control character U+0001"},
		{"byte order mark after the term", "a -- m -> b\ufeff", "x.hif:1:12: unexpected character '\\ufeff'"},
		{"byte order mark twice", "\ufeff\ufeffo", "x.hif:1:1: unexpected character '\\ufeff'"},
		{"NUL inside a name", "a -- m\x00n -> b", "x.hif:1:7: unexpected control character U+0000"},
		{"invalid UTF-8 inside", "seq(o, a\xc3 -- m -> b)", "x.hif:1:9: invalid UTF-8 byte 0xc3: not a text file?"},
		{"stray character", "seq(o, $)", "x.hif:1:8: unexpected character '$'"},
		{"stray symbol", "seq(o, ⊤)", "x.hif:1:8: " + expInteraction + ", found '⊤'"},
		{"huge number", "seq(o, 12345678901234567890)", "x.hif:1:8: number 12345678901234567890 is too large"},
		{"number", "42", "x.hif:1:1: " + expInteraction + ", found number 42"},
		// Unbalanced parentheses.
		{"unclosed", "seq(a -- m -> b, o", "x.hif:1:19: expected ',' or ')' in the operands of seq (opened at 1:1), found end of file"},
		{"unclosed inner", "seq(a -- m -> b,\n\talt(o, o)", "x.hif:2:11: expected ',' or ')' in the operands of seq (opened at 1:1), found end of file"},
		{"missing comma", "seq(\n\ta -- m -> b\n\tb -- m -> a\n)", "x.hif:3:2: expected ',' or ')' in the operands of seq (opened at 1:1), found name \"b\""},
		{"extra closing", "seq(o, o))", "x.hif:1:10: unbalanced ')': no '(' is open here"},
		{"closing after a message", "a -- m -> b)", "x.hif:1:12: unbalanced ')': no '(' is open here"},
		{"closing first", ")", "x.hif:1:1: " + expInteraction + ", found ')'"},
		{"parenthesized term", "(o)", "x.hif:1:1: " + expInteraction + ", found '('"},
		{"unclosed receivers", "a -- m -> (b, c", "x.hif:1:16: expected ',' or ')' in a list of lifelines, found end of file"},
		{"unclosed coreg list", "coreg(a, b(o, o)", "x.hif:1:11: expected ',' or ')' in a list of lifelines, found '('"},
		// Operators.
		{"unknown operator", "foo(o, o)", "x.hif:1:1: unknown operator \"foo\" (expected strict, seq, par, alt, coreg, sync, loopS, loopH, loopW or loopP)"},
		{"unknown nested operator", "seq(o,\n  Seq(o, o))", "x.hif:2:3: unknown operator \"Seq\" (expected strict, seq, par, alt, coreg, sync, loopS, loopH, loopW or loopP)"},
		{"and", "and(o, o)", "x.hif:1:1: operator 'and' is not supported (HIBOU parses it but gives it no semantics)"},
		{"nested and", "seq(a -- m -> b,\n\tand(o, o))", "x.hif:2:2: operator 'and' is not supported (HIBOU parses it but gives it no semantics)"},
		{"unknown loop kind", "loop X(o)", "x.hif:1:6: unknown loop kind \"X\" (expected S, H, W or P)"},
		{"loop with two operands", "loopS(o, o)", "x.hif:1:1: loopS takes one operand, found 2"},
		{"spaced loop with two operands", "seq(o, loop W(o, a -- m -> b, o))", "x.hif:1:8: loopW takes one operand, found 3"},
		{"loop with none", "loopP()", "x.hif:1:7: " + expInteraction + ", found ')'"},
		{"one operand", "seq(a -- m -> b)", "x.hif:1:1: seq takes at least two operands, found 1"},
		{"one operand, extra closing", "seq(a -- m -> b))", "x.hif:1:1: seq takes at least two operands, found 1"},
		{"no operand", "alt()", "x.hif:1:5: " + expInteraction + ", found ')'"},
		{"trailing comma", "par(o, o,)", "x.hif:1:10: " + expInteraction + ", found ')'"},
		{"coreg with one operand", "coreg(a)(o)", "x.hif:1:1: coreg takes at least two operands, found 1"},
		{"coreg without lifelines", "coreg()(o, o)", "x.hif:1:7: expected a lifeline of the coregion, found ')'"},
		{"coreg without operands", "coreg(a)", "x.hif:1:9: expected '(' to open the operands of coreg, found end of file"},
		{"sync with one operand", "sync(a!m)(o)", "x.hif:1:1: sync takes at least two operands, found 1"},
		{"sync with two actions in parentheses", "sync(a!m, b?m)(o, o)", "x.hif:1:9: sync(...) takes one action: write several as sync{a!m,b?m}"},
		{"sync with a bad action", "sync(a m)(o, o)", "x.hif:1:8: expected '!' or '?' after lifeline \"a\" in an action, found name \"m\""},
		{"sync without actions", "sync[a!m](o, o)", "x.hif:1:5: expected '(' after operator \"sync\", or '--'/'->' after the name \"sync\" of a message, found '['"},
		{"sync unclosed set", "sync{a!m, b?m(o, o)", "x.hif:1:14: expected '}' after the synchronized action, found '('"},
		{"operator without operands", "seq", "x.hif:1:4: expected '(' after operator \"seq\", or '--'/'->' after the name \"seq\" of a message, found end of file"},
		{"trailing term", "o o", "x.hif:1:3: expected end of file after the interaction, found name \"o\""},
		{"two terms", "a -- m -> b, b -- m -> a", "x.hif:1:12: expected end of file after the interaction, found ','"},
		// Messages.
		{"bare name", "a", "x.hif:1:2: expected '(' after operator \"a\", or '--'/'->' after the name \"a\" of a message, found end of file"},
		{"no message", "a -- -> b", "x.hif:1:6: expected a message name, found '->'"},
		{"no arrow", "a -- m", "x.hif:1:7: expected '->' after message \"m\", found end of file"},
		{"no receiver", "a -- m -> ", "x.hif:1:11: expected a receiver after '->' in message \"m\" (a lifeline, (l1,l2) or |), found end of file"},
		{"single dash", "a - m -> b", "x.hif:1:3: expected '(' after operator \"a\", or '--'/'->' after the name \"a\" of a message, found '-'"},
		{"empty receivers", "a -- m -> ()", "x.hif:1:12: expected a receiving lifeline, found ')'"},
		{"neither end", "m ->|", "x.hif:1:1: message \"m\" has neither a sender nor a receiver"},
		{"neither end, synch", "seq(o, <synch>m ->|)", "x.hif:1:8: message \"m\" has neither a sender nor a receiver"},
		{"unknown communication type", "a -- <sync>m -> b", "x.hif:1:7: unknown communication type <sync> (expected <synch> or <asynch>)"},
		{"unclosed communication type", "a -- <synch m -> b", "x.hif:1:13: expected '>' to close <synch, found name \"m\""},
		{"communication type after the name", "a -- m<synch> -> b", "x.hif:1:7: expected '->' after message \"m\", found '<'"},
		// Names against the signature.
		{"undeclared receiver", "seq(a -- m -> b,\n\tb -- m -> z)", "x.hif:2:12: undeclared lifeline or gate \"z\" (add it to @lifeline or @gate in the signature)"},
		{"undeclared sender", "z -- m -> a", "x.hif:1:1: undeclared lifeline or gate \"z\" (add it to @lifeline or @gate in the signature)"},
		{"undeclared among receivers", "a -- m -> (b, z, c)", "x.hif:1:15: undeclared lifeline or gate \"z\" (add it to @lifeline or @gate in the signature)"},
		{"undeclared gate", "gate -- m -> a", "x.hif:1:1: undeclared lifeline or gate \"gate\" (add it to @lifeline or @gate in the signature)"},
		{"undeclared message", "seq(o, a -- q -> b)", "x.hif:1:13: undeclared message \"q\" (add it to @message in the signature)"},
		{"undeclared message from the environment", "q -> a", "x.hif:1:1: undeclared message \"q\" (add it to @message in the signature)"},
		{"lifeline as a message", "a -- b -> c", "x.hif:1:6: undeclared message \"b\" (add it to @message in the signature)"},
		{"message as a lifeline", "m -- n -> a", "x.hif:1:1: undeclared lifeline or gate \"m\" (add it to @lifeline or @gate in the signature)"},
		{"undeclared in coreg", "coreg(a, z)(o, o)", "x.hif:1:10: undeclared lifeline \"z\" (add it to @lifeline in the signature)"},
		{"undeclared in sync", "sync{a!m, z?m}(o, o)", "x.hif:1:11: undeclared lifeline \"z\" (add it to @lifeline in the signature)"},
		{"undeclared message in sync", "sync(a!q)(o, o)", "x.hif:1:8: undeclared message \"q\" (add it to @message in the signature)"},
		{"gate in coreg", "coreg(a, g)(o, o)", "x.hif:1:10: \"g\" is a gate, not a lifeline"},
		{"gate in sync", "sync(g!m)(o, o)", "x.hif:1:6: \"g\" is a gate, not a lifeline"},
		{"gates at both ends", "g -- m -> h", "x.hif:1:1: message \"m\" has no lifeline at either end (only gates or the environment)"},
		{"gate to the environment", "seq(o,\n  g -- m ->|)", "x.hif:2:3: message \"m\" has no lifeline at either end (only gates or the environment)"},
		{"from the environment to a gate", "m -> (g, h)", "x.hif:1:1: message \"m\" has no lifeline at either end (only gates or the environment)"},
		{"synchronous reception twice", "a -- <synch>m -> (b, c, b)", "x.hif:1:25: lifeline \"b\" receives synchronous message \"m\" twice"},
		// The first error is reported: syntax before names.
		{"syntax error after a bad name", "seq(z -- m -> a, o", "x.hif:1:19: expected ',' or ')' in the operands of seq (opened at 1:1), found end of file"},
		{"first bad name", "seq(z -- m -> a, a -- q -> b)", "x.hif:1:5: undeclared lifeline or gate \"z\" (add it to @lifeline or @gate in the signature)"},
		// Columns count bytes; lines end at '\n' (with or without '\r').
		{"column after multi-byte letters", "seq(∅, ∅, x -- m -> a)", "x.hif:1:15: undeclared lifeline or gate \"x\" (add it to @lifeline or @gate in the signature)"},
		{"CRLF", "seq(o,\r\n\tx -- m -> a)", "x.hif:2:2: undeclared lifeline or gate \"x\" (add it to @lifeline or @gate in the signature)"},
	}
	sig := testSignature(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseResolve(sig, "x.hif", tc.src)
			checkError(t, tc, err)
		})
	}
}

// TestHSFErrors checks the errors of bad .hsf inputs: syntax, then the
// signature (duplicates), then the legacy interaction's names.
func TestHSFErrors(t *testing.T) {
	tests := []errorCase{
		{"empty", "", "x.hsf:1:1: empty file: expected @message{...} and @lifeline{...} sections"},
		{"only a comment", "/* no */\n", "x.hsf:2:1: empty file: expected @message{...} and @lifeline{...} sections"},
		{"unterminated comment", "@message{m;n} /* x", "x.hsf:1:15: comment not terminated: missing '*/'"},
		{"binary garbage", "\x89PNG\r\n\x1a\n", "x.hsf:1:1: invalid UTF-8 byte 0x89: not a text file?"},
		{"NUL after a section", "@lifeline{a}\x00", "x.hsf:1:13: unexpected control character U+0000"},
		// A bad byte in a section name is reported as such, not as an
		// unknown section cut short.
		{"NUL in a section name", "@mess\x00age{m}", "x.hsf:1:6: unexpected control character U+0000"},
		{"bad byte in a section name", "@life\xffline{a}", "x.hsf:1:6: invalid UTF-8 byte 0xff: not a text file?"},
		{"garbage after the interaction", "@lifeline{a}\n@message{m}\na -- m ->|\n%", "x.hsf:4:1: unexpected character '%'"},
		{"no lifeline", "@message{m}", "x.hsf:1:1: no lifeline declared: add a @lifeline{...} section"},
		{"empty section", "@lifeline{}", "x.hsf:1:11: expected a lifeline name, found '}'"},
		{"double semicolon", "@lifeline{a;;b}", "x.hsf:1:13: expected a lifeline name, found ';'"},
		{"missing semicolon", "@lifeline{a b}", "x.hsf:1:13: expected ';' or '}' in @lifeline, found name \"b\""},
		{"comma", "@message{m, n}", "x.hsf:1:11: expected ';' or '}' in @message, found ','"},
		{"unclosed section", "@lifeline{a;b\n@message{m}", "x.hsf:2:1: expected ';' or '}' in @lifeline, found '@'"},
		{"unclosed at the end", "@gate{g", "x.hsf:1:8: expected ';' or '}' in @gate, found end of file"},
		{"no brace", "@lifeline a", "x.hsf:1:11: expected '{' after @lifeline, found name \"a\""},
		{"unknown section", "@lifeline{a}\n@lifelines{b}", "x.hsf:2:2: unknown section @lifelines (expected @message, @lifeline, @gate, @analyze_option, @explore_option or @canonize_option)"},
		{"no section name", "@{a}", "x.hsf:1:2: expected a section name after '@' (message, lifeline, gate or an option section), found '{'"},
		{"number as a name", "@lifeline{a;1}", "x.hsf:1:13: expected a lifeline name, found number 1"},
		{"unclosed option section", "@analyze_option{ strategy = DFS;\n@lifeline{a}", "x.hsf:1:16: unbalanced '{': @analyze_option is not closed"},
		{"nested unclosed option section", "@explore_option{ x = { y }", "x.hsf:1:16: unbalanced '{': @explore_option is not closed"},
		// A name both a lifeline and a gate, at its second declaration (a
		// name declared twice as the same kind is a warning: see
		// TestSignatureDuplicates).
		{"lifeline and gate", "@lifeline{a;b}\n@gate{b}", "x.hsf:2:7: \"b\" is declared as a lifeline and as a gate (first at 1:13)"},
		{"gate and lifeline", "@gate{a}\n@lifeline{a}", "x.hsf:2:11: \"a\" is declared as a gate and as a lifeline (first at 1:7)"},
		// Legacy interactions.
		{"legacy unclosed", "@lifeline{a}\n@message{m}\nseq(a -- m ->|, o", "x.hsf:3:18: expected ',' or ')' in the operands of seq (opened at 3:1), found end of file"},
		{"legacy extra closing", "@lifeline{a}@message{m} a -- m ->|)", "x.hsf:1:35: unbalanced ')': no '(' is open here"},
		{"legacy and", "@lifeline{a}@message{m}\nand(o, o)", "x.hsf:2:1: operator 'and' is not supported (HIBOU parses it but gives it no semantics)"},
		{"legacy undeclared lifeline", "@lifeline{a}@message{m}\na -- m -> b", "x.hsf:2:11: undeclared lifeline or gate \"b\" (add it to @lifeline or @gate in the signature)"},
		{"legacy section after the interaction", "@lifeline{a}@message{m} o @gate{g}", "x.hsf:1:27: expected end of file after the interaction, found '@'"},
		{"section without @", "lifeline{a}", "x.hsf:1:1: expected '@' before the section name \"lifeline\": write @lifeline{...}"},
		{"section without @ after others", "@lifeline{a}\n message { m }", "x.hsf:2:2: expected '@' before the section name \"message\": write @message{...}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseHSF("x.hsf", []byte(tc.src))
			if err == nil {
				var sig *Signature
				sig, _, err = f.Signature("x.hsf")
				if err == nil && f.Interaction != nil {
					_, err = NewStore(sig).Resolve("x.hsf", f.Interaction)
				}
			}
			checkError(t, tc, err)
		})
	}
}

// checkError requires err to be a *syntax.Error that prints as tc.want.
func checkError(t *testing.T, tc errorCase, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%q: no error, want %s", tc.src, tc.want)
	}
	var se *syntax.Error
	if !errors.As(err, &se) {
		t.Errorf("%q: error of type %T, want *syntax.Error", tc.src, err)
	}
	if err.Error() != tc.want {
		t.Errorf("%q:\n got %s\nwant %s", tc.src, err, tc.want)
	}
}

// nodeEqual reports whether two syntax trees are equal up to positions.
func nodeEqual(a, b *Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Op != b.Op || len(a.Args) != len(b.Args) || !namesEqual(a.Coreg, b.Coreg) ||
		!actionsEqual(a.Sync, b.Sync) || !actionsEqual(a.Acts, b.Acts) ||
		(a.From == nil) != (b.From == nil) || a.From != nil && a.From.Text != b.From.Text ||
		a.Synch != b.Synch || a.Msg.Text != b.Msg.Text || !namesEqual(a.To, b.To) || a.ToEnv != b.ToEnv {
		return false
	}
	for i := range a.Args {
		if !nodeEqual(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

func namesEqual(a, b []Name) bool {
	return slices.EqualFunc(a, b, func(x, y Name) bool { return x.Text == y.Text })
}

func actionsEqual(a, b []ActionSyntax) bool {
	return slices.EqualFunc(a, b, func(x, y ActionSyntax) bool {
		return x.Lifeline.Text == y.Lifeline.Text && x.Kind == y.Kind && x.Msg.Text == y.Msg.Text
	})
}

// sigFileEqual reports whether two .hsf files declare the same sections and
// interaction, up to positions (option sections are not compared).
func sigFileEqual(a, b *SigFile) bool {
	return slices.EqualFunc(a.Sections, b.Sections, func(x, y SigSection) bool {
		return x.Kind == y.Kind && namesEqual(x.Names, y.Names)
	}) && nodeEqual(a.Interaction, b.Interaction)
}

// TestSignatureDuplicates checks that a name declared twice as the same
// kind is accepted, as HIBOU accepts it: the first declaration counts and
// each repeat is a warning at its position. Legacy single-file .hsf too.
func TestSignatureDuplicates(t *testing.T) {
	for _, tc := range []struct {
		name, src           string
		lifelines, messages string
		warnings            []string
	}{
		{"message", "@message{SendComplete;Ack;SendComplete}\n@lifeline{tpm;host}", "tpm,host", "SendComplete,Ack",
			[]string{"x.hsf:1:27: warning: message SendComplete declared twice (first at 1:10)"}},
		{"message across sections", "@message{m}\n@lifeline{a}\n@message{n;m}", "a", "m,n",
			[]string{"x.hsf:3:12: warning: message m declared twice (first at 1:10)"}},
		{"lifeline, twice", "@lifeline{a;b;a;a}\n@message{m}", "a,b", "m",
			[]string{"x.hsf:1:15: warning: lifeline a declared twice (first at 1:11)",
				"x.hsf:1:17: warning: lifeline a declared twice (first at 1:11)"}},
		{"gate", "@lifeline{a}@gate{g;g}", "a", "",
			[]string{"x.hsf:1:21: warning: gate g declared twice (first at 1:19)"}},
		{"legacy", "@analyze_option{ strategy = DFS }\n@message{m;m}\n@lifeline{a;b}\na -- m -> b", "a,b", "m",
			[]string{"x.hsf:2:12: warning: message m declared twice (first at 2:10)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseHSF("x.hsf", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			sig, warnings, err := f.Signature("x.hsf")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range warnings {
				got = append(got, w.Error())
			}
			if !slices.Equal(got, tc.warnings) {
				t.Errorf("warnings\n%q\nwant\n%q", got, tc.warnings)
			}
			if strings.Join(sig.Lifelines, ",") != tc.lifelines || strings.Join(sig.Messages, ",") != tc.messages {
				t.Errorf("lifelines %v, messages %v; want %s and %s", sig.Lifelines, sig.Messages, tc.lifelines, tc.messages)
			}
			if f.Interaction != nil {
				if _, err := NewStore(sig).Resolve("x.hsf", f.Interaction); err != nil {
					t.Errorf("the legacy interaction does not resolve: %v", err)
				}
			}
		})
	}
}
