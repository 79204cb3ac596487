// Package scan is the lexer shared by the parsers of HIBOU's text formats
// (.hsf, .hif, .htf, .hcf). It turns bytes into tokens that carry their
// position (a syntax.Pos), and reports problems as *syntax.Error values
// that print as "file:line:col: message", the form editors and terminals
// link to.
//
// The formats share one lexical grammar: labels are a Unicode letter followed by
// letters, ASCII digits or '_'; a name may also be quoted, "api-gateway",
// with \" and \\ escapes (see syntax.IsIdent); whitespace separates tokens;
// /* */ comments are skipped; numbers are decimal, optionally negative.
package scan

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/syntax"
)

// Kind is the kind of a token.
type Kind uint8

const (
	EOF    Kind = iota
	Ident       // a label: lifeline, message, operator or option name
	Quoted      // a quoted name: Text is the name, without quotes or escapes
	Number      // decimal integer, possibly negative
	Punct       // one of ( ) { } [ ] , ; . ! ? @ # = < > | : + * / -
	Dash2       // --
	Arrow       // ->
	Empty       // ∅
	Top         // ⊤
	Bottom      // ⊥
)

// kindNames are the kinds of tokens as messages name them: not stringer's
// identifiers.
var kindNames = enum.New("Kind", map[Kind]string{EOF: "end of file", Ident: "name", Quoted: "quoted name", Number: "number",
	Punct: "symbol", Dash2: "'--'", Arrow: "'->'", Empty: "'∅'", Top: "'⊤'", Bottom: "'⊥'"})

func (k Kind) String() string { return kindNames.Name(k) }

// Token is one lexical unit.
type Token struct {
	Kind Kind
	Text string // the source text of the token; the name of a Quoted one
	Pos  syntax.Pos
	End  int // the offset just after the token
}

// Is reports whether t is the punctuation p.
func (t Token) Is(p string) bool { return t.Kind == Punct && t.Text == p }

// IsIdent reports whether t is the label s (written bare: a quoted name
// is never a keyword).
func (t Token) IsIdent(s string) bool { return t.Kind == Ident && t.Text == s }

// IsName reports whether t is a name, bare or quoted.
func (t Token) IsName() bool { return t.Kind == Ident || t.Kind == Quoted }

// Describe returns the token as an error message shows it.
func (t Token) Describe() string {
	switch t.Kind {
	case EOF:
		return "end of file"
	case Ident, Quoted:
		return "name " + Quote(t.Text)
	case Number:
		return fmt.Sprintf("number %s", t.Text)
	default:
		return fmt.Sprintf("'%s'", t.Text)
	}
}

// maxQuoted is how many bytes of a name Quote shows.
const maxQuoted = 64

// Quote returns the name s quoted as %q does, cut after its first 64 bytes
// (at a rune boundary) when it is longer: error messages that show a name
// stay short when a file holds a huge one.
func Quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// Scanner splits a source into tokens. The zero value is not usable; call New.
type Scanner struct {
	file string
	src  []byte
	off  int
	line int
	col  int
	tok  Token  // current token (after Next)
	peek *Token // one token of look-ahead
	err  *syntax.Error

	comments []Comment // met so far, in source order
}

// BOM is the UTF-8 byte order mark that some editors write at the start of
// a text file.
const BOM = "\ufeff"

// New returns a scanner over src; file names the source in errors. A byte
// order mark at the start of src is skipped, as editors hide it: the first
// token after it is at column 1.
func New(file string, src []byte) *Scanner {
	s := &Scanner{file: file, src: src, line: 1, col: 1}
	if HasBOM(src) {
		s.off = len(BOM)
	}
	return s
}

// HasBOM reports whether src starts with a byte order mark.
func HasBOM(src []byte) bool { return len(src) >= len(BOM) && string(src[:len(BOM)]) == BOM }

// NewAt returns a scanner over src that starts at position at (whose
// Offset, Line and Col must describe the same place in src). Parsers of a
// section embedded in a larger file use it, so that errors point into that file.
func NewAt(file string, src []byte, at syntax.Pos) *Scanner {
	return &Scanner{file: file, src: src, off: at.Offset, line: at.Line, col: at.Col}
}

// File returns the file name given to New.
func (s *Scanner) File() string { return s.file }

