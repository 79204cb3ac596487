package logs

import (
	"bytes"
	"fmt"
	"io"
)

// readCSV reads a CSV event log (RFC 4180: a header row naming the fields,
// then one event a row; quoted fields may hold the separator, "" and line
// breaks), or a TSV one, separated by tabs: when tsv (a .tsv file), or
// when the header holds a tab and no comma. Blank lines are skipped, and so
// are the spaces around an unquoted field ("s1, a, send" reads as
// "s1,a,send").
func readCSV(b *builder, lr *lineReader, opt *Options, tsv bool) error {
	names, err := fieldNames(opt.Fields)
	if err != nil {
		return err
	}
	c := &csvReader{lr: lr}
	var header [][]byte
	for header == nil {
		line, err := c.lr.nextEvent(b)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		c.sep = ','
		if tsv || bytes.IndexByte(line, '\t') >= 0 && bytes.IndexByte(line, ',') < 0 {
			c.sep = '\t'
		}
		if err := c.parse(line); err != nil {
			return &Error{File: b.file, Line: err.line, Col: err.col, Msg: "header row: " + err.msg}
		}
		header = c.fields()
	}
	var column [numRoles]int // of each role, or -1
	for r := range column {
		column[r] = -1
		for i, h := range header {
			if string(h) != names[r] {
				continue
			}
			if column[r] >= 0 {
				return &Error{File: b.file, Line: c.startLine, Col: c.cols[i], Msg: fmt.Sprintf("header row: field %q appears twice", names[r])}
			}
			column[r] = i
		}
	}
	for {
		line, err := c.lr.nextEvent(b)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if perr := c.parse(line); perr != nil {
			b.malformed(perr.line, perr.col, "%s", perr.msg)
			continue
		}
		if len(c.ends) != len(header) {
			b.malformed(c.startLine, 0, "the row has %d fields, the header %d", len(c.ends), len(header))
			continue
		}
		var ev event
		for r, i := range column {
			if i >= 0 {
				if f := c.field(i); len(f) > 0 {
					ev[r] = value{typ: text, text: f}
				}
			}
		}
		bad, err := b.interpret(&ev, &names, c.startLine)
		if err != nil {
			return err
		}
		if bad != nil {
			col := 0
			if i := column[bad.role]; i >= 0 {
				col = c.cols[i]
			}
			b.bad(&ev, bad, c.startLine, col)
		}
	}
}

// csvReader splits the records of a CSV file into fields.
type csvReader struct {
	lr        *lineReader
	sep       byte
	startLine int    // the line the record starts on
	buf       []byte // the fields' text, unquoted, one after the other
	ends      []int  // the end of each field in buf
	cols      []int  // the column each field starts at
}

type csvError struct {
	line, col int
	msg       string
}

// parse splits the record starting with line, reading more lines while a
// quoted field goes on.
func (c *csvReader) parse(line []byte) *csvError {
	c.startLine = c.lr.line
	c.buf, c.ends, c.cols = c.buf[:0], c.ends[:0], c.cols[:0]
	i := 0
	for {
		c.cols = append(c.cols, i+1)
		if i < len(line) && line[i] == '"' {
			qline, qcol := c.lr.line, i+1
			i++
			for {
				j := bytes.IndexByte(line[i:], '"')
				if j < 0 { // the field goes on on the next line
					c.buf = append(c.buf, line[i:]...)
					c.buf = append(c.buf, '\n')
					if len(c.buf) > c.lr.max {
						return &csvError{qline, qcol, fmt.Sprintf("quoted field longer than %d bytes (not closed?)", c.lr.max)}
					}
					next, err := c.lr.next()
					if err != nil {
						return &csvError{qline, qcol, "quoted field not closed"}
					}
					line, i = next, 0
					continue
				}
				c.buf = append(c.buf, line[i:i+j]...)
				i += j + 1
				if i < len(line) && line[i] == '"' { // "" stands for "
					c.buf = append(c.buf, '"')
					i++
					continue
				}
				break
			}
			c.ends = append(c.ends, len(c.buf))
			if i < len(line) && line[i] != c.sep {
				return &csvError{c.lr.line, i + 1, fmt.Sprintf("unexpected %q after a quoted field", line[i])}
			}
		} else {
			j := bytes.IndexByte(line[i:], c.sep)
			if j < 0 {
				j = len(line) - i
			}
			c.buf = append(c.buf, bytes.Trim(line[i:i+j], " \t")...)
			c.ends = append(c.ends, len(c.buf))
			i += j
		}
		if i >= len(line) {
			return nil
		}
		i++ // the separator
	}
}

// field returns the text of field i of the record parsed.
func (c *csvReader) field(i int) []byte {
	start := 0
	if i > 0 {
		start = c.ends[i-1]
	}
	return c.buf[start:c.ends[i]]
}

// fields returns copies of the fields of the record parsed.
func (c *csvReader) fields() [][]byte {
	out := make([][]byte, len(c.ends))
	for i := range out {
		out[i] = bytes.Clone(c.field(i))
	}
	return out
}
