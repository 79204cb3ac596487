// Package pipeline is ivc's verification of logs as an Apache Beam
// pipeline: the same readers (package logs) and the same front door
// (package check) as ivc analyze, spread over the workers of any Beam
// runner — Prism in process, Flink, Spark, Dataflow.
//
//	files ─MatchFiles, Reshuffle─▶ scan ─events, by bucket─▶ GroupByKey ─▶ judge ─lines─▶ GroupByKey ─▶ write
//	                                 │ bad lines, .htf verdicts ──────────────────────────▲
//	                                 └──────────── counts ──────────────────┴──▶ Combine ─▶ summary
//
// Scan reads one file on one worker (so that every line keeps its number
// for the errors, and a CSV file its header) with logs.Scan, the readers
// of ivc analyze, and batches the events by session: a file and a session
// id, as for ivc analyze. The sessions go to one of Config.Buckets buckets
// by a hash of their key, so that the runner moves a few large elements
// rather than one per session, and GroupByKey brings the events of each
// bucket, hence of each session, together wherever it lands. Judge
// gathers and assembles each session of its bucket (session.Groups, with
// session.Assembler: what session.Read does), judges it with the checker
// built once per worker process (from the spec's text, which travels in
// the DoFns: check.Checker.Judge, as ivc analyze judges each session), and
// emits its record (check.Record: the JSON line of ivc analyze --format
// json). The records and the errors are written sorted, as ivc analyze
// prints them, to PREFIX-sessions-SSSSS-of-NNNNN.jsonl and
// PREFIX-errors-SSSSS-of-NNNNN.txt; the counts of every step, a
// check.Summary each, are added up into PREFIX-summary.json.
package pipeline

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ivc-project/ivc/check"
)

func init() {
	register.DoFn5x1[context.Context, fileio.ReadableFile, func(int, []byte), func(int, []byte), func(check.Summary), error](&scanFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(check.Summary), error](&judgeFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&writeFn{})
	register.DoFn2x1[context.Context, check.Summary, error](&summaryFn{})
	register.Combiner1[check.Summary](&mergeFn{})
	register.Emitter2[int, []byte]()
	register.Emitter1[check.Summary]()
	register.Iter1[[]byte]()
	beam.RegisterCoder(reflect.TypeFor[check.Summary](), encodeSummary, decodeSummary)
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
	counts := beam.Flatten(s, beam.Create(s, check.Summary{}), scanCounts, judgeCounts) // a summary even of nothing
	beam.ParDo0(s, &summaryFn{Config: cfg}, beam.Combine(s, &mergeFn{}, counts))
	return nil
}

// SummaryFile is PREFIX-summary.json: the JSON form of the summary of a
// run (check.Summary, which the workers count and the pipeline adds up),
// as ivc analyze --summary writes it too.
type SummaryFile = check.SummaryJSON

// NewSummaryFile returns the JSON form of s.
func NewSummaryFile(s *check.Summary) SummaryFile { return s.JSON() }

func encodeSummary(s check.Summary) ([]byte, error) { return json.Marshal(s) }

func decodeSummary(b []byte) (check.Summary, error) {
	var s check.Summary
	err := json.Unmarshal(b, &s)
	return s, err
}

// mergeFn adds up summaries.
type mergeFn struct{}

// MergeAccumulators adds a and b, into a summary of its own (a and b
// keep their maps).
func (mergeFn) MergeAccumulators(a, b check.Summary) check.Summary {
	var s check.Summary
	s.Merge(a)
	s.Merge(b)
	return s
}
