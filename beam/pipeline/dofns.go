package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
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
	emitBatch func(int, []byte), emitLines func(int, []byte), emitSummary func(check.Summary)) error {
	name := file.Metadata.Path
	var sum check.Summary
	sum.Files = 1
	lines := lineBatcher{emit: emitLines, shards: f.Config.shards()}
	defer func() {
		lines.flush()
		emitSummary(sum)
	}()
	problem := func(line int, err error) {
		lines.add(errorsFile, outLine{File: name, Line: line, Text: err.Error()})
	}
	unreadable := func(err error) error {
		sum.Unreadable++
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
		o := f.j.checker.Judge(session.ReadHTF(in))
		sum.Add(&o)
		if o.Err != nil {
			problem(0, fileError(name, o.Err))
			return nil
		}
		text, err := record(&o)
		if err != nil {
			return err
		}
		lines.add(sessionsFile, outLine{File: name, Text: text})
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
	sum.AddStats(st)
	if err != nil {
		return unreadable(err)
	}
	return nil
}

func fileError(name string, err error) error {
	if strings.HasPrefix(err.Error(), name+":") {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// record returns the record of o, a judgment, as a JSON line.
func record(o *check.Outcome) (string, error) {
	b, err := o.Record().AppendJSON(nil)
	return string(b), err
}

// judgeFn judges the sessions of a bucket: it gathers the events of each
// (session.Groups), assembles and judges it, and emits its record, or the
// reason it cannot be judged. It counts them by bundle.
type judgeFn struct {
	Config Config
	j      *judge
	sum    check.Summary
}

// Setup builds the judge of the worker process, once.
func (f *judgeFn) Setup() (err error) {
	f.j, err = f.Config.judge()
	return err
}

// StartBundle starts the counts of a bundle.
func (f *judgeFn) StartBundle(ctx context.Context, _ func(int, []byte), _ func(check.Summary)) {
	f.sum = check.Summary{}
}

// FinishBundle emits the counts of the bundle.
func (f *judgeFn) FinishBundle(ctx context.Context, _ func(int, []byte), emitSummary func(check.Summary)) {
	emitSummary(f.sum)
}

// ProcessElement judges the sessions of one bucket. The error is for
// events that Scan cannot have sent: a bug, which the runner retries, then
// fails the job on.
func (f *judgeFn) ProcessElement(ctx context.Context, bucket int, batches func(*[]byte) bool,
	emitLines func(int, []byte), _ func(check.Summary)) error {
	groups := session.Groups{Scope: f.Config.scope(), MaxEvents: f.Config.maxSessionEvents()}
	var batch []byte
	for batches(&batch) {
		err := forSessions(batch, func(key string, events []byte) error {
			file, id, err := splitSessionKey(key)
			if err != nil {
				return err
			}
			return forEvents(events, id, func(e logs.Event) { groups.Add(file, e) })
		})
		if err != nil {
			return fmt.Errorf("bucket %d: %w", bucket, err)
		}
	}
	lines := lineBatcher{emit: emitLines, shards: f.Config.shards()}
	for s, err := range groups.Sessions(f.j.assembler) {
		if err != nil {
			return err
		}
		if s.Conflict != nil { // a span read twice with two contents
			lines.add(errorsFile, outLine{File: s.File, Line: s.Line, Index: s.Rank, Text: s.Conflict.Error()})
		}
		o := f.j.checker.Judge(s)
		f.sum.Add(&o)
		at := outLine{File: o.File, Line: o.Line, Index: o.Rank}
		if o.Err != nil {
			at.Text = sessionError(&o).Error()
			lines.add(errorsFile, at)
			continue
		}
		text, err := record(&o)
		if err != nil {
			return err
		}
		at.Text = text
		lines.add(sessionsFile, at)
	}
	f.sum.Counts.Merge(groups.Counts)
	lines.flush()
	return nil
}

// sessionError is the error line of a session that could not be judged:
// its own error, or the checker's panic (check.PanicError, as with ivc
// analyze) naming it.
func sessionError(o *check.Outcome) error {
	var big *session.TooBigError
	var pe *check.PanicError
	switch {
	case errors.As(o.Err, &big):
		return fmt.Errorf("%w (see --max-session-events)", o.Err)
	case errors.As(o.Err, &pe):
		return fmt.Errorf("%s: session %q: %w", o.File, o.ID, o.Err)
	}
	return o.Err
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
func (f *summaryFn) ProcessElement(ctx context.Context, s check.Summary) error {
	b, err := json.MarshalIndent(NewSummaryFile(&s), "", "  ")
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
