package interaction

import (
	"bytes"
	"testing"
)

// TestFormatKeepsComments: ParseHIF and ParseHSF keep the comments with the
// nearest term or section, and FormatHIF and FormatHSF print them back there
// (ivc fmt -w used to delete them). The result is a fixed point.
func TestFormatKeepsComments(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"before and after a term", "/* head */\na -- m -> b /* tail */\n/* end */",
			"/* head */\na -- m -> b /* tail */\n/* end */\n"},
		{"operands",
			"seq( /* open */\n  a -- m -> b, /* first */\n  /* before alt */\n  alt(o, o) /* after alt */,\n  o\n  /* last */\n) /* root */",
			"seq(\n\t/* open */\n\ta -- m -> b, /* first */\n\t/* before alt */\n\talt(\n\t\to,\n\t\to\n\t), /* after alt */\n\to\n\t/* last */\n) /* root */\n"},
		{"inside a message", "a -- /* x */ m -> /* y */ b", "a -- m -> b /* x */ /* y */\n"},
		{"inside an operator's header", "coreg(a, /* c */ b)(o, o)", "coreg(a,b)(\n\t/* c */\n\to,\n\to\n)\n"},
		{"several on a line", "seq(o, /* 1 */ /* 2 */\no)", "seq(\n\to, /* 1 */ /* 2 */\n\to\n)\n"},
		// A comment followed by a term on its line goes with that term;
		// followed by a separator or a closing parenthesis only, with the
		// term before it.
		{"before a term on its line", "seq(o, /* x */ o, /* y */\n o /* z */)", "seq(\n\to,\n\t/* x */\n\to, /* y */\n\to /* z */\n)\n"},
		{"multi-line", "seq(\n  /* a\n     b */\n  o, o)", "seq(\n\t/* a\n     b */\n\to,\n\to\n)\n"},
	} {
		n, err := ParseHIF("c.hif", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := FormatHIF(n)
		if string(got) != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		again, err := ParseHIF("c.hif", got)
		if err != nil || !bytes.Equal(FormatHIF(again), got) {
			t.Errorf("%s: not a fixed point (%v):\n%s", tc.name, err, FormatHIF(again))
		}
	}
	for _, tc := range []struct{ name, src, want string }{
		{"sections", "/* sig */ @lifeline /* x */ { a /* y */ ; b } /* after */\n@message{m}\n/* end */",
			"/* sig */\n@lifeline{\n\t/* x */\n\t/* y */\n\ta;b\n} /* after */\n@message{\n\tm\n}\n/* end */\n"},
		{"legacy interaction", "@lifeline{a;b}\n@message{m}\n/* the term */\na -- m -> b /* done */",
			"@lifeline{\n\ta;b\n}\n@message{\n\tm\n}\n/* the term */\na -- m -> b /* done */\n"},
	} {
		f, err := ParseHSF("c.hsf", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := FormatHSF(f)
		if string(got) != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		again, err := ParseHSF("c.hsf", got)
		if err != nil || !bytes.Equal(FormatHSF(again), got) {
			t.Errorf("%s: not a fixed point (%v)", tc.name, err)
		}
	}
}
