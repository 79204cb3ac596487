package scan

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unquote reads the quoted name that starts at src[off] (a '"'): see
// syntax.IsIdent for the grammar. It returns the name and the offset just
// after its closing quote, or, for a name that is not well formed, the
// offset of the fault and what it is. A quoted name never spans lines, so
// the column of the fault is that of the quote plus bad-off.
func Unquote(src []byte, off int) (name string, end int, bad int, msg string) {
	i := off + 1
	escaped := false
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			raw := src[off+1 : i]
			if len(raw) == 0 {
				return "", 0, off, "empty quoted name: a name has at least one character"
			}
			if !escaped {
				return string(raw), i + 1, 0, ""
			}
			var b strings.Builder
			b.Grow(len(raw))
			for k := 0; k < len(raw); k++ {
				if raw[k] == '\\' {
					k++
				}
				b.WriteByte(raw[k])
			}
			return b.String(), i + 1, 0, ""
		case c == '\\':
			if i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\\') {
				escaped = true
				i += 2
				continue
			}
			if i+1 < len(src) && src[i+1] >= ' ' && src[i+1] < utf8.RuneSelf {
				return "", 0, i, fmt.Sprintf("unknown escape '\\%c' in a quoted name (only \\\" and \\\\ are escapes)", src[i+1])
			}
			return "", 0, i, "unknown escape in a quoted name (only \\\" and \\\\ are escapes)"
		case c == '\n' || c == '\r':
			return "", 0, off, "quoted name not terminated: missing '\"' before the end of the line"
		case c < utf8.RuneSelf:
			if c < ' ' || c == 0x7f {
				return "", 0, i, fmt.Sprintf("control character %U in a quoted name", rune(c))
			}
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				return "", 0, i, fmt.Sprintf("invalid UTF-8 byte 0x%02x in a quoted name", c)
			}
			if unicode.IsControl(r) {
				return "", 0, i, fmt.Sprintf("control character %U in a quoted name", r)
			}
			i += size
		}
	}
	return "", 0, off, "quoted name not terminated: missing '\"'"
}
