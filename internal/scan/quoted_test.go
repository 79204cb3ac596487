package scan

import (
	"testing"
	"unicode/utf8"

	"github.com/ivc-project/ivc/syntax"
)

func TestUnquote(t *testing.T) {
	for _, tc := range []struct {
		src, name string
		end, bad  int
		msg       string
	}{
		{`"api-gateway" x`, "api-gateway", 13, 0, ""},
		{`"GET /owners/{id}"`, "GET /owners/{id}", 18, 0, ""},
		{`"a\"b\\c"`, `a"b\c`, 9, 0, ""},
		{`"été ✓"`, "été ✓", 11, 0, ""},
		{`""`, "", 0, 0, "empty quoted name: a name has at least one character"},
		{`"abc`, "", 0, 0, `quoted name not terminated: missing '"'`},
		{"\"ab\nc\"", "", 0, 0, `quoted name not terminated: missing '"' before the end of the line`},
		{`"a\tb"`, "", 0, 2, `unknown escape '\t' in a quoted name (only \" and \\ are escapes)`},
		{"\"a\x7f\"", "", 0, 2, "control character U+007F in a quoted name"},
		{"\"a\u0085\"", "", 0, 2, "control character U+0085 in a quoted name"},
		{"\"a\xc3\"", "", 0, 2, "invalid UTF-8 byte 0xc3 in a quoted name"},
	} {
		name, end, bad, msg := Unquote([]byte(tc.src), 0)
		if name != tc.name || end != tc.end || bad != tc.bad || msg != tc.msg {
			t.Errorf("Unquote(%q) = %q, %d, %d, %q; want %q, %d, %d, %q", tc.src, name, end, bad, msg, tc.name, tc.end, tc.bad, tc.msg)
		}
	}
}

// FuzzUnquote: Unquote never panics, and a name it reads is written back by
// syntax.AppendName to a text that it reads as the same name.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"api-gateway"`, `"a\"b\\c"`, `"`, `""`, `"\`, `"a\q"`, "\"\xff\"", `"seq"`, `"x"y`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) == 0 || src[0] != '"' {
			return
		}
		name, end, bad, msg := Unquote(src, 0)
		if msg != "" {
			if bad < 0 || bad >= len(src) {
				t.Fatalf("fault at %d, outside the input", bad)
			}
			return
		}
		if end < 2 || end > len(src) || src[end-1] != '"' || !utf8.ValidString(name) || syntax.ValidName(name) != "" {
			t.Fatalf("Unquote(%q) = %q, %d", src, name, end)
		}
		printed := syntax.AppendName(nil, name)
		if syntax.IsIdent(name) {
			return
		}
		again, end2, _, msg := Unquote(printed, 0)
		if msg != "" || again != name || end2 != len(printed) {
			t.Fatalf("%q printed as %s reads back as %q, %d, %s", name, printed, again, end2, msg)
		}
	})
}
