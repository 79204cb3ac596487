package logs

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/syntax"
)

// An Input is one input of a run, opened: a log or a .htf multi-trace,
// read decompressed when it is gzip, refused past Options.MaxBytes, its
// format decided. Every driver (ivc analyze, ivc-beam, ivc monitor) opens
// its inputs with Open (OpenDetected) or NewInput, then reads a log into
// sessions with package session (session.ReadInput, Joiner.Read), or its
// events with Scan, and a .htf file with MultiTrace:
//
//	in, err := logs.Open("app.jsonl.gz", logs.Auto, opt)
//	if err != nil { ... }            // unreadable, too big, format unknown
//	defer in.Close()
//	if in.Format == logs.HTF {
//		mt, err := in.MultiTrace()
//	} else {
//		sessions, stats, err := session.ReadInput(in, report)
//	}
type Input struct {
	// Name is the input as given: a path, or "-" for standard input.
	Name string
	// Format is the format asked for, or the one Detect decided.
	Format Format

	errName string // the name in errors: "<stdin>" for "-"
	opt     Options
	lr      *lineReader // the decompressed, bounded content, its head peeked
	closer  io.Closer   // the file, if Open opened one
	used    bool
	tally   Tally  // of the names outside the signature, once read
	counted func() // OnMalformed's
}

// OnMalformed has f called each time a malformed line or record is
// counted (Stats.Malformed), as it is met: for a caller that counts them
// while a stream is read, when not every one is reported.
func (in *Input) OnMalformed(f func()) { in.counted = f }

// Undeclared returns, once the log is read, the names its events carry
// that the signature does not declare, each with its number of events
// (ignored), most first.
func (in *Input) Undeclared() []Undeclared { return in.tally.List() }

// Open opens the input at path ("-": standard input) for reading: a
// regular file only, so that a device or a named pipe is an error naming it
// rather than a read that never ends (internal/input). Its format is f, or,
// when f is Auto, the one Detect decides from its name and first bytes
// (decompressed). The error names the file.
func Open(path string, f Format, opt Options) (*Input, error) {
	return open(path, f, Auto, opt)
}

// OpenDetected opens the input at path as Open(path, Auto, opt) does, but
// for a file whose format detection already decided (Recognize returns it,
// DetectName too): its first bytes are not read to decide it again. With
// detected Auto, it is Open(path, Auto, opt).
func OpenDetected(path string, detected Format, opt Options) (*Input, error) {
	return open(path, Auto, detected, opt)
}

// open opens the input at path in format f, or, when f is Auto, in the
// format detected, or the one Detect decides when detected is Auto too.
func open(path string, f, detected Format, opt Options) (*Input, error) {
	if path == input.Stdin {
		return newInput(path, "<stdin>", os.Stdin, nil, -1, f, detected, opt)
	}
	file, size, err := input.Open(path)
	if err != nil {
		return nil, syntax.FileError(err)
	}
	if size > maxBytes(opt) {
		file.Close()
		return nil, tooBig(path, opt)
	}
	in, err := newInput(path, path, file, file, size, f, detected, opt)
	if err != nil {
		file.Close()
	}
	return in, err
}

// bufSize is the size of the buffer that reads an input of size bytes
// (-1: not known): bufio's default, or less for a smaller input.
func bufSize(size int64) int {
	const defaultSize = 4096
	if size < 0 || size >= defaultSize {
		return defaultSize
	}
	return int(size) + 1 // bufio makes it 16 at least
}

// NewInput is Open on a reader already opened (a file of a distributed
// filesystem, say): name is used in errors and, with Auto, by Detect. The
// caller closes r.
func NewInput(name string, r io.Reader, f Format, opt Options) (*Input, error) {
	return newInput(name, name, r, nil, -1, f, Auto, opt)
}

