package logs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// MaxLine is the longest line the readers accept, and the longest JSON
// value (a Jaeger span, an OTLP resource) and CSV record: a longer line is
// reported as malformed and skipped, a longer value or record is reported
// and ends the reading of its file. Decoding takes several times the size
// of what it decodes (pdata: tens of times an OTLP line), so this bounds
// the memory one line can take, whatever its compression.
const MaxLine = 16 << 20

// maxLine is the limit the readers apply: MaxLine, lowered by tests so that
// they need not write MaxLine bytes.
var maxLine = MaxLine

// raiseHint says how to raise a limit of max bytes on what one line or
// value holds: with --max-memory, up to MaxLine; beyond, with --max-line.
func raiseHint(max int) string {
	if max < maxLine {
		return fmt.Sprintf(" (--max-memory raises it, up to %d)", maxLine)
	}
	return " (--max-line raises it)"
}

// errLineTooLong is reported for a line longer than the reader's maximum.
var errLineTooLong = errors.New("line too long")

// lineReader reads lines without copying them: each line is a slice of its
// buffer, valid until the next call. The buffer grows with the longest line
// read, up to max (plus a chunk): memory never follows the file's size.
type lineReader struct {
	r     io.Reader
	buf   []byte
	start int // first unread byte of buf
	end   int // end of the data in buf
	err   error
	line  int // number of the last line returned, from 1
	max   int
}

// chunk is the size of a lineReader's buffer (it grows for a longer
// line), and minChunk the least, for an input known to be smaller.
const (
	chunk    = 64 << 10
	minChunk = 512
)

// newLineReader returns a reader of the lines of r, none longer than maxLine;
// size is r's size when known (else -1): a small input gets a buffer of
// its size, not a chunk (a run of many small .htf files allocated 64 KiB
// for each).
func newLineReader(r io.Reader, maxLine int, size int64) *lineReader {
	n := chunk
	if size >= 0 && size < chunk {
		n = max(int(size)+1, minChunk)
	}
	return &lineReader{r: r, buf: make([]byte, n), max: maxLine}
}

// fill reads more data, keeping buf[start:end]; false at the end of the
// input or on an error (lr.err).
func (lr *lineReader) fill() bool {
	if lr.err != nil {
		return false
	}
	if lr.start > 0 {
		lr.end = copy(lr.buf, lr.buf[lr.start:lr.end])
		lr.start = 0
	}
	if lr.end == len(lr.buf) {
		lr.buf = append(lr.buf, make([]byte, len(lr.buf))...)
	}
	n, err := lr.r.Read(lr.buf[lr.end:])
	lr.end += n
	if err != nil {
		lr.err = err
	}
	return n > 0 || err == nil
}

// next returns the next line, without its "\n" or "\r\n", and its number
// (lr.line). At the end of the input it returns io.EOF; a read error is
// returned as it is (and the line it cut is not returned). A line longer than max is skipped and errLineTooLong
// returned: the next call goes on with the following line.
func (lr *lineReader) next() ([]byte, error) {
	scanned := 0 // bytes of buf[start:end] known to hold no '\n'
	for {
		if i := bytes.IndexByte(lr.buf[lr.start+scanned:lr.end], '\n'); i >= 0 {
			end := lr.start + scanned + i
			line := lr.buf[lr.start:end]
			lr.start = end + 1
			lr.line++
			if len(line) > lr.max {
				return nil, errLineTooLong
			}
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, nil
		}
		scanned = lr.end - lr.start
		if scanned > lr.max {
			return nil, lr.skipLong()
		}
		if !lr.fill() {
			if lr.err != nil && lr.err != io.EOF {
				return nil, lr.err
			}
			if lr.end > lr.start { // a last line without '\n'
				line := lr.buf[lr.start:lr.end]
				lr.start = lr.end
				lr.line++
				return bytes.TrimSuffix(line, []byte{'\r'}), nil
			}
			return nil, io.EOF
		}
	}
}

// skipLong drops the rest of a line longer than max.
func (lr *lineReader) skipLong() error {
	lr.line++
	for {
		lr.start = lr.end
		if !lr.fill() {
			if lr.err == io.EOF {
				return errLineTooLong
			}
			return lr.err
		}
		if i := bytes.IndexByte(lr.buf[lr.start:lr.end], '\n'); i >= 0 {
			lr.start += i + 1
			return errLineTooLong
		}
	}
}

// peekLine returns the first line not yet read, without reading it, and
// false when it is longer than max or the input ends in an error before it.
func (lr *lineReader) peekLine() ([]byte, bool) {
	scanned := 0
	for {
		if i := bytes.IndexByte(lr.buf[lr.start+scanned:lr.end], '\n'); i >= 0 {
			return lr.buf[lr.start : lr.start+scanned+i], true
		}
		scanned = lr.end - lr.start
		if scanned > lr.max {
			return nil, false
		}
		if !lr.fill() {
			return lr.buf[lr.start:lr.end], lr.err == io.EOF
		}
	}
}

// peek returns up to the next n bytes not yet read, without reading them.
func (lr *lineReader) peek(n int) ([]byte, error) {
	for lr.end-lr.start < n && lr.fill() {
	}
	if lr.err != nil && lr.err != io.EOF {
		return lr.buf[lr.start:lr.end], lr.err
	}
	return lr.buf[lr.start:min(lr.end, lr.start+n)], nil
}

// rest returns the input not yet read, as a reader.
func (lr *lineReader) rest() io.Reader {
	buffered := bytes.NewReader(lr.buf[lr.start:lr.end])
	switch lr.err {
	case nil:
		return io.MultiReader(buffered, lr.r)
	case io.EOF:
		return buffered
	}
	return io.MultiReader(buffered, errReader{lr.err})
}

// errReader is a reader that fails with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// nextEvent returns the next line that is not blank, reporting to b the
// lines longer than the limit (and skipping them); io.EOF at the end.
func (lr *lineReader) nextEvent(b *builder) ([]byte, error) {
	for {
		line, err := lr.next()
		switch {
		case errors.Is(err, errLineTooLong):
			b.malformed(lr.line, 0, "line longer than %d bytes%s", lr.max, raiseHint(lr.max))
			continue
		case err != nil:
			return nil, err
		}
		// A line that starts with a visible ASCII byte is not blank: most
		// lines are told so without trimming them.
		if len(line) > 0 && line[0] > ' ' && line[0] < utf8.RuneSelf || len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}
