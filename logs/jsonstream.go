package logs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/ivc-project/ivc/syntax"
)

// jsonStream reads a stream of JSON values one token or one value at a
// time (encoding/json's Decoder), and knows the line and column of what it
// reads: the Decoder's own offsets in syntax errors are not reliable, so
// the stream keeps the bytes from the last token read on, to find the
// position of an error itself.
type jsonStream struct {
	file string
	d    *json.Decoder
	lc   *lineCounter
}

func newJSONStream(file string, r io.Reader, line, max int) *jsonStream {
	lc := &lineCounter{r: r, line: line, lastNL: -1, max: max}
	d := json.NewDecoder(lc)
	d.UseNumber()
	return &jsonStream{file: file, d: d, lc: lc}
}

// token reads the next token (io.EOF at the end of the input).
func (s *jsonStream) token() (json.Token, error) {
	off := s.d.InputOffset()
	s.lc.mark(off)
	t, err := s.d.Token()
	if err != nil && err != io.EOF {
		return nil, s.syntaxError(off, err)
	}
	return t, err
}

// peek returns the first byte of the next value, without reading it;
// false at the end of the input, on an error, or before a ']' or a '}'
// (token then tells which).
func (s *jsonStream) peek() (byte, bool) {
	if !s.d.More() {
		return 0, false
	}
	var c [1]byte
	if n, _ := s.d.Buffered().Read(c[:]); n == 0 {
		return 0, false
	}
	return c[0], true
}

// value reads the next value into v (a *json.RawMessage to keep its
// text) and returns the line and column where it starts.
func (s *jsonStream) value(v *json.RawMessage) (line, col int, err error) {
	off := s.d.InputOffset()
	s.lc.mark(off)
	if err := s.d.Decode(v); err != nil {
		return 0, 0, s.syntaxError(off, err)
	}
	line, col = s.lc.pos(s.d.InputOffset() - int64(len(*v)))
	return line, col, nil
}

// expect reads a token that must be delim.
func (s *jsonStream) expect(delim json.Delim, what string) (line, col int, err error) {
	off := s.d.InputOffset()
	t, err := s.token()
	if err == io.EOF {
		return 0, 0, s.errorAt(off, "unexpected end of input, expected %s", what)
	}
	if err != nil {
		return 0, 0, err
	}
	if t != delim {
		return 0, 0, s.errorAt(s.d.InputOffset()-1, "expected %s, found %v", what, t)
	}
	line, col = s.lc.pos(s.d.InputOffset() - 1)
	return line, col, nil
}

// errorAt returns a *syntax.Error at offset off (or at the first byte after it
// that is not blank, past one ',' or ':').
func (s *jsonStream) errorAt(off int64, format string, args ...any) *syntax.Error {
	off = s.lc.skipSeparators(off)
	line, col := s.lc.pos(off)
	return errorAt(s.file, line, col, fmt.Sprintf(format, args...))
}

// syntaxError returns the error of a value starting after offset off, with
// its position as encoding/json finds it on the bytes kept.
func (s *jsonStream) syntaxError(off int64, err error) error {
	if errors.Is(err, errValueTooLong) {
		return s.errorAt(off, "a JSON value longer than %d bytes, the most one value may hold%s", s.lc.max, raiseHint(s.lc.max))
	}
	var se *json.SyntaxError
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return s.errorAt(off, "invalid JSON: unexpected end of input")
	}
	if !errors.As(err, &se) {
		return err
	}
	start := s.lc.skipSeparators(off)
	if col, _ := jsonSyntaxError(s.lc.from(start)); col > 0 {
		line, c := s.lc.pos(start + int64(col) - 1)
		return errorAt(s.file, line, c, "invalid JSON: "+se.Error())
	}
	return s.errorAt(start, "invalid JSON: %s", se.Error())
}

// errValueTooLong ends the reading of a JSON document at a value longer
// than its limit.
var errValueTooLong = errors.New("JSON value too long")

// lineCounter is the reader under a jsonStream: it keeps the bytes read
// from the last mark on, and counts the lines before it.
type lineCounter struct {
	r      io.Reader
	max    int    // the most bytes kept: one value's
	keep   []byte // the bytes read from offset kept on
	kept   int64
	line   int   // lines ended before kept
	lastNL int64 // offset of the last '\n' before kept, or -1
}

func (c *lineCounter) Read(p []byte) (int, error) {
	if len(c.keep) > c.max {
		// One value (a Jaeger span, an OTLP resource) that large would
		// take many times its size to decode: it ends the reading.
		return 0, errValueTooLong
	}
	n, err := c.r.Read(p)
	c.keep = append(c.keep, p[:n]...)
	return n, err
}

// mark drops the bytes before offset off (which must not decrease).
func (c *lineCounter) mark(off int64) {
	n := int(min(max(off-c.kept, 0), int64(len(c.keep))))
	dropped := c.keep[:n]
	if k := bytes.Count(dropped, []byte{'\n'}); k > 0 {
		c.line += k
		c.lastNL = c.kept + int64(bytes.LastIndexByte(dropped, '\n'))
	}
	c.kept += int64(n)
	if n > 0 { // move the rest down: keep's size stays that of one value
		c.keep = c.keep[:copy(c.keep, c.keep[n:])]
	}
}

// pos returns the line and column (from 1) of offset off, at or after the
// last mark.
func (c *lineCounter) pos(off int64) (line, col int) {
	n := int(min(max(off-c.kept, 0), int64(len(c.keep))))
	before := c.keep[:n]
	line, lastNL := c.line, c.lastNL
	if k := bytes.Count(before, []byte{'\n'}); k > 0 {
		line += k
		lastNL = c.kept + int64(bytes.LastIndexByte(before, '\n'))
	}
	return line + 1, int(off - lastNL)
}

// from returns the bytes kept from offset off on.
func (c *lineCounter) from(off int64) []byte {
	return c.keep[min(max(off-c.kept, 0), int64(len(c.keep))):]
}

// skipSeparators returns the offset of the first byte at or after off
// that is not blank, skipping at most one ',' or ':'.
func (c *lineCounter) skipSeparators(off int64) int64 {
	b := c.from(off)
	i, sep := 0, false
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
		case ',', ':':
			if sep {
				return off + int64(i)
			}
			sep = true
		default:
			return off + int64(i)
		}
		i++
	}
	return off + int64(i)
}

// objects reads a stream of values, each an object or an array of objects
// (the spans of Zipkin and of stdouttrace), and hands each element to f,
// with the line and column where it starts; what names the stream's shape
// in errors. A syntax error, and an error of f, end the reading.
func (s *jsonStream) objects(what string, f func(raw json.RawMessage, line, col int) error) error {
	var raw json.RawMessage
	for {
		c, ok := s.peek()
		if !ok || c != '{' && c != '[' {
			off := s.d.InputOffset()
			t, err := s.token()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			return s.errorAt(off, "expected %s, found %v", what, t)
		}
		if c == '{' {
			line, col, err := s.value(&raw)
			if err != nil {
				return err
			}
			if err := f(raw, line, col); err != nil {
				return err
			}
			continue
		}
		if _, err := s.token(); err != nil {
			return err
		}
		for s.d.More() {
			line, col, err := s.value(&raw)
			if err != nil {
				return err
			}
			if err := f(raw, line, col); err != nil {
				return err
			}
		}
		if _, _, err := s.expect(']', "']'"); err != nil {
			return err
		}
	}
}
