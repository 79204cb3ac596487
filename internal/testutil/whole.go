package testutil

import (
	"bytes"
	"fmt"
	"testing"
)

// bom is the UTF-8 byte order mark.
const bom = "\ufeff"

// Trailers are bytes that no token of ivc's text formats starts or
// continues: appended to an input that parses, each must make it fail.
var Trailers = []string{"\x00", "\x01", "\x7f", "\xff", "\xc3"}

// ScannerTrailers are Trailers for the formats with /* */ comments and
// symbols (.hsf, .hif, .htf, .hcf): also a stray character, an unterminated
// comment and a byte order mark that is not at the start.
var ScannerTrailers = append([]string{"%", "$", "/*", "\ufeff"}, Trailers...)

// WholeInput checks the property of every parser of ivc: a parse that
// succeeds consumed the whole input. When parse accepts src, it must reject
// src followed by any of trailers (it would otherwise have stopped before
// them), and accept src after a byte order mark, which editors write at the
// start of a file (unless src starts with one already).
func WholeInput(t *testing.T, src []byte, parse func([]byte) error, trailers []string) {
	t.Helper()
	if parse(src) != nil {
		return
	}
	for _, tr := range trailers {
		if tr == bom && len(src) == 0 {
			continue // a byte order mark at the start of a file is fine
		}
		if err := parse(append(src[:len(src):len(src)], tr...)); err == nil {
			t.Errorf("%s parses, and so does it followed by %q", short(src), tr)
		}
	}
	if bytes.HasPrefix(src, []byte(bom)) {
		return
	}
	if err := parse(append([]byte(bom), src...)); err != nil {
		t.Errorf("%s parses, but not after a byte order mark: %v", short(src), err)
	}
}

// short quotes src, cut after 60 bytes.
func short(src []byte) string {
	if len(src) > 60 {
		return fmt.Sprintf("%q... (%d bytes)", src[:60], len(src))
	}
	return fmt.Sprintf("%q", src)
}
