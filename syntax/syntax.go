// Package syntax holds what the parsers of HIBOU's text formats (.hsf
// signatures, .hif interactions, .htf multi-traces, .hcf options) and the
// readers of logs share with their callers: positions in a source file
// (Pos), the one error type they all return (Error, which prints as
// "file:line:col: message", the form editors and terminals link to), and
// the comments a parser keeps with a part of a file so that its formatter
// prints them back (Comments).
//
// A caller finds the position of a parse error, or of a malformed line of
// a log, with one errors.As, as with go/scanner.Error:
//
//	_, err := interaction.ParseSig("abp.hsf", src)
//	var se *syntax.Error
//	if errors.As(err, &se) {
//		fmt.Println(se.File, se.Pos.Line, se.Pos.Col, se.Msg)
//	}
package syntax

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes, as the Go toolchain does. Offset is the 0-based byte offset.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// String returns "line:col".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a problem found in a source file, at a position: a parse error
// in one of the text formats, a malformed line or record of a log, a
// session of a log that cannot be judged. Every parser of the text formats,
// every reader of logs (package logs) and the gathering of their sessions
// (package session) return their errors as *Error values, so that a caller
// finds the position with one errors.As.
type Error struct {
	File string // the name given to the parser or reader; "" prints as <input>
	// Pos is where the problem is. The readers of logs count lines, not
	// bytes: their Offset is 0, and so is Col when the column is not known
	// (a CSV record, a session).
	Pos Pos
	Msg string // what was expected, or what is wrong
}

// Error returns "file:line:col: message", or "file:line: message" when the
// column is not known (Col 0), with the file name as FileName prints it and
// the characters of the message that are not printable escaped as %q
// would: what a file holds can neither forge a line of the output nor send
// escapes to a terminal.
func (e *Error) Error() string {
	file := FileName(e.File)
	if file == "" {
		file = "<input>"
	}
	if e.Pos.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", file, e.Pos.Line, e.Pos.Col, printable(e.Msg))
	}
	return fmt.Sprintf("%s:%d: %s", file, e.Pos.Line, printable(e.Msg))
}

// printable returns s with its characters that are not printable (control
// characters, bytes that are not UTF-8) escaped as %q would.
func printable(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || !strconv.IsPrint(r) && r != ' ' })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for s = s[i:]; s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError || !strconv.IsPrint(r) && r != ' ' {
			q := strconv.QuoteToASCII(s[:n])
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// FileName returns a file name as messages print it: as it is, or quoted as
// %q does when it holds a character that is not printable (a newline, the
// escape that starts a terminal's control sequence) or a byte that is not
// UTF-8, so that a file's name can neither forge a line of the output nor
// hide in it.
func FileName(name string) string {
	for _, r := range name {
		if r == utf8.RuneError || !strconv.IsPrint(r) && r != ' ' {
			return strconv.Quote(name)
		}
	}
	return name
}

// Comments are the /* */ comments that a parser keeps with a part of a
// source file (a term, a section, a component, an option), each from "/*"
// to "*/", so that its formatter prints them back around it: `ivc fmt`
// never drops a comment.
type Comments struct {
	Before []string // on lines of their own before the part
	After  []string // at the end of the part's last line
	Inside []string // on lines of their own before the part's closing brace
	Below  []string // on lines of their own after the part: the end of a file
}

// A name (of a lifeline, a gate or a message) is written bare when it is an
// identifier: a Unicode letter followed by letters, ASCII digits or '_', as
// in HIBOU's files. Any other name is written quoted: "api-gateway",
// "GET /owners/{id}". Between the quotes, any UTF-8 text but control
// characters, with \" for a quote and \\ for a backslash. A bare name and
// the same text quoted are the same name.

// IsIdent reports whether the name s is written bare.
func IsIdent(s string) bool {
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
		case i > 0 && (r >= '0' && r <= '9' || r == '_'):
		case r >= utf8.RuneSelf && r != utf8.RuneError && unicode.IsLetter(r):
		default:
			return false
		}
	}
	return s != ""
}

// QuoteName returns the name s as the text formats write it: bare when it
// is an identifier, else quoted.
func QuoteName(s string) string {
	if IsIdent(s) {
		return s
	}
	return string(AppendName(nil, s))
}

// AppendName appends the name s to b as QuoteName writes it.
func AppendName(b []byte, s string) []byte {
	if IsIdent(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// ValidName returns why s cannot be a name, or "" when it can: a name is
// non-empty UTF-8 text without control characters.
func ValidName(s string) string {
	if s == "" {
		return "a name cannot be empty"
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return fmt.Sprintf("invalid UTF-8 byte 0x%02x in a name", s[i])
			}
		}
		if unicode.IsControl(r) {
			return fmt.Sprintf("control character %U in a name", r)
		}
	}
	return ""
}
