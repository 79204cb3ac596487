package logs

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/ivc-project/ivc/syntax"
)

// readCSV reads a CSV event log (RFC 4180: a header row naming the fields,
// then one event a row; quoted fields may hold the separator, "" and line
// breaks), or a TSV one, separated by tabs: when tsv (a .tsv file), or
// when the header holds a tab and no comma. Blank lines are skipped, and so
// are the spaces around a field ("s1, a, send" reads as "s1,a,send").
//
// The records are split by encoding/csv: one parser of
// CSV, the standard library's, rather than one of our own. The hand-written
// reader it replaced was faster, but not by enough to keep a second CSV
// parser: 200k rows of 5 fields, both in one run (go test -bench, GOMAXPROCS=1,
// on a loaded 2-core machine), 280–370 ms with encoding/csv against 250–340
// ms, and one allocation a row (the record's string) against none.
func readCSV(b *builder, lr *lineReader, opt *Options, tsv bool) error {
	names, err := fieldNames(opt.Fields)
	if err != nil {
		return err
	}
	head, ok := lr.peekLine()
	sep := ','
	if tsv || ok && bytes.IndexByte(head, '\t') >= 0 && bytes.IndexByte(head, ',') < 0 {
		sep = '\t'
	}
	in := &recordLimit{r: lr.rest(), max: int64(lr.max)}
	cr := csv.NewReader(in)
	in.cr = cr
	cr.Comma = sep
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	first := lr.line // lines before the CSV's first
	var header []string
	for header == nil || blank(header) {
		if header, err = cr.Read(); err == io.EOF {
			return nil
		} else if err != nil {
			return csvError(b.file, first, err, in.atEOF(), "header row: ")
		}
	}
	header = trimSpaceAfter(header)
	var column [numRoles]int // of each role, or -1
	for r := range column {
		column[r] = -1
		for i, h := range header {
			if h != names[r] {
				continue
			}
			if column[r] >= 0 {
				line, col := cr.FieldPos(i)
				return errorAt(b.file, first+line, col, fmt.Sprintf("header row: field %q appears twice", names[r]))
			}
			column[r] = i
		}
	}
	header = append([]string(nil), header...) // the next Read reuses it
	cr.FieldsPerRecord = -1                   // ragged rows are reported below, with their column
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if e := csvError(b.file, first, err, in.atEOF(), ""); e.Pos.Line > 0 {
				b.lastLine = e.Pos.Line
				if !b.hide() {
					b.report(e)
				}
				if errors.Is(err, errRecordTooLong) {
					return nil // the rest of the record cannot be found
				}
				continue
			}
			return err
		}
		line, _ := cr.FieldPos(0)
		line += first
		if blank(rec) {
			continue
		}
		if len(rec) != len(header) {
			b.malformed(line, raggedCol(cr, rec, len(header)), "%s", ragged(len(rec), header))
			continue
		}
		var ev event
		for r, i := range column {
			if i >= 0 {
				if f := trimField(rec[i]); len(f) > 0 {
					// Read only, while rec lives: no copy.
					ev[r] = value{typ: text, text: unsafe.Slice(unsafe.StringData(f), len(f))}
				}
			}
		}
		bad, err := b.interpret(&ev, &names, line)
		if err != nil {
			return err
		}
		if bad != nil {
			col := 0
			if i := column[bad.role]; i >= 0 {
				_, col = cr.FieldPos(i)
			}
			b.bad(&ev, bad, line, col)
		}
	}
}

// blank reports whether a record is a line of spaces (encoding/csv skips
// the empty ones).
func blank(rec []string) bool { return len(rec) == 1 && trimField(rec[0]) == "" }

// ragged says how a row's fields differ from the header's.
func ragged(n int, header []string) string {
	if n < len(header) {
		return fmt.Sprintf("the row has %d fields, the header %d: field %q is missing", n, len(header), header[n])
	}
	return fmt.Sprintf("the row has %d fields, the header %d: an extra field starts here", n, len(header))
}

// raggedCol returns the column where a ragged row goes wrong: its first
// extra field, or the end of its last field when fields are missing.
func raggedCol(cr *csv.Reader, rec []string, want int) int {
	if len(rec) > want {
		_, col := cr.FieldPos(want)
		return col
	}
	_, col := cr.FieldPos(len(rec) - 1)
	return col + len(rec[len(rec)-1])
}

// csvError turns an error of encoding/csv into a *syntax.Error, its line counted
// from the file's start (first lines come before the CSV's); Line is 0 for
// an error of the input.
func csvError(file string, first int, err error, atEOF bool, prefix string) *syntax.Error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return errorAt(file, 0, 0, err.Error())
	}
	msg := pe.Err.Error()
	switch {
	case errors.Is(pe.Err, csv.ErrQuote) && atEOF:
		// The record, from StartLine on, took the rest of the file.
		return errorAt(file, first+pe.StartLine, 0, prefix+"quoted field not closed")
	case errors.Is(pe.Err, csv.ErrQuote):
		msg = "a '\"' in a quoted field not doubled, or text after its closing quote"
	case errors.Is(pe.Err, csv.ErrBareQuote):
		msg = "a '\"' in an unquoted field (quote the field, and double the '\"')"
	case errors.Is(pe.Err, errRecordTooLong):
		return errorAt(file, first+pe.StartLine, 0, prefix+err.Error())
	}
	return errorAt(file, first+pe.Line, pe.Column, prefix+msg)
}

// errRecordTooLong ends the reading of a CSV file at a record longer than
// the line limit.
var errRecordTooLong = errors.New("record too long")

// recordLimit is the input of a csv.Reader: it fails once the record being
// read is longer than max, so that one record cannot take the memory.
type recordLimit struct {
	r    io.Reader
	cr   *csv.Reader
	max  int64
	read int64 // bytes handed to cr
	eof  bool
}

// atEOF reports whether cr has read all of the input.
func (l *recordLimit) atEOF() bool { return l.eof && l.cr.InputOffset() == l.read }

func (l *recordLimit) Read(p []byte) (int, error) {
	if l.read-l.cr.InputOffset() > l.max {
		return 0, fmt.Errorf("%w: a record longer than %d bytes%s (a quoted field not closed?)", errRecordTooLong, l.max, raiseHint(int(l.max)))
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	l.eof = err == io.EOF
	return n, err
}

// trimField drops the spaces and tabs after a field (those before an
// unquoted one, csv.Reader.TrimLeadingSpace drops).
func trimField(f string) string {
	j := len(f)
	for j > 0 && (f[j-1] == ' ' || f[j-1] == '\t') {
		j--
	}
	return f[:j]
}

func trimSpaceAfter(fs []string) []string {
	for i, f := range fs {
		fs[i] = trimField(f)
	}
	return fs
}
