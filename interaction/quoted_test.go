package interaction

import "testing"

// quotedHSF declares real names: quoted, and aliases.
const quotedHSF = `@message{
	pets = "GET /owners/8/pets/10";"I'm a \"server\" span";ok
}
@lifeline{
	gateway = "api-gateway";"xincan-user";"my.service";plain
}
`

// TestQuotedNames: a quoted name is the same name as the same text bare; a
// quoted name is never a keyword; an alias and its name are one lifeline or
// message; Format quotes only where needed and keeps aliases.
func TestQuotedNames(t *testing.T) {
	f, err := ParseHSF("q.hsf", []byte(quotedHSF))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(FormatHSF(f)); got != quotedHSF {
		t.Errorf("FormatHSF\n got %s\nwant %s", got, quotedHSF)
	}
	sig, warnings, err := f.Signature("q.hsf")
	if err != nil || warnings != nil {
		t.Fatal(err, warnings)
	}
	if got := string(FormatSignature(sig)); got != quotedHSF {
		t.Errorf("FormatSignature\n got %s\nwant %s", got, quotedHSF)
	}
	for _, name := range []string{"gateway", "api-gateway"} {
		if l, ok := sig.Lifeline(name); !ok || sig.Lifelines[l] != "api-gateway" || sig.LifelineAlias(l) != "gateway" {
			t.Errorf("Lifeline(%q) = %d, %v", name, l, ok)
		}
	}
	for _, name := range []string{"pets", "GET /owners/8/pets/10"} {
		if m, ok := sig.Message(name); !ok || sig.Messages[m] != "GET /owners/8/pets/10" || sig.MessageAlias(m) != "pets" {
			t.Errorf("Message(%q) = %d, %v", name, m, ok)
		}
	}
	tests := []struct{ src, want, hif string }{
		// The alias, the quoted name and a bare name quoted are the same.
		{`seq(gateway -- pets -> "xincan-user", "api-gateway" -- "GET /owners/8/pets/10" -> "plain")`,
			`seq(strict("api-gateway"!"GET /owners/8/pets/10","xincan-user"?"GET /owners/8/pets/10"),strict("api-gateway"!"GET /owners/8/pets/10",plain?"GET /owners/8/pets/10"))`,
			"seq(\n\tgateway -- pets -> \"xincan-user\",\n\tgateway -- pets -> plain\n)\n"},
		{`"my.service" -- "I'm a \"server\" span" ->|`, `"my.service"!"I'm a \"server\" span"`,
			"\"my.service\" -- \"I'm a \\\"server\\\" span\" ->|\n"},
		{`sync("xincan-user"!ok)("xincan-user" -- ok ->|, o)`, `sync("xincan-user"!ok)("xincan-user"!ok,∅)`,
			"sync(\"xincan-user\"!ok)(\n\t\"xincan-user\" -- ok ->|,\n\to\n)\n"},
	}
	for _, tc := range tests {
		st, term, err := parseResolve(sig, "q.hif", tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := st.Format(term); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
		if got := string(FormatHIF(st.Syntax(term))); got != tc.hif {
			t.Errorf("%s: the term prints as\n%s\nwant\n%s", tc.src, got, tc.hif)
		}
		n, _ := ParseHIF("q.hif", []byte(tc.src))
		again, err := ParseHIF("printed.hif", FormatHIF(n))
		if err != nil || !nodeEqual(n, again) {
			t.Errorf("%s: printed as %q, which parses to another node (%v)", tc.src, FormatHIF(n), err)
		}
	}
	for text, want := range map[string]string{
		`"api-gateway"!pets`: `"api-gateway"!"GET /owners/8/pets/10"`,
		`{gateway!pets,"xincan-user"?"GET /owners/8/pets/10"}`: `{"api-gateway"!"GET /owners/8/pets/10","xincan-user"?"GET /owners/8/pets/10"}`,
	} {
		m, err := sig.ParseMultiAction(text)
		if err != nil {
			t.Errorf("ParseMultiAction(%s): %v", text, err)
		} else if got := m.Format(sig); got != want {
			t.Errorf("ParseMultiAction(%s) = %s, want %s", text, got, want)
		}
	}
}

// TestQuotedKeywords: quoted, a keyword is a name.
func TestQuotedKeywords(t *testing.T) {
	sig, err := NewSignature([]string{"a", "seq"}, []string{"o", "m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		`"o" -> a`:                    "a?o",
		`"seq" -- "o" ->|`:            "seq!o",
		`a -- m -> "seq"`:             "strict(a!m,seq?m)",
		`seq("o" -> a, "o" -> "seq")`: "seq(a?o,seq?o)",
	} {
		st, term, err := parseResolve(sig, "k.hif", src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
		} else if got := st.Format(term); got != want {
			t.Errorf("%s\n got %s\nwant %s", src, got, want)
		}
	}
}

func TestQuotedErrors(t *testing.T) {
	hif := []errorCase{
		{"quoted operator", `"seq"(a -- m ->|, o)`, `x.hif:1:6: expected '--' or '->' after the name "seq" of a message, found '('`},
		{"unterminated", `a -- "m ->|`, `x.hif:1:6: quoted name not terminated: missing '"'`},
		{"newline", "a -- \"m\n\" ->|", `x.hif:1:6: quoted name not terminated: missing '"' before the end of the line`},
		{"empty", `a -- "" ->|`, `x.hif:1:6: empty quoted name: a name has at least one character`},
		{"escape", `a -- "m\n" ->|`, `x.hif:1:8: unknown escape '\n' in a quoted name (only \" and \\ are escapes)`},
		{"control", "a -- \"m\tn\" ->|", `x.hif:1:8: control character U+0009 in a quoted name`},
		{"bad UTF-8", "a -- \"m\xffn\" ->|", `x.hif:1:8: invalid UTF-8 byte 0xff in a quoted name`},
		{"undeclared", `"a b" -- m ->|`, `x.hif:1:1: undeclared lifeline or gate "a b" (add it to @lifeline or @gate in the signature)`},
	}
	sig := testSignature(t)
	for _, tc := range hif {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseResolve(sig, "x.hif", tc.src)
			checkError(t, tc, err)
		})
	}
	hsf := []errorCase{
		{"alias twice", "@lifeline{a = \"x\"; a = \"y\"}", `x.hsf:1:20: lifeline "a" is declared twice (first at 1:11)`},
		{"alias of a name", "@lifeline{b; a = \"b\"}", `x.hsf:1:14: lifeline "b" is declared twice (first at 1:11)`},
		{"alias as a gate", "@lifeline{a = \"x\"}\n@gate{x}", `x.hsf:2:7: "x" is declared as a lifeline and as a gate (first at 1:15)`},
		{"gate alias", "@lifeline{a}\n@gate{g = \"x\"}", `x.hsf:2:7: gate "g": a gate has no alias (aliases are for lifelines and messages)`},
		{"alias without name", "@lifeline{a = ;}", `x.hsf:1:15: expected the lifeline name that "a" stands for, after '=', found ';'`},
	}
	for _, tc := range hsf {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseHSF("x.hsf", []byte(tc.src))
			if err == nil {
				_, _, err = f.Signature("x.hsf")
			}
			checkError(t, tc, err)
		})
	}
}