// Errorf returns a *syntax.Error at pos.
func (s *Scanner) Errorf(pos syntax.Pos, format string, args ...any) *syntax.Error {
	return &syntax.Error{File: s.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// Err returns the first lexical error met, if any. Once an error occurred the
// scanner returns EOF tokens.
func (s *Scanner) Err() *syntax.Error { return s.err }

// Peek returns the next token without consuming it.
func (s *Scanner) Peek() Token {
	if s.peek == nil {
		t := s.scan()
		s.peek = &t
	}
	return *s.peek
}

// Next consumes and returns the next token.
func (s *Scanner) Next() Token {
	if s.peek != nil {
		s.tok = *s.peek
		s.peek = nil
		return s.tok
	}
	s.tok = s.scan()
	return s.tok
}

func (s *Scanner) pos() syntax.Pos { return syntax.Pos{Offset: s.off, Line: s.line, Col: s.col} }

func (s *Scanner) advance(n int) {
	for i := 0; i < n; i++ {
		if s.src[s.off] == '\n' {
			s.line++
			s.col = 1
		} else {
			s.col++
		}
		s.off++
	}
}

func (s *Scanner) fail(p syntax.Pos, format string, args ...any) Token {
	if s.err == nil {
		s.err = s.Errorf(p, format, args...)
	}
	s.off = len(s.src)
	return Token{Kind: EOF, Pos: p}
}

// skipSpaceAndComments skips to the next token, recording the comments. It
// is called right after a token, or at the start: a token precedes what it
// skips on the current line when the column is past 1.
func (s *Scanner) skipSpaceAndComments() bool {
	afterToken := s.col > 1
	onLine := len(s.comments) // the comments met on the current line
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == '\n':
			s.advance(1)
			afterToken = false
			onLine = len(s.comments)
		case c == ' ' || c == '\t' || c == '\r':
			s.advance(1)
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			start := s.pos()
			end := -1
			for i := s.off + 2; i+1 < len(s.src); i++ {
				if s.src[i] == '*' && s.src[i+1] == '/' {
					end = i + 2
					break
				}
			}
			if end < 0 {
				s.fail(start, "comment not terminated: missing '*/'")
				return false
			}
			s.advance(end - s.off)
			s.comments = append(s.comments, Comment{Text: string(s.src[start.Offset:end]), Pos: start, Trailing: afterToken})
			if s.line != start.Line {
				// The comments that follow on the line where this one
				// ends trail as it does: the formatters print a node's
				// After comments on one line, a multi-line one among them.
				onLine = len(s.comments) - 1
			}
		default:
			if !EndsLine(c) {
				// A term or a name follows on the line: the comments
				// before it are not at the end of their line.
				for i := onLine; i < len(s.comments); i++ {
					s.comments[i].Trailing = false
				}
			}
			return true
		}
	}
	return true
}

// EndsLine reports whether c, the first byte of a token that follows a
// comment on its line, leaves the comment at the end of the line: a
// separator or a closing bracket, which belongs with what precedes it.
func EndsLine(c byte) bool {
	switch c {
	case ',', ';', ')', ']', '}':
		return true
	}
	return false
}

// Comments returns the comments met so far, in source order. It must not
// be modified.
func (s *Scanner) Comments() []Comment { return s.comments }

// End returns the offset just after the last token consumed by Next.
func (s *Scanner) End() int { return s.tok.End }

const punctuation = "(){}[],;.!?@#=<>|:+*/-"

func (s *Scanner) scan() Token {
	t := s.token()
	t.End = s.off
	if t.Kind == EOF {
		t.End = t.Pos.Offset
	}
	return t
}

func (s *Scanner) token() Token {
	if s.err != nil {
		return Token{Kind: EOF, Pos: s.pos()}
	}
	if !s.skipSpaceAndComments() {
		return Token{Kind: EOF, Pos: s.pos()}
	}
	p := s.pos()
	if s.off >= len(s.src) {
		return Token{Kind: EOF, Pos: p}
	}
	c := s.src[s.off]
	if c < utf8.RuneSelf {
		switch {
		case isASCIILetter(c):
			return s.ident(p)
		case c >= '0' && c <= '9':
			return s.number(p)
		case c == '"':
			return s.quoted(p)
		case c == '-':
			if s.off+1 < len(s.src) {
				switch n := s.src[s.off+1]; {
				case n == '-':
					s.advance(2)
					return Token{Kind: Dash2, Text: "--", Pos: p}
				case n == '>':
					s.advance(2)
					return Token{Kind: Arrow, Text: "->", Pos: p}
				case n >= '0' && n <= '9':
					return s.number(p)
				}
			}
		}
		for i := 0; i < len(punctuation); i++ {
			if punctuation[i] == c {
				s.advance(1)
				return Token{Kind: Punct, Text: punctuation[i : i+1], Pos: p}
			}
		}
		if t, bad := s.badByte(p); bad {
			return t
		}
		return s.fail(p, "unexpected character %q", rune(c))
	}
	if t, bad := s.badByte(p); bad {
		return t
	}
	r, size := utf8.DecodeRune(s.src[s.off:])
	switch {
	case unicode.IsLetter(r):
		return s.ident(p)
	case r == '∅':
		s.advanceRune(size)
		return Token{Kind: Empty, Text: "∅", Pos: p}
	case r == '⊤':
		s.advanceRune(size)
		return Token{Kind: Top, Text: "⊤", Pos: p}
	case r == '⊥':
		s.advanceRune(size)
		return Token{Kind: Bottom, Text: "⊥", Pos: p}
	}
	return s.fail(p, "unexpected character %q", r)
}

