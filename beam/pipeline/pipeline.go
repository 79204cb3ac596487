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
// assembles each session of its bucket (session.Assembler: what
// session.Read does), judges it with the checker built once per worker
// process (from the spec's text, which travels in the DoFns), and emits
// its record
// (check.Record: the JSON line of ivc analyze --format json). The records
// and the errors are written sorted, as ivc analyze prints them, to
// PREFIX-sessions-SSSSS-of-NNNNN.jsonl and PREFIX-errors-SSSSS-of-NNNNN.txt,
// and the counts to PREFIX-summary.json.
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
)

func init() {
	register.DoFn5x1[context.Context, fileio.ReadableFile, func(int, []byte), func(int, []byte), func(Summary), error](&scanFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(Summary), error](&judgeFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&writeFn{})
	register.DoFn2x1[context.Context, Summary, error](&summaryFn{})
	register.Combiner1[Summary](&mergeFn{})
	register.Emitter2[int, []byte]()
	register.Emitter1[Summary]()
	register.Iter1[[]byte]()
	beam.RegisterCoder(reflect.TypeFor[Summary](), encodeSummary, decodeSummary)
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
	// SpansUnkinded counts the spans without a protocol kind (INTERNAL or
	// none): not events, but not nothing either.
	SpansUnkinded int `json:"spans_unkinded,omitempty"`
	// JoinedSessions counts the sessions judged whose events come from
	// several files.
	JoinedSessions int `json:"joined_sessions"`
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
	s.SpansUnkinded += o.SpansUnkinded
	s.JoinedSessions += o.JoinedSessions
	for v, n := range o.Verdicts {
		s.count(v, "", n)
	}
	for v, rs := range o.Reasons {
		for r, n := range rs {
			s.count(v, r, 0)
			s.Reasons[v][r] += n
		}
	}
}

// count counts n verdicts v, and makes room for the reason r of v.
func (s *Summary) count(v, r string, n int) {
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
