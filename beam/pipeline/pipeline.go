// Package pipeline is ivc's verification of logs as an Apache Beam
// pipeline: the same readers (package logs) and the same front door
// (package check) as ivc analyze, spread over the workers of any Beam
// runner — Prism in process, Flink, Spark, Dataflow.
//
//	files ──MatchFiles, Reshuffle──▶ scan ──events by session──▶ GroupByKey ──▶ judge ──▶ write
//	                                   │ bad lines, .htf verdicts                 │ records, errors
//	                                   └──────────────── counts ──────────────────┴──▶ summary
//
// Scan reads one file on one worker (so that every line keeps its number
// for the errors): it hands the file's events to logs.Scan's caller, which
// batches them by session (a file and a session id, as for ivc analyze).
// GroupByKey brings the events of a session together wherever it lands;
// judge assembles the session (logs.Assembler: what logs.Read does),
// judges it with the checker built once per worker process, and emits its
// record (check.Record, one JSON line, as ivc analyze --format json
// prints). The records and the errors are written, sorted, to
// PREFIX-sessions-SSSSS-of-NNNNN.jsonl and PREFIX-errors-SSSSS-of-NNNNN.txt,
// and the counts to PREFIX-summary.json.
package pipeline

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

func init() {
	register.DoFn5x1[context.Context, fileio.ReadableFile, func(string, []byte), func(int, outLine), func(Summary), error](&scanFn{})
	register.DoFn5x1[context.Context, string, func(*[]byte) bool, func(int, outLine), func(Summary), error](&judgeFn{})
	register.DoFn3x1[context.Context, int, func(*outLine) bool, error](&writeFn{})
	register.DoFn2x1[context.Context, Summary, error](&summaryFn{})
	register.Combiner1[Summary](&mergeFn{})
	register.Emitter2[string, []byte]()
	register.Emitter2[int, outLine]()
	register.Emitter1[Summary]()
	register.Iter1[[]byte]()
	register.Iter1[outLine]()
	beam.RegisterCoder(reflect.TypeFor[Summary](), encodeSummary, decodeSummary)
	beam.RegisterType(reflect.TypeFor[outLine]())
}

// Build adds the verification of cfg to s. Config.Check should have
// accepted cfg: the workers build what it builds. The error is for a
// filesystem that is not registered: the local one always is, gs:// and
// s3:// when their packages are imported (ivc-beam does).
func Build(s beam.Scope, cfg Config) error {
	for _, path := range append([]string{cfg.Output}, cfg.Inputs...) {
		fs, err := filesystem.New(context.Background(), path)
		if err != nil {
			return err
		}
		fs.Close()
	}
	s = s.Scope("ivc")
	var matched []beam.PCollection
	for _, in := range cfg.Inputs {
		matched = append(matched, fileio.MatchFiles(s, in))
	}
	files := fileio.ReadMatches(s, beam.Flatten(s, matched...), fileio.ReadUncompressed())
	files = beam.Reshuffle(s, files) // one file a worker, not all of them where they were listed
	batches, scanLines, scanCounts := beam.ParDo3(s, &scanFn{Config: cfg}, files)
	judgeLines, judgeCounts := beam.ParDo2(s, &judgeFn{Config: cfg}, beam.GroupByKey(s, batches))
	beam.ParDo0(s, &writeFn{Config: cfg}, beam.GroupByKey(s, beam.Flatten(s, scanLines, judgeLines)))
	counts := beam.Flatten(s, beam.Create(s, Summary{}), scanCounts, judgeCounts) // a summary even of nothing
	beam.ParDo0(s, &summaryFn{Config: cfg}, beam.Combine(s, &mergeFn{}, counts))
	return nil
}

// Summary is PREFIX-summary.json: the counts of a run.
type Summary struct {
	Files int `json:"files"` // files read
	// UnreadableFiles could not be read at all (see the errors).
	UnreadableFiles int `json:"unreadable_files"`
	// MultiTraces counts the sessions of the logs and the .htf files: each
	// judged (Verdicts) or not (Unjudged: see the errors).
	MultiTraces int            `json:"multi_traces"`
	Verdicts    map[string]int `json:"verdicts"`
	// Reasons counts, by verdict, the reasons given (check.Record's reason
	// without its details: LocalError, InterError, NodeLimit, ...).
	Reasons  map[string]map[string]int `json:"reasons,omitempty"`
	Unjudged int                       `json:"unjudged"`
	// EventsJudged are the events of the multi-traces judged,
	// EventsUnjudged those of the sessions that could not be, and
	// EventsIgnored those outside the signature (counted, not judged).
	EventsJudged   int `json:"events_judged"`
	EventsUnjudged int `json:"events_unjudged"`
	EventsIgnored  int `json:"events_ignored"`
	BadLines       int `json:"bad_lines"` // malformed lines and records
}

