package logs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/input"
)

// Options say how to read a log.
type Options struct {
	// Sig is the signature: the lifelines and messages of the protocol.
	Sig *interaction.Signature
	// Locations are the groups of lifelines that share a clock, one
	// component of each session's multi-trace each, in order; nil: one
	// location per lifeline of Sig. A lifeline in no group gets a location
	// of its own, after the others, in signature order.
	Locations []interaction.Lifelines
	// Fields renames the roles of an event log's fields: role → field name
	// (--field role=NAME). The roles are session, action, lifeline, kind,
	// message, seq and time; each is its own field name by default.
	Fields map[string]string
	// LifelineAttr, when set, replaces service.name (OTLP: a resource
	// attribute, then a span attribute; Jaeger: a process tag, then a span
	// tag) as the attribute that names a span's lifeline. MessageAttr, when
	// set, replaces messaging.destination.name and rpc.method as the
	// attribute that names its message (the span name still applies when
	// the attribute is absent).
	LifelineAttr, MessageAttr string
	// Strict makes an event outside the signature a malformed-line error
	// instead of ignored.
	Strict bool
	// MaxBytes refuses an input larger than this, once decompressed
	// (0: DefaultMaxBytes).
	MaxBytes int64
	// MaxReports is how many malformed lines or records of a file are
	// reported (0: DefaultMaxReports); the others are counted in
	// Stats.Malformed, and one last report says how many there were.
	MaxReports int
}

// DefaultMaxBytes is the largest input Read accepts when Options.MaxBytes
// is 0.
const DefaultMaxBytes = 4 << 30

// DefaultMaxReports is how many malformed lines of a file are reported
// when Options.MaxReports is 0.
const DefaultMaxReports = 100

var utf8BOM = []byte("\ufeff")

// headSize is how much of a file Read shows Detect.
const headSize = 64 << 10

// Read reads the log at path ("-": standard input, named "<stdin>" in
// errors; a gzip file, by its ".gz" suffix or its content, is decompressed)
// in format f (Auto: Detect decides) and returns its sessions in order of
// first appearance.
//
// Each malformed line or record is passed to report as an *Error printing
// "file:line: message" (file:line:col when the column is known) and
// reading goes on; err is for the file as a whole (unreadable, too big, a
// format that cannot be decided, or HTF, which multitrace.Read reads), and
// the sessions are then nil. Every event read is accounted for: judged (in
// a session's MT), ignored (counted) or reported (Malformed).
//
// Memory follows the number of events (about 50 bytes each, half of it
// the multi-traces), never the size of the text: lines are read one at a
// time, and so are the traces and spans of a Jaeger or multi-line OTLP file.
func Read(path string, f Format, opt Options, report func(error)) ([]Session, Stats, error) {
	if path == "-" {
		return ReadFrom("<stdin>", os.Stdin, f, opt, report)
	}
	// Regular files only: a device would never end, a pipe could block.
	file, size, err := input.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", pe.Path, pe.Err)
		}
		return nil, Stats{}, err
	}
	defer file.Close()
	if size > maxBytes(opt) {
		return nil, Stats{}, tooBig(path, opt)
	}
	return ReadFrom(path, file, f, opt, report)
}

// ReadFrom is Read on an io.Reader already opened: name is used in errors
// and, with Auto, by Detect.
func ReadFrom(name string, r io.Reader, f Format, opt Options, report func(error)) ([]Session, Stats, error) {
	g, err := newGatherer(name, &opt)
	if err != nil {
		return nil, Stats{}, err
	}
	stats, err := scan(name, r, f, opt, report, g)
	if err != nil {
		return nil, stats, err
	}
	sessions := g.finish()
	stats.Sessions = len(sessions)
	return sessions, stats, nil
}

// scan reads the log r in format f and hands its events to out: what Read
// and Scan share.
func scan(name string, r io.Reader, f Format, opt Options, report func(error), out sink) (Stats, error) {
	b, err := newBuilder(name, &opt, report, out)
	if err != nil {
		return Stats{}, err
	}
	br := bufio.NewReader(r)
	raw, err := br.Peek(len(gzipMagic))
	if err != nil && err != io.EOF {
		return Stats{}, fileError(name, err)
	}
	var in io.Reader = br
	if bytes.HasPrefix(raw, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return Stats{}, fileError(name, err)
		}
		in = zr
	}
	in = &limitReader{r: in, left: maxBytes(opt), err: tooBig(name, opt)}
	lr := newLineReader(in, MaxLine)
	head, _ := lr.peek(headSize)
	if bytes.HasPrefix(head, utf8BOM) { // as some Windows tools write
		lr.start += len(utf8BOM)
		head = head[len(utf8BOM):]
	}
	switch {
	case f == Auto:
		if f, err = Detect(name, head); err != nil {
			return Stats{}, err
		}
	case f == OTLP || f == Jaeger || bytes.HasPrefix(head, zstdMagic):
		if err := binaryHead(name, head); err != nil {
			return Stats{}, err
		}
	}
	defer b.reportHidden()
	switch f {
	case JSONL:
		err = readJSONL(b, lr, &opt)
	case CSV:
		err = readCSV(b, lr, &opt, isTSV(name))
	case OTLP:
		err = readOTLP(b, lr, &opt)
	case Jaeger:
		err = readJaeger(b, lr.rest(), lr.line, &opt)
	case HTF:
		return Stats{}, fmt.Errorf("%s: a .htf multi-trace is not a log: read it with multitrace.Read", name)
	default:
		return Stats{}, fmt.Errorf("%s: unknown log format %s", name, f)
	}
	if err != nil {
		return b.stats, fileError(name, err)
	}
	return b.stats, nil
}

// fileError names the file in an error that does not already.
func fileError(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if strings.HasPrefix(err.Error(), name+":") {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

func isTSV(name string) bool {
	return strings.EqualFold(filepath.Ext(strings.TrimSuffix(strings.ToLower(name), ".gz")), ".tsv")
}

func maxBytes(opt Options) int64 {
	if opt.MaxBytes > 0 {
		return opt.MaxBytes
	}
	return DefaultMaxBytes
}

func tooBig(name string, opt Options) error {
	return fmt.Errorf("%s: larger than %d bytes, the most a log may hold (raise the limit to read it)", name, maxBytes(opt))
}

// limitReader fails with err once more than left bytes are read.
type limitReader struct {
	r    io.Reader
	left int64
	err  error
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, l.err
	}
	return n, err
}
