package syntax

import "testing"

// TestFileName: a file name that could forge or hide a line of the output
// is quoted (issue 19).
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