func (s *Summary) add(o Summary) {
	s.Files += o.Files
	s.UnreadableFiles += o.UnreadableFiles
	s.MultiTraces += o.MultiTraces
	s.Unjudged += o.Unjudged
	s.EventsJudged += o.EventsJudged
	s.EventsUnjudged += o.EventsUnjudged
	s.EventsIgnored += o.EventsIgnored
	s.BadLines += o.BadLines
	for v, n := range o.Verdicts {
		s.verdict(v, "", n)
	}
	for v, rs := range o.Reasons {
		for r, n := range rs {
			s.verdict(v, r, 0)
			s.Reasons[v][r] += n
		}
	}
}

// verdict counts n verdicts v, and makes room for the reason r of v.
func (s *Summary) verdict(v, r string, n int) {
	if s.Verdicts == nil {
		s.Verdicts = map[string]int{}
	}
	s.Verdicts[v] += n
	if r == "" {
		return
	}
	if s.Reasons == nil {
		s.Reasons = map[string]map[string]int{}
	}
	if s.Reasons[v] == nil {
		s.Reasons[v] = map[string]int{}
	}
}

func encodeSummary(s Summary) ([]byte, error) { return json.Marshal(s) }

func decodeSummary(b []byte) (Summary, error) {
	var s Summary
	err := json.Unmarshal(b, &s)
	return s, err
}

// mergeFn adds up summaries.
type mergeFn struct{}

// MergeAccumulators adds b to a.
func (mergeFn) MergeAccumulators(a, b Summary) Summary {
	var s Summary
	s.add(a)
	s.add(b)
	return s
}

// outLine is a line of an output file: a record (JSON) or an error, and
// where it comes from, for sorting.
type outLine struct {
	File  string
	Line  int
	Index int // of the session's first event in its file (several spans share a line)
	Text  string
}

// The kinds of output files.
const (
	sessionsFile = iota
	errorsFile
)

// lineKey is the key of a line's output file: its kind and its shard.
func (c *Config) lineKey(kind int, l outLine) int {
	h := fnv.New32a()
	h.Write([]byte(l.File))
	h.Write(binary.AppendUvarint(nil, uint64(l.Line)))
	h.Write([]byte(l.Text))
	return kind*c.shards() + int(h.Sum32()%uint32(c.shards()))
}

// sessionKey is the key that groups the events of a session: its file and
// its id.
func sessionKey(file, id string) string { return strconv.Itoa(len(file)) + ":" + file + id }

func splitSessionKey(k string) (file, id string, err error) {
	n, rest, ok := strings.Cut(k, ":")
	l, err := strconv.Atoi(n)
	if !ok || err != nil || l < 0 || l > len(rest) {
		return "", "", fmt.Errorf("invalid session key %q", k)
	}
	return rest[:l], rest[l:], nil
}

// batchBytes is how much of a file's events scanFn keeps before sending
// them on.
const batchBytes = 16 << 20

// scanFn reads a file: a log's events go on by session, in batches (a
// session's events read one after the other travel as one element); a
// .htf file is judged right away; every malformed line is an error line.
type scanFn struct {
	Config Config
	j      *judge
}

// Setup builds the judge of the worker process, once.
func (f *scanFn) Setup() (err error) {
	f.j, err = f.Config.judge()
	return err
}

// ProcessElement reads one file.
func (f *scanFn) ProcessElement(ctx context.Context, file fileio.ReadableFile,
	emitBatch func(string, []byte), emitLine func(int, outLine), emitSummary func(Summary)) error {
	name := file.Metadata.Path
	sum := Summary{Files: 1}
	defer func() { emitSummary(sum) }()
	problem := func(line int, err error) {
		l := outLine{File: name, Line: line, Text: err.Error()}
		emitLine(f.Config.lineKey(errorsFile, l), l)
	}
	unreadable := func(err error) error {
		sum.UnreadableFiles++
		problem(0, fileError(name, err))
		return nil
	}
	rc, err := file.Open(ctx)
	if err != nil {
		return unreadable(err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 64<<10)
	format := f.j.format
	if format == logs.Auto {
		head, err := br.Peek(64 << 10)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return unreadable(err)
		}
		if format, err = logs.Detect(name, head); err != nil {
			return unreadable(err)
		}
	}
	if format == logs.HTF {
		sum.add(f.htf(name, br, func(l outLine) { emitLine(f.Config.lineKey(sessionsFile, l), l) }, problem))
		return nil
	}
	b := batcher{emit: emitBatch, file: name}
	st, err := logs.Scan(name, br, format, f.j.opt, b.add, func(err error) {
		var e *logs.Error
		line := 0
		if errors.As(err, &e) {
			line = e.Line
		}
		problem(line, err)
	})
	b.flush()
	sum.BadLines = st.Malformed
	if err != nil {
		return unreadable(err)
	}
	return nil
}