// newInput reads the input r, of size bytes (-1: not known), in format f;
// with f Auto, in the format detected, or the one Detect decides when
// detected is Auto too.
func newInput(name, errName string, r io.Reader, closer io.Closer, size int64, f, detected Format, opt Options) (*Input, error) {
	br := bufio.NewReaderSize(r, bufSize(size))
	in, err := decompress(br, &opt)
	if err != nil {
		return nil, fileError(errName, err)
	}
	if in != io.Reader(br) {
		size = -1 // decompressed: its size is not known
	}
	in = &limitReader{r: in, left: maxBytes(opt), err: tooBig(errName, opt)}
	lr := newLineReader(in, opt.maxValue(), size)
	// Detect needs a head; with the format given, the head is what the
	// first read brought: a stream (ivc monitor's standard input, a
	// followed file) may hold less than a head for a long while, and its
	// lines are to be read as they come.
	need := headSize
	if f != Auto {
		need = 1
	}
	if _, err := lr.peek(need); err != nil {
		return nil, fileError(errName, err)
	}
	head := lr.buf[lr.start:min(lr.end, lr.start+headSize)]
	if bytes.HasPrefix(head, utf8BOM) { // as some Windows tools write
		lr.start += len(utf8BOM)
		head = head[len(utf8BOM):]
	}
	switch {
	case f == Auto && detected != Auto:
		f = detected // decided from the same name and bytes: not again
	case f == Auto:
		if f, err = Detect(errName, head); err != nil {
			return nil, err
		}
	case f == OTLP && isOTLPProto(head):
		f = OTLPProto // OTLP in its other encoding
	case f == OTLP || f == Jaeger || f == Zipkin || f == Stdouttrace:
		if err := binaryHead(errName, head); err != nil {
			return nil, err
		}
	}
	return &Input{Name: name, Format: f, errName: errName, opt: opt, lr: lr, closer: closer}, nil
}

// Close closes the file Open opened.
func (in *Input) Close() error {
	if in.closer == nil {
		return nil
	}
	return in.closer.Close()
}

// Source is the name of the input in errors: Name, or "<stdin>" for
// standard input ("-").
func (in *Input) Source() string { return in.errName }

// Options returns the options the input was opened with.
func (in *Input) Options() Options { return in.opt }

// use is the error of a second read of an input: its content is read
// once.
func (in *Input) use() error {
	if in.used {
		return fmt.Errorf("%s: read twice", syntax.FileName(in.errName))
	}
	in.used = true
	return nil
}

// Scan reads the log and hands out its events, as the package function
// Scan does.
func (in *Input) Scan(emit func(Event), report func(error)) (Stats, error) {
	return in.Feed(&emitter{emit: emit}, report)
}

// Feed reads the log and hands each event to c as it is read, in the order
// read: the reading behind Scan, and behind the gatherers of package
// session (session.Read, Joiner.Read). Each malformed line or record goes
// to report, as a *syntax.Error, and reading goes on; the error is for the
// input as a whole (unreadable, a .htf multi-trace, or an error of c). An
// input is read once: a second Feed is an error.
func (in *Input) Feed(c Consumer, report func(error)) (Stats, error) {
	if err := in.use(); err != nil {
		return Stats{}, err
	}
	name, opt, lr := in.errName, &in.opt, in.lr
	b, err := newBuilder(name, opt, report, c)
	if err != nil {
		return Stats{}, err
	}
	b.counted = in.counted
	defer func() { in.tally = b.undeclared }()
	defer b.reportHidden()
	switch in.Format {
	case JSONL:
		err = readJSONL(b, lr, opt)
	case CSV:
		err = readCSV(b, lr, opt, isTSV(name))
	case OTLP:
		err = readOTLP(b, lr, opt)
	case Jaeger:
		err = readJaeger(b, lr.rest(), lr.line, opt)
	case Zipkin:
		err = readZipkin(b, lr.rest(), lr.line, opt)
	case Stdouttrace:
		err = readStdouttrace(b, lr.rest(), lr.line, opt)
	case OTLPProto:
		err = readOTLPProto(b, lr.rest(), opt)
	case HTF:
		return Stats{}, fmt.Errorf("%s: a .htf multi-trace is not a log: read it with multitrace.Read or Input.MultiTrace", syntax.FileName(name))
	default:
		return Stats{}, fmt.Errorf("%s: unknown log format %s", syntax.FileName(name), in.Format)
	}
	if err != nil {
		return b.stats, fileError(name, err)
	}
	return b.stats, nil
}

