// Command ivc-beam judges the sessions of logs against an interaction as
// an Apache Beam pipeline: the verification of ivc analyze, spread over
// the workers of any Beam runner. By default it runs on Prism, Beam's
// runner in process: offline, with nothing else installed.
//
//	ivc-beam --spec abp.hsf --input 'logs/*.jsonl' --output out/abp
//	ivc-beam --spec abp.hsf --input 'gs://bucket/logs/*.jsonl.gz' --output gs://bucket/out/abp \
//		--runner=dataflow --project=P --region=europe-west1 --temp_location=gs://bucket/tmp
//
// It writes one JSON object per session (the fields of ivc analyze
// --format json) to PREFIX-sessions-*.jsonl, the malformed lines and the
// sessions that cannot be judged to PREFIX-errors-*.txt, and the counts to
// PREFIX-summary.json, which it also prints. The exit status is 0 when the
// job succeeded, whatever the verdicts (they are in the summary), 2 when an
// --input matches no file or the job judged no event (as ivc analyze: a
// Pass of nothing is no answer), 1 when it could not run or failed. Beam's own flags (--runner,
// --endpoint, --environment_type, --worker_binary, Dataflow's --project,
// ...) are passed to Beam; see beam/README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/ivc-project/ivc/beam/pipeline"
	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// repeated is a flag that may be given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

var (
	sigPath          = flag.String("spec", "", "the signature `FILE.hsf` (required)")
	hifPath          = flag.String("hif", "", "the interaction `FILE.hif` (default: the .hif beside the .hsf, or the interaction of a legacy single-file .hsf)")
	logFormat        = flag.String("log-format", "auto", "the format of the inputs, `auto|htf|jsonl|csv|otlp|jaeger` (auto: per file, by extension and content)")
	mode             = flag.String("mode", "prefix", "the question asked, `accept|prefix|slice`")
	engine           = flag.String("engine", "auto", "the analysis engine, `auto|runtime|automata`")
	locations        = flag.String("locations", "", "the locations of the logs (groups of lifelines that share a clock): "+interaction.LocationsSyntax+"; default discrete")
	lifelineAttr     = flag.String("lifeline-attr", "", "OTLP/Jaeger: the attribute naming a span's lifeline (default service.name)")
	messageAttr      = flag.String("message-attr", "", "OTLP/Jaeger: the attribute naming a span's message")
	strict           = flag.Bool("strict", false, "an event outside the signature is an error (default: ignored and counted)")
	sessionScope     = flag.String("session-scope", "run", "what a log's session is, `run|file`: its id across every input, or within its file")
	maxNodes         = flag.Int("max-nodes", 0, "vertex budget per session (0: the engine's default); Inconc when hit")
	timeout          = flag.Duration("timeout", 0, "time budget per session, e.g. 5s (0: none); Inconc when hit")
	output           = flag.String("output", "", "the `PREFIX` of the files written, on any Beam filesystem (required)")
	shards           = flag.Int("shards", 1, "the number of files the records, and the errors, are each written to")
	buckets          = flag.Int("buckets", pipeline.DefaultBuckets, "the number of groups the sessions are spread over: the unit of work of the workers that judge")
	maxLine          = flag.Int("max-line", 0, fmt.Sprintf("the longest line, JSON value (an OTLP resource, a Jaeger span) or CSV record read, in bytes; decoding one takes up to 60 times it (0: %d, or a 64th of the reading budget when less)", logs.MaxLine))
	maxSessionEvents = flag.Int("max-session-events", pipeline.DefaultMaxSessionEvents, "the most events a session may have to be judged; a larger one is reported, not judged")
	force            = flag.Bool("force", false, "remove a previous run's outputs of the same --output PREFIX (its shards, error files and summary) before running")
	verbose          = flag.Bool("verbose", false, "show Beam's informational logs")
	cpuProfile       = flag.String("cpuprofile", "", "write a CPU profile of this process to `FILE` (with Prism in process, of the whole pipeline)")
	inputs, fields   repeated
)

func init() {
	flag.Var(&inputs, "input", "a log file or `GLOB` (local, gs://, s3://; repeatable)")
	flag.Var(&fields, "field", "an event log's field for a role, `ROLE=NAME` (roles: session, action, lifeline, kind, message, seq, time; repeatable)")
}

func main() {
	flag.Usage = usage
	flag.Parse()
	beam.Init() // the binary is also the worker: this does not return on a worker
	if !*verbose {
		quiet()
	}
	if *cpuProfile != "" {
		stop, err := startProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ivc-beam:", err)
			os.Exit(1)
		}
		defer stop()
	}
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ivc-beam:", err)
		if errors.As(err, new(inputError)) {
			exit(2)
		}
		exit(1)
	}
}

// inputError is an error of the inputs, not of the job: exit status 2.
type inputError struct{ error }

// exit is os.Exit after the deferred work of main (the profile).
var exit = os.Exit

// startProfile starts a CPU profile into file, and returns what stops it.
func startProfile(file string) (func(), error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	stop := func() {
		pprof.StopCPUProfile()
		f.Close()
	}
	exit = func(code int) {
		stop()
		os.Exit(code)
	}
	return stop, nil
}