// htf judges a .htf file: one multi-trace.
func (f *scanFn) htf(name string, r io.Reader, record func(outLine), problem func(int, error)) Summary {
	sum := Summary{MultiTraces: 1, Unjudged: 1}
	if f.j.opt.Locations != nil {
		problem(0, fmt.Errorf("%s: a .htf multi-trace has its own locations (its components): --locations applies to event logs and traces", name))
		return sum
	}
	src, err := readAll(r, logs.DefaultMaxBytes)
	if err != nil {
		problem(0, fileError(name, err))
		return sum
	}
	mt, err := multitrace.ParseResolve(name, src, f.j.opt.Sig)
	if err != nil {
		problem(0, err)
		return sum
	}
	rec, err := f.j.judgeOne(name, "", 0, mt)
	if err != nil {
		problem(0, err)
		return sum
	}
	record(outLine{File: name, Text: rec.text})
	return rec.summary(mt.Len(), 0)
}

// readAll reads r, decompressed when gzip, up to max bytes.
func readAll(r io.Reader, max int64) ([]byte, error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		r = zr
	} else {
		r = br
	}
	src, err := io.ReadAll(io.LimitReader(r, max+1))
	if err == nil && int64(len(src)) > max {
		err = fmt.Errorf("larger than %d bytes", max)
	}
	return src, err
}

