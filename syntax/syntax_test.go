package syntax

import "testing"

// TestFileName: a file name that could forge or hide a line of the output
// is quoted.
func TestFileName(t *testing.T) {
	for name, want := range map[string]string{
		"abp.hsf":             "abp.hsf",
		"my traces/run 1.htf": "my traces/run 1.htf",
		"été/π.hif":           "été/π.hif",
		"a\nb.htf":            `"a\nb.htf"`,
		"\x1b[2Jx.htf":        `"\x1b[2Jx.htf"`,
		"tab\there.htf":       `"tab\there.htf"`,
		"bad\xff.htf":         `"bad\xff.htf"`,
		"":                    "",
	} {
		if got := FileName(name); got != want {
			t.Errorf("FileName(%q) = %s, want %s", name, got, want)
		}
	}
	err := &Error{File: "a\nb.hif", Pos: Pos{Line: 1, Col: 2}, Msg: "oops"}
	if got, want := err.Error(), `"a\nb.hif":1:2: oops`; got != want {
		t.Errorf("Error() = %s, want %s", got, want)
	}
}

// TestErrorMessage: an error without a column (a CSV record of a log, a
// session) prints file:line, and the characters of a message that are not
// printable, which a log's content may put there, are escaped.
func TestErrorMessage(t *testing.T) {
	for _, c := range []struct {
		err  Error
		want string
	}{
		{Error{File: "x.hsf", Pos: Pos{Line: 3, Col: 10}, Msg: "expected '->'"}, "x.hsf:3:10: expected '->'"},
		{Error{File: "x.csv", Pos: Pos{Line: 4}, Msg: "quoted field not closed"}, "x.csv:4: quoted field not closed"},
		{Error{Pos: Pos{Line: 1, Col: 1}, Msg: "m"}, "<input>:1:1: m"},
		{Error{File: "x.jsonl", Pos: Pos{Line: 2, Col: 5}, Msg: "session \"a\nb\x1b[2J\xff\" é"}, `x.jsonl:2:5: session "a\nb\x1b[2J\xff" é`},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %s, want %s", got, c.want)
		}
	}
}

func TestQuoteName(t *testing.T) {
	for name, want := range map[string]string{
		"abp":               "abp",
		"d_zero":            "d_zero",
		"été":               "été",
		"l2":                "l2",
		"api-gateway":       `"api-gateway"`,
		"GET /owners/{id}":  `"GET /owners/{id}"`,
		"2fa":               `"2fa"`,
		"_x":                `"_x"`,
		`say "hi"\`:         `"say \"hi\"\\"`,
		"my.service":        `"my.service"`,
		"I'm a server span": `"I'm a server span"`,
		"x\xff":             "\"x\xff\"",
	} {
		if got := QuoteName(name); got != want {
			t.Errorf("QuoteName(%q) = %s, want %s", name, got, want)
		}
	}
	for name, want := range map[string]string{"ok": "", "": "a name cannot be empty", "a\tb": "control character U+0009 in a name",
		"x\xff": "invalid UTF-8 byte 0xff in a name"} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %q, want %q", name, got, want)
		}
	}
}