// badByte fails at p, the current offset, when it holds a byte that no
// text file has: a control character other than a space, or a byte that is
// not UTF-8.
func (s *Scanner) badByte(p syntax.Pos) (Token, bool) {
	c := s.src[s.off]
	switch {
	case c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f:
		return s.fail(p, "unexpected control character %U", rune(c)), true
	case c >= utf8.RuneSelf:
		if r, size := utf8.DecodeRune(s.src[s.off:]); r == utf8.RuneError && size <= 1 {
			return s.fail(p, "invalid UTF-8 byte 0x%02x: not a text file?", c), true
		}
	}
	return Token{}, false
}

// advanceRune moves over one multi-byte rune (which is never a newline).
func (s *Scanner) advanceRune(size int) {
	s.off += size
	s.col += size
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (s *Scanner) ident(p syntax.Pos) Token {
	start := s.off
	first := true
	for s.off < len(s.src) {
		c := s.src[s.off]
		if c < utf8.RuneSelf {
			if isASCIILetter(c) || !first && (c >= '0' && c <= '9' || c == '_') {
				s.off++
				s.col++
				first = false
				continue
			}
			break
		}
		r, size := utf8.DecodeRune(s.src[s.off:])
		if r == utf8.RuneError || !unicode.IsLetter(r) {
			break
		}
		s.advanceRune(size)
		first = false
	}
	// A name cut short by a bad byte is that byte's error, not a name: a
	// NUL in "@mess\x00age" is reported, not an unknown section @mess.
	if s.off < len(s.src) {
		if t, bad := s.badByte(s.pos()); bad {
			return t
		}
	}
	return Token{Kind: Ident, Text: string(s.src[start:s.off]), Pos: p}
}

func (s *Scanner) number(p syntax.Pos) Token {
	start := s.off
	if s.src[s.off] == '-' {
		s.advance(1)
	}
	for s.off < len(s.src) && s.src[s.off] >= '0' && s.src[s.off] <= '9' {
		s.advance(1)
	}
	if s.off-start > 18 {
		return s.fail(p, "number %s is too large", string(s.src[start:s.off]))
	}
	return Token{Kind: Number, Text: string(s.src[start:s.off]), Pos: p}
}

// Expect consumes the next token and checks that it is the punctuation p
// (or, for "--" and "->", the corresponding token). context completes the
// message, as in "expected ')' to close seq(".
func (s *Scanner) Expect(p string, context string) (Token, error) {
	t := s.Next()
	ok := t.Is(p) || (p == "--" && t.Kind == Dash2) || (p == "->" && t.Kind == Arrow)
	if !ok {
		return t, s.Unexpected(t, fmt.Sprintf("'%s' %s", p, context))
	}
	return t, nil
}

// quoted reads a quoted name at p.
func (s *Scanner) quoted(p syntax.Pos) Token {
	name, end, bad, msg := Unquote(s.src, s.off)
	if msg != "" {
		return s.fail(syntax.Pos{Offset: bad, Line: p.Line, Col: p.Col + bad - p.Offset}, "%s", msg)
	}
	s.advanceRune(end - s.off) // no newline in a quoted name
	return Token{Kind: Quoted, Text: name, Pos: p}
}

// ExpectName consumes the next token and checks that it is a name, bare
// or quoted.
func (s *Scanner) ExpectName(what string) (Token, error) {
	t := s.Next()
	if !t.IsName() {
		return t, s.Unexpected(t, what)
	}
	return t, nil
}

// ExpectIdent consumes the next token and checks that it is a label.
func (s *Scanner) ExpectIdent(what string) (Token, error) {
	t := s.Next()
	if t.Kind != Ident {
		return t, s.Unexpected(t, what)
	}
	return t, nil
}

// Unexpected returns the error "expected <want>, found <t>" at t, or the
// pending lexical error if the scanner stopped on one.
func (s *Scanner) Unexpected(t Token, want string) error {
	if s.err != nil {
		return s.err
	}
	return s.Errorf(t.Pos, "expected %s, found %s", want, t.Describe())
}