func fileError(name string, err error) error {
	if strings.HasPrefix(err.Error(), name+":") {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// batcher gathers the events of a file by session, and sends them on
// when they take batchBytes, and at the end.
type batcher struct {
	emit     func(string, []byte)
	file     string
	sessions map[string][]byte
	size     int
	scratch  []byte
}

// add encodes e into the batch of its session, without its session (the
// key says it), after its length.
func (b *batcher) add(e logs.Event) {
	if b.sessions == nil {
		b.sessions = map[string][]byte{}
	}
	id := e.Session
	e.Session = ""
	b.scratch, _ = e.AppendBinary(b.scratch[:0])
	buf := b.sessions[id]
	n := len(buf)
	buf = binary.AppendUvarint(buf, uint64(len(b.scratch)))
	buf = append(buf, b.scratch...)
	b.sessions[id] = buf
	if b.size += len(buf) - n; b.size >= batchBytes {
		b.flush()
	}
}

func (b *batcher) flush() {
	for id, buf := range b.sessions {
		b.emit(sessionKey(b.file, id), buf)
	}
	clear(b.sessions)
	b.size = 0
}

// forEvents calls fn with each event of a batch of session id.
func forEvents(batch []byte, id string, fn func(logs.Event)) error {
	for len(batch) > 0 {
		l, k := binary.Uvarint(batch)
		if k <= 0 || l > uint64(len(batch)-k) {
			return errors.New("invalid batch of events")
		}
		var e logs.Event
		if err := e.UnmarshalBinary(batch[k : k+int(l)]); err != nil {
			return err
		}
		e.Session = id
		fn(e)
		batch = batch[k+int(l):]
	}
	return nil
}

// judgeFn judges the sessions: it assembles each from its events, judges
// it and emits its record, or the reason it cannot be judged.
type judgeFn struct {
	Config Config
	j      *judge
}

// Setup builds the judge of the worker process, once.
func (f *judgeFn) Setup() (err error) {
	f.j, err = f.Config.judge()
	return err
}

// ProcessElement judges one session.
func (f *judgeFn) ProcessElement(ctx context.Context, key string, batches func(*[]byte) bool,
	emitLine func(int, outLine), emitSummary func(Summary)) error {
	file, id, err := splitSessionKey(key)
	if err != nil {
		return err
	}
	limit := f.Config.maxSessionEvents()
	var (
		events []logs.Event // none past the limit
		first  logs.Event   // the first read
		total  int
		batch  []byte
	)
	for batches(&batch) {
		err := forEvents(batch, id, func(e logs.Event) {
			if total == 0 || e.Index < first.Index {
				first = e
			}
			if total++; total > limit {
				events = nil
				return
			}
			events = append(events, e)
		})
		if err != nil {
			return fmt.Errorf("%s: session %q: %w", file, id, err)
		}
	}
	problem := func(line int, err error) {
		l := outLine{File: file, Line: line, Text: err.Error()}
		emitLine(f.Config.lineKey(errorsFile, l), l)
	}
	if total > limit {
		problem(first.Line, fmt.Errorf("%s:%d: session %q has %d events, more than the %d a session may have to be judged (see --max-session-events)",
			file, first.Line, id, total, limit))
		emitSummary(Summary{MultiTraces: 1, Unjudged: 1, EventsUnjudged: total})
		return nil
	}
	s, err := f.j.assembler.Assemble(file, id, events)
	if err != nil {
		return err // events that Scan cannot have sent: a bug, retried then failed by the runner
	}
	if s.Err != nil {
		problem(s.Line, s.Err)
		emitSummary(Summary{MultiTraces: 1, Unjudged: 1, EventsUnjudged: s.Events, EventsIgnored: s.Ignored})
		return nil
	}
	rec, err := f.j.judgeOne(file, id, s.Ignored, s.MT)
	if err != nil {
		problem(s.Line, err)
		emitSummary(Summary{MultiTraces: 1, Unjudged: 1, EventsUnjudged: s.Events, EventsIgnored: s.Ignored})
		return nil
	}
	l := outLine{File: file, Line: s.Line, Index: first.Index, Text: rec.text}
	emitLine(f.Config.lineKey(sessionsFile, l), l)
	emitSummary(rec.summary(s.Events, s.Ignored))
	return nil
}

// judged is the judgment of one multi-trace.
type judged struct {
	res  verdict.Result
	text string // its record, a JSON line
}

// judgeOne judges mt, the multi-trace of session id of file; a panic of
// the checker is an error (check.PanicError), as with ivc analyze.
func (j *judge) judgeOne(file, id string, ignored int, mt *multitrace.MultiTrace) (out judged, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%s: session %q: %w", file, id, &check.PanicError{Value: v})
		}
	}()
	t0 := time.Now()
	res := j.checker.Check(mt)
	o := check.Outcome{Name: file, Session: id, Ignored: ignored, Result: res, Elapsed: time.Since(t0)}
	b, err := json.Marshal(check.NewRecord(o, j.checker.Engine()))
	return judged{res: res, text: string(b)}, err
}

// summary counts the judgment of a multi-trace of events events and
// ignored ones.
func (r judged) summary(events, ignored int) Summary {
	s := Summary{MultiTraces: 1, EventsJudged: events, EventsIgnored: ignored}
	v, reason := r.res.Verdict.String(), r.res.Reason.String()
	s.verdict(v, reason, 1)
	if reason != "" {
		s.Reasons[v][reason]++
	}
	return s
}

// writeFn writes one output file: the lines of one kind and shard, sorted
// by file and line, as ivc analyze prints them.
type writeFn struct {
	Config Config
}

// ProcessElement writes the file of key.
func (f *writeFn) ProcessElement(ctx context.Context, key int, lines func(*outLine) bool) error {
	var all []outLine
	var l outLine
	for lines(&l) {
		all = append(all, l)
	}
	slices.SortFunc(all, func(a, b outLine) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Index, b.Index), cmp.Compare(a.Text, b.Text))
	})
	n := f.Config.shards()
	name := fmt.Sprintf("%s-sessions-%05d-of-%05d.jsonl", f.Config.Output, key%n, n)
	if key/n == errorsFile {
		name = fmt.Sprintf("%s-errors-%05d-of-%05d.txt", f.Config.Output, key%n, n)
	}
	var buf bytes.Buffer
	for _, l := range all {
		buf.WriteString(l.Text)
		buf.WriteByte('\n')
	}
	return writeFile(ctx, name, buf.Bytes())
}

// summaryFn writes PREFIX-summary.json.
type summaryFn struct {
	Config Config
}

// ProcessElement writes the summary s.
func (f *summaryFn) ProcessElement(ctx context.Context, s Summary) error {
	if s.Verdicts == nil {
		s.Verdicts = map[string]int{}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(ctx, f.Config.Output+"-summary.json", append(b, '\n'))
}

// writeFile writes data to the file name of any Beam filesystem.
func writeFile(ctx context.Context, name string, data []byte) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
