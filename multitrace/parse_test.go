package multitrace

import (
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name, src, want string
		braced          bool
	}{
		{"braced", "{ [l1] l1!m1.l1?m2; [l2,l3] ; [#any] {l4!m,l5?m}.l4!x }",
			"{\n\t[l1] l1!m1.l1?m2;\n\t[l2,l3] ;\n\t[#any] {l4!m,l5?m}.l4!x\n}\n", true},
		{"trailing semicolon", "{ [a] a!m; [b] ; }", "{\n\t[a] a!m;\n\t[b] ;\n}\n", true},
		{"last empty without semicolon", "{ [a] a!m; [b] }", "{\n\t[a] a!m;\n\t[b] ;\n}\n", true},
		{"empty", "{ }", "{\n}\n", true},
		{"only a semicolon", "{;}", "{\n}\n", true},
		{"all", "{[#all] a!m.b?m;[c] c?m}", "{\n\t[#all] a!m.b?m;\n\t[c] c?m\n}\n", true},
		{"bare trace", "a!m.b?m", "{\n\t[#all] a!m.b?m\n}\n", false},
		{"bare trace starting with a multi-action", "{a!m, b?m}.c!x", "{\n\t[#all] {a!m,b?m}.c!x\n}\n", false},
		{"legacy all", "[#all] a!m1.b?m1.b!m2.c?m2", "{\n\t[#all] a!m1.b?m1.b!m2.c?m2\n}\n", false},
		{"legacy components", "[a] a!m;\n[b] ;\n[c] c?m;\n", "{\n\t[a] a!m;\n\t[b] ;\n\t[c] c?m\n}\n", false},
		{"whitespace and comments everywhere",
			"/*c*/{/*c*/[/*c*/a/*c*/,/*c*/b/*c*/]/*c*/a/*c*/!/*c*/m/*c*/./*c*/{/*c*/a/*c*/?/*c*/n/*c*/,/*c*/b/*c*/!/*c*/n/*c*/}/*c*/;/*c*/}/*c*/",
			"{\n\t[a,b] a!m.{a?n,b!n}\n}\n", true},
		{"crlf and tabs", "{\r\n\t[a]\ta!m\r\n}\r\n", "{\n\t[a] a!m\n}\n", true},
		{"byte order mark", "\ufeff{ [a] a!m }", "{\n\t[a] a!m\n}\n", true},
		{"byte order mark before a bare trace", "\ufeffa!m", "{\n\t[#all] a!m\n}\n", false},
		{"unicode names", "{ [Émetteur] Émetteur!donnée_1 }", "{\n\t[Émetteur] Émetteur!donnée_1\n}\n", true},
		{"names any and all", "{ [any,all] any!all }", "{\n\t[any,all] any!all\n}\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("t.htf", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if f.Braced != tt.braced {
				t.Errorf("Braced = %v, want %v", f.Braced, tt.braced)
			}
			got := string(Format(f))
			if got != tt.want {
				t.Errorf("Format:\n%s\nwant:\n%s", got, tt.want)
			}
			g, err := Parse("t.htf", []byte(got))
			if err != nil {
				t.Fatalf("reparsing the formatted text: %v", err)
			}
			if !sameSyntax(f, g) {
				t.Errorf("Parse(Format(f)) differs from f")
			}
			if again := string(Format(g)); again != got {
				t.Errorf("Format is not idempotent:\n%s", again)
			}
		})
	}
}

