package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// scanFn reads a file: a log's events go on by session, in batches; a .htf
// file is judged right away; every malformed line is an error line.
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
	emitBatch func(int, []byte), emitLines func(int, []byte), emitSummary func(Summary)) error {
	name := file.Metadata.Path
	sum := Summary{Files: 1}
	lines := lineBatcher{emit: emitLines, shards: f.Config.shards()}
	defer func() {
		lines.flush()
		emitSummary(sum)
	}()
	problem := func(line int, err error) {
		lines.add(errorsFile, outLine{File: name, Line: line, Text: err.Error()})
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
	in, err := logs.NewInput(name, rc, f.j.format, f.j.opt)
	if err != nil {
		return unreadable(err)
	}
	if in.Format == logs.HTF {
		sum.add(f.htf(in, func(l outLine) { lines.add(sessionsFile, l) }, problem))
		return nil
	}
	b := batcher{emit: emitBatch, file: name, buckets: f.Config.buckets(), scope: f.Config.scope()}
	st, err := in.Scan(b.add, func(err error) {
		var e *syntax.Error
		line := 0
		if errors.As(err, &e) {
			line = e.Pos.Line
		}
		problem(line, err)
	})
	b.flush()
	sum.BadLines = st.Malformed
	sum.SpansUnkinded = st.Unkinded
	if err != nil {
		return unreadable(err)
	}
	return nil
}

// htf judges a .htf file: one multi-trace.
func (f *scanFn) htf(in *logs.Input, record func(outLine), problem func(int, error)) Summary {
	sum := Summary{MultiTraces: 1, Unjudged: 1}
	mt, err := in.MultiTrace()
	if err != nil {
		problem(0, fileError(in.Name, err))
		return sum
	}
	rec, err := f.j.judgeOne(in.Name, "", nil, 0, mt, "")
	if err != nil {
		problem(0, err)
		return sum
	}
	record(outLine{File: in.Name, Text: rec.text})
	return rec.summary(mt.Len(), 0)
}

func fileError(name string, err error) error {
	if strings.HasPrefix(err.Error(), name+":") {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// judgeFn judges the sessions of a bucket: it assembles each from its
// events, judges it and emits its record, or the reason it cannot be
// judged. It counts them by bundle.
type judgeFn struct {
	Config Config
	j      *judge
	sum    Summary
}

// Setup builds the judge of the worker process, once.
func (f *judgeFn) Setup() (err error) {
	f.j, err = f.Config.judge()
	return err
}

// StartBundle starts the counts of a bundle.
func (f *judgeFn) StartBundle(ctx context.Context, _ func(int, []byte), _ func(Summary)) {
	f.sum = Summary{}
}

// FinishBundle emits the counts of the bundle.
func (f *judgeFn) FinishBundle(ctx context.Context, _ func(int, []byte), emitSummary func(Summary)) {
	emitSummary(f.sum)
}

// bucketSession is the events of a session gathered from the batches of
// its bucket: all of them, up to the limit, and the first read.
type bucketSession struct {
	file, id string
	events   []logs.Event // none when more than the limit
	first    logs.Event
	total    int
}

func (s *bucketSession) add(e logs.Event, limit int) {
	if s.total == 0 || e.File < s.first.File || e.File == s.first.File && e.Index < s.first.Index {
		s.first = e
		s.file = e.File
	}
	if s.total++; s.total > limit {
		s.events = nil
		return
	}
	s.events = append(s.events, e)
}

// ProcessElement judges the sessions of one bucket.
func (f *judgeFn) ProcessElement(ctx context.Context, bucket int, batches func(*[]byte) bool,
	emitLines func(int, []byte), _ func(Summary)) error {
	limit := f.Config.maxSessionEvents()
	sessions := map[string]*bucketSession{}
	var batch []byte
	for batches(&batch) {
		err := forSessions(batch, func(key string, events []byte) error {
			file, id, err := splitSessionKey(key)
			if err != nil {
				return err
			}
			group := key // a session: its id across files, or within its file
			if f.Config.scope() == session.ScopeRun {
				group = id
			}
			s := sessions[group]
			if s == nil {
				s = &bucketSession{file: file, id: id}
				sessions[group] = s
			}
			return forEvents(events, s.id, func(e logs.Event) {
				e.File = file
				s.add(e, limit)
			})
		})
		if err != nil {
			return fmt.Errorf("bucket %d: %w", bucket, err)
		}
	}
	lines := lineBatcher{emit: emitLines, shards: f.Config.shards()}
	for _, key := range slices.Sorted(maps.Keys(sessions)) {
		if err := f.judgeSession(sessions[key], limit, lines.add); err != nil {
			return err
		}
		delete(sessions, key) // its events can go
	}
	lines.flush()
	return nil
}

// judgeSession judges s and adds its line, its record or its error, and
// counts it. The error is for events that Scan cannot have sent: a bug,
// which the runner retries, then fails the job on.
func (f *judgeFn) judgeSession(s *bucketSession, limit int, add func(int, outLine)) error {
	problem := func(line int, err error) {
		add(errorsFile, outLine{File: s.file, Line: line, Index: s.first.Index, Text: err.Error()})
	}
	if s.total > limit {
		problem(s.first.Line, fmt.Errorf("%s:%d: session %q has %d events, more than the %d a session may have to be judged (see --max-session-events)",
			s.file, s.first.Line, s.id, s.total, limit))
		f.sum.add(Summary{MultiTraces: 1, Unjudged: 1, EventsUnjudged: s.total})
		return nil
	}
	as, err := f.j.assembler.Assemble(s.file, s.id, s.events)
	if err != nil {
		return err
	}
	if as.Err != nil {
		problem(as.Line, as.Err)
		f.sum.add(Summary{MultiTraces: 1, Unjudged: 1, EventsUnjudged: as.Events, EventsIgnored: as.Ignored})
		return nil
	}
	var files []string
	if len(as.Files) > 1 {
		files = as.Files
	}
	rec, err := f.j.judgeOne(s.file, s.id, files, as.Ignored, as.MT, as.Incomplete())
	if err != nil {
		problem(as.Line, err)
		f.sum.add(Summary{MultiTraces: 1, Unjudged: 1, EventsUnjudged: as.Events, EventsIgnored: as.Ignored})
		return nil
	}
	add(sessionsFile, outLine{File: s.file, Line: as.Line, Index: s.first.Index, Text: rec.text})
	sum := rec.summary(as.Events, as.Ignored)
	if files != nil {
		sum.JoinedSessions = 1
	}
	f.sum.add(sum)
	return nil
}

// judged is the judgment of one multi-trace.
type judged struct {
	res  verdict.Result
	text string // its record, a JSON line
}

// judgeOne judges mt, the multi-trace of session id of file; a panic of
// the checker is an error (check.PanicError), as with ivc analyze.
func (j *judge) judgeOne(file, id string, files []string, ignored int, mt *multitrace.MultiTrace, incomplete string) (judged, error) {
	o := j.checker.Judge(check.Input{Name: file, Session: id, Files: files, Ignored: ignored, Incomplete: incomplete,
		Read: func() (*multitrace.MultiTrace, error) { return mt, nil }})
	if o.Err != nil {
		return judged{}, fmt.Errorf("%s: session %q: %w", file, id, o.Err)
	}
	b, err := json.Marshal(check.NewRecord(o))
	return judged{res: o.Result, text: string(b)}, err
}

// summary counts the judgment of a multi-trace of events events and
// ignored ones.
func (r judged) summary(events, ignored int) Summary {
	s := Summary{MultiTraces: 1, EventsJudged: events, EventsIgnored: ignored}
	v, reason := r.res.Verdict.String(), r.res.Reason.String()
	s.count(v, reason, 1)
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
func (f *writeFn) ProcessElement(ctx context.Context, key int, blobs func(*[]byte) bool) error {
	var all []outLine
	var blob []byte
	for blobs(&blob) {
		if err := forLines(blob, func(l outLine) { all = append(all, l) }); err != nil {
			return err
		}
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