func usage() {
	fmt.Fprintf(flag.CommandLine.Output(), `Usage: ivc-beam --spec FILE.hsf [--hif FILE.hif] --input GLOB... --output PREFIX [flags] [Beam flags]

Judges every session of the logs against the interaction, as ivc analyze does,
as an Apache Beam pipeline (default runner: Prism, in process). Writes
PREFIX-sessions-*.jsonl (one JSON object per session), PREFIX-errors-*.txt
(malformed lines, sessions that cannot be judged) and PREFIX-summary.json.

Flags (Beam's own, --runner, --endpoint, --environment_type, ..., are listed too):
`)
	flag.PrintDefaults()
}

// quiet keeps Beam's warnings and errors on stderr, not its informational
// logs.
func quiet() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	beamlog.SetLogger(warnings{})
}

// warnings is a Beam logger that drops what is below a warning.
type warnings struct{}

func (warnings) Log(ctx context.Context, sev beamlog.Severity, calldepth int, msg string) {
	if sev >= beamlog.SevWarn {
		fmt.Fprintln(os.Stderr, strings.TrimSuffix(msg, "\n"))
	}
}

func run(ctx context.Context, stdout io.Writer) error {
	if *sigPath == "" {
		return fmt.Errorf("no interaction: give --spec FILE.hsf")
	}
	sp, err := pipeline.ReadSource(*sigPath, *hifPath)
	if err != nil {
		return err
	}
	cfg := pipeline.Config{
		Inputs: inputs, Format: *logFormat, Output: *output, Shards: *shards, Buckets: *buckets, MaxSessionEvents: *maxSessionEvents,
		MaxLine: *maxLine,
		Source:  sp, Settings: check.Settings{Engine: *engine, Timeout: *timeout}, Locations: *locations,
		LifelineAttr: *lifelineAttr, MessageAttr: *messageAttr, Strict: *strict, SessionScope: *sessionScope,
	}
	for _, f := range fields {
		role, name, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			return fmt.Errorf("invalid --field %q: want ROLE=NAME", f)
		}
		if cfg.Fields == nil {
			cfg.Fields = map[string]string{}
		}
		cfg.Fields[role] = name
	}
	flag.Visit(func(f *flag.Flag) {
		// Given on the command line: over a legacy .hsf's option sections.
		switch f.Name {
		case "mode":
			cfg.Settings.Mode = *mode
		case "max-nodes":
			cfg.Settings.MaxNodes = maxNodes
		}
	})
	warnings, err := cfg.Check()
	for _, w := range warnings {
		fmt.Fprintln(os.Stderr, "ivc-beam:", w)
	}
	if err != nil {
		return err
	}
	for _, in := range cfg.Inputs {
		if err := matchesAFile(ctx, in); err != nil {
			return err
		}
	}
	// A previous run's outputs of the prefix: refused, or with --force
	// removed, before the pipeline runs (stale shards would otherwise sit
	// beside this run's).
	stale, err := pipeline.Outputs(ctx, cfg.Output)
	if err != nil {
		return err
	}
	if len(stale) > 0 && !*force {
		return inputError{fmt.Errorf("--output %q: %d files of a previous run exist (such as %s): not replaced (remove them, choose another prefix, or give --force)", cfg.Output, len(stale), stale[0])}
	}
	if err := pipeline.RemoveOutputs(ctx, stale); err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, cfg); err != nil {
		return err
	}
	runner := *runners.Runner
	if runner == "" {
		runner = "prism"
	}
	if _, err := beam.Run(ctx, runner, p); err != nil {
		return err
	}
	if *jobopts.Async {
		return nil // the job goes on: its summary is not written yet
	}
	sum, err := printSummary(ctx, stdout, cfg.Output+"-summary.json")
	if err != nil {
		// Done, but written where this machine does not see (a cluster's
		// local disks) or cannot read (credentials).
		fmt.Fprintf(os.Stderr, "ivc-beam: the job is done, but its summary cannot be read from here: %v\n", err)
		return nil
	}
	if sum.EventsJudged == 0 {
		return inputError{fmt.Errorf("nothing judged: the logs hold %d events outside the signature, %d spans without a protocol kind (INTERNAL or none), %d malformed lines, %d unreadable files (check the signature's names, --lifeline-attr, --message-attr, --field and --log-format)",
			sum.EventsIgnored, sum.SpansUnkinded, sum.BadLines, sum.UnreadableFiles)}
	}
	return nil
}

// matchesAFile returns an error when the glob in matches no file, on any
// Beam filesystem.
func matchesAFile(ctx context.Context, in string) error {
	fs, err := filesystem.New(ctx, in)
	if err != nil {
		return err
	}
	defer fs.Close()
	files, err := fs.List(ctx, in)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return inputError{fmt.Errorf("--input %q matches no file", in)}
	}
	return nil
}

// printSummary copies the summary to stdout, when it can be read from
// here, and returns it.
func printSummary(ctx context.Context, w io.Writer, name string) (pipeline.SummaryFile, error) {
	var s pipeline.SummaryFile
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return s, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, name)
	if err != nil {
		return s, err
	}
	defer r.Close()
	if err := json.NewDecoder(r).Decode(&s); err != nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	b, _ := json.Marshal(s)
	_, err = fmt.Fprintf(w, "%s\n", b)
	return s, err
}