func TestParsePositions(t *testing.T) {
	src := "{\n  [a, b] a!m.{b?m,a?n};\n\t[#any] /* x\n */ c!m\n}"
	f, err := Parse("t.htf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pos := func(p syntax.Pos) string {
		if src[p.Offset:][:1] == "" {
			return "?"
		}
		return p.String() + "=" + src[p.Offset:p.Offset+1]
	}
	c0, c1 := f.Components[0], f.Components[1]
	got := []string{
		pos(c0.Pos), pos(c0.Lifelines[0].Pos), pos(c0.Lifelines[1].Pos),
		pos(c0.Trace[0].Pos), pos(c0.Trace[0].Acts[0].Msg.Pos),
		pos(c0.Trace[1].Pos), pos(c0.Trace[1].Acts[0].Lifeline.Pos), pos(c0.Trace[1].Acts[1].Msg.Pos),
		pos(c1.Pos), pos(c1.Trace[0].Pos), pos(c1.Trace[0].Acts[0].Msg.Pos),
	}
	want := []string{"2:3=[", "2:4=a", "2:7=b", "2:10=a", "2:12=m", "2:14={", "2:15=b", "2:21=n",
		"3:2=[", "4:5=c", "4:7=m"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("positions\n got %v\nwant %v", got, want)
	}
	if c0.Kind != Explicit || c1.Kind != Any || c1.Lifelines != nil {
		t.Errorf("kinds %v %v, lifelines %v", c0.Kind, c1.Kind, c1.Lifelines)
	}
	if a := c0.Trace[1].Acts; len(a) != 2 || a[0].Kind != interaction.Reception || a[1].Msg.Text != "n" {
		t.Errorf("multi-action %+v", a)
	}
	// Line and column agree with what internal/scan would say at each offset.
	for _, p := range []syntax.Pos{c0.Pos, c0.Trace[1].Pos, c1.Pos, c1.Trace[0].Pos} {
		line := strings.Count(src[:p.Offset], "\n") + 1
		col := p.Offset - strings.LastIndex(src[:p.Offset], "\n")
		if p.Line != line || p.Col != col {
			t.Errorf("%v at offset %d: want %d:%d", p, p.Offset, line, col)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "1:1: empty file: expected a multi-trace such as { [a] a!m; [b] b?m } or a trace such as a!m.b?m"},
		{"   \n  /* only a comment */ \n", "3:1: empty file: expected a multi-trace such as { [a] a!m; [b] b?m } or a trace such as a!m.b?m"},
		{"{", "1:2: expected a component such as [a] or '}' after '{' (or an action, for a multi-action {a!m,b?m}), found end of file"},
		{"{ [a] a!m", "1:10: expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1, found end of file"},
		// An empty file is an error, unlike an empty .hcf: the package
		// documentation says why.
		{"\ufeff", "1:1: empty file: expected a multi-trace such as { [a] a!m; [b] b?m } or a trace such as a!m.b?m"},
		{"\ufeff{ [a] a!m \ufeff}", "1:11: expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1, found '\\ufeff'"},
		{"{ [a] a!m; [b] b?m } x", "1:22: expected end of file after the multi-trace, found name \"x\""},
		{"{ [a] a!m [b] b?m }", "1:11: expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1, found '['"},
		{"{ [a] [b] }", "1:7: expected an action, ';' before the next component or '}' to close the multi-trace opened at 1:1, found '['"},
		{"{ [a] ; [b] b?m ; ; }", "1:19: expected a component such as [a] or '}' to close the multi-trace opened at 1:1, found ';'"},
		{"{ ; [a] }", "1:5: expected '}' to close the multi-trace opened at 1:1, found '['"},
		{"{ []}", "1:4: expected a lifeline name, #any or #all after '[', found ']'"},
		{"{ [a,] }", "1:6: expected a lifeline name after ',', found ']'"},
		{"{ [a b] }", "1:6: expected ',' or ']' in the lifelines of the component at 1:3, found name \"b\""},
		{"{ [#] }", "1:5: expected 'any' or 'all' right after '#', found ']'"},
		{"{ [# all] }", "1:5: expected 'any' or 'all' right after '#', without a space"},
		{"{ [#every] }", "1:4: unknown component [#every] (expected [#any], [#all] or a list of lifelines)"},
		{"{ [#all }", "1:9: expected ']' after #all, found '}'"},
		{"{ [a] a }", "1:9: expected '!' or '?' after lifeline \"a\" in an action, found '}'"},
		{"{ [a] a! }", "1:10: expected a message name after 'a!', found '}'"},
		{"{ [a] a!m. }", "1:12: expected an action such as a!m or a multi-action such as {a!m,b?m} after '.', found '}'"},
		{"{ [a] a!m.. }", "1:11: expected an action such as a!m or a multi-action such as {a!m,b?m} after '.', found '.'"},
		{"{ [a] a!3 }", "1:9: expected a message name after 'a!', found number 3"},
		{"{ a!m }", "1:1: a multi-action has at least two actions: write a single action without braces (a multi-trace's components start with their lifelines, as in { [#all] a!m.b?m })"},
		{"{ [a] {a!m} }", "1:7: a multi-action has at least two actions: write a single action without braces"},
		{"{ [a] {a!m b?m} }", "1:12: expected ',' or '}' in the multi-action opened at 1:7, found name \"b\""},
		{"{ [a] {} }", "1:8: expected an action such as a!m after '{' in a multi-action, found '}'"},
		{"{ [a] {a!m,} }", "1:12: expected an action such as a!m after ',' in a multi-action, found '}'"},
		{"{ a!m.b?m }", "1:6: expected ',' or '}' in the multi-action opened at 1:1 (a multi-trace's components start with their lifelines, as in { [#all] a!m.b?m }), found '.'"},
		{"{ x }", "1:5: expected '!' or '?' after lifeline \"x\" in an action, found '}'"},
		{"a!m.b?m }", "1:9: expected '.' to continue the trace or end of file, found '}'"},
		{"a!m;b?m", "1:4: expected '.' to continue the trace or end of file, found ';'"},
		{"[a] a!m }", "1:9: expected '.' to continue the trace, ';' before the next component or end of file, found '}'"},
		{"[a] ]", "1:5: expected an action, ';' before the next component or end of file, found ']'"},
		{"123", "1:1: expected a multi-trace such as { [a] a!m; [b] b?m } or a trace such as a!m.b?m, found number 123"},
		{"\xff\xfe", "1:1: invalid UTF-8 byte 0xff: not a text file?"},
		{"{ [a] a!m\x00 }", "1:10: unexpected control character U+0000 (expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1)"},
		{"{ [a] a!m /* open", "1:11: comment not terminated: missing '*/'"},
		{"/* open", "1:1: comment not terminated: missing '*/'"},
		{"[a] a!m; /* open", "1:10: comment not terminated: missing '*/'"},
		{"a!m /* open", "1:5: comment not terminated: missing '*/'"},
		{"{ [#all /* open", "1:9: comment not terminated: missing '*/'"},
		{"{ [a] {a!m /*/ }", "1:12: comment not terminated: missing '*/'"},
		{"{ [a] a!m -> b }", "1:11: expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1, found '-'"},
		{"{\n  [a] a!m;\n  [b] b?m.\n}", "4:1: expected an action such as a!m or a multi-action such as {a!m,b?m} after '.', found '}'"},
		{"{ [é] é!m; [a] a?m∅ }", "1:21: expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1, found '∅'"},
		{"{ [a] a!m /* a\nb */ ? }", "2:6: expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1, found '?'"},
		{"{ [a] a!" + strings.Repeat("x", 100) + " y }", "1:110: expected '.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at 1:1, found name \"y\""},
		{"{ [a] " + strings.Repeat("x", 100) + " }", "1:108: expected '!' or '?' after lifeline \"" + strings.Repeat("x", 60) + "\"... in an action, found '}'"},
	}
	for _, tt := range tests {
		_, err := Parse("t.htf", []byte(tt.src))
		if err == nil {
			t.Errorf("Parse(%q): no error, want %s", tt.src, tt.want)
			continue
		}
		if _, ok := err.(*syntax.Error); !ok {
			t.Errorf("Parse(%q): error of type %T", tt.src, err)
		}
		if got, want := err.Error(), "t.htf:"+tt.want; got != want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", tt.src, got, want)
		}
	}
}