// MultiTrace reads a .htf input, whole (up to Options.MaxBytes), and
// resolves it against Options.Sig. A .htf multi-trace has its own
// locations, its components: with Options.Locations set, it is an error.
func (in *Input) MultiTrace() (*multitrace.MultiTrace, error) {
	if in.Format != HTF {
		return nil, fmt.Errorf("%s: a %s log is not a .htf multi-trace: read it with session.ReadInput", syntax.FileName(in.errName), in.Format)
	}
	if in.opt.Locations != nil {
		return nil, fmt.Errorf("%s: a .htf multi-trace has its own locations (its components): --locations applies to event logs and traces", syntax.FileName(in.Name))
	}
	if in.opt.Sig == nil {
		return nil, fmt.Errorf("%s: no signature to read the multi-trace against", syntax.FileName(in.errName))
	}
	if err := in.use(); err != nil {
		return nil, err
	}
	src, err := io.ReadAll(in.lr.rest())
	if err != nil {
		return nil, fileError(in.errName, err)
	}
	return multitrace.ParseResolve(in.Name, src, in.opt.Sig)
}

// exts are the extensions of the files of each format.
var exts = [...][]string{
	HTF:         {".htf"},
	JSONL:       {".jsonl", ".ndjson"},
	CSV:         {".csv", ".tsv"},
	OTLP:        {".json"},
	Jaeger:      {".json"},
	Zipkin:      {".json"},
	OTLPProto:   {".pb"},
	Stdouttrace: {".json"},
}

// Extensions returns the extensions of the files a directory stands for
// when read in format f, each also with ".gz": with a format given, its
// files; with Auto, .htf files, JSON Lines logs and .json traces (OTLP or
// Jaeger, told by their content: a .json file that is neither is an error,
// not skipped). CSV files are read when named, or with their format given:
// a .csv beside the logs may hold anything.
func Extensions(f Format) []string {
	var out []string
	if f == Auto {
		out = append(out, exts[HTF]...)
		out = append(out, exts[JSONL]...)
		out = append(out, exts[OTLP]...)
	} else if int(f) < len(exts) {
		out = append(out, exts[f]...)
	}
	for _, e := range out {
		out = append(out, e+".gz")
	}
	return out
}

// HasExtension reports whether the name of path ends with one of exts,
// ignoring case; a double extension such as ".jsonl.gz" counts whole.
func HasExtension(path string, exts ...string) bool {
	base := strings.ToLower(filepath.Base(path))
	for _, e := range exts {
		if strings.HasSuffix(base, e) && len(base) > len(e) {
			return true
		}
	}
	return false
}

// Recognize reports whether the file at path is an input of format f (Auto:
// any) that a directory stands for: by its extension (Extensions), or,
// with Auto, by its first bytes (Detect: an OTLP or Jaeger .json file, a
// JSON Lines log of another name, ...). A CSV or TSV file, which may hold
// any table, is a log when its header names the field of an action or a
// lifeline (Options.Fields).
//
// With Auto, detected is what recognition decided of the file's format:
// the format Detect gave it when its first bytes were read, or the one its
// name decides (DetectName); Auto when it was recognized by its extension
// and its content decides. Carried to OpenDetected, it is not decided
// twice.
func Recognize(path string, f Format, opt Options) (detected Format, ok bool) {
	if HasExtension(path, Extensions(f)...) {
		if f != Auto {
			return Auto, true
		}
		return DetectName(path), true
	}
	if f != Auto {
		return Auto, false
	}
	in, err := Open(path, Auto, opt)
	if err != nil {
		return Auto, false
	}
	defer in.Close()
	if in.Format != CSV {
		return in.Format, true
	}
	names, err := fieldNames(opt.Fields)
	if err != nil {
		return Auto, false
	}
	head, _ := in.lr.peekLine()
	sep := ","
	if isTSV(path) || strings.Contains(string(head), "\t") {
		sep = "\t"
	}
	for _, h := range strings.Split(string(head), sep) {
		if h = strings.Trim(strings.TrimSpace(h), `"`); h == names[roleAction] || h == names[roleLifeline] {
			return CSV, true
		}
	}
	return Auto, false
}
