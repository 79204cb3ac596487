package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ivc-project/ivc/internal/memlimit"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/internal/report"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
	"github.com/spf13/cobra"
)

// analyzeFlags are the settings of ivc analyze, as the command line gives
// them; analysisOptions layers them over option files.
type analyzeFlags struct {
	mode, engine, strategy string
	por, loc               bool
	timeout                time.Duration
	maxNodes, jobs         int
	options, graph         string
	session                string
	force                  bool
	report                 string
	locations              string
	budget                 string
	logs                   logFlags
	maxInput               byteSize
	maxLine                byteSize
	maxStates              int
	maxMemory              byteSize
	joinMemory             byteSize
	traceURL               string
	repair                 bool
	repairBudget           string
	summary                string
	hugePages              bool
}

func newAnalyzeCmd(a *app) *cobra.Command {
	cmd, _ := analyzeCommand(a)
	return cmd
}

// analyzeCommand returns ivc analyze and the flags it parses into.
func analyzeCommand(a *app) (*cobra.Command, *analyzeFlags) {
	var fl analyzeFlags
	cmd := &cobra.Command{
		Use: "analyze SPEC [HIF] MULTITRACE|LOG...",
		// The engines and raw NFAs are described in the Long help.
		Short: "Give a verdict for each multi-trace against an interaction",
		Long: `Analyze decides, for each multi-trace, whether it is consistent with the
interaction, and prints one line per multi-trace in input order:

  FILE: VERDICT (N nodes, T µs)

followed, on Fail, by indented lines that explain it: how far each component
was consumed and its next action, and the actions the interaction expected
there. N counts the vertices the analysis explored, which --max-nodes
bounds: those of its search and of the runtime engine's local analyses,
whose part follows when there is one ("N nodes, L of local analyses"); T
is its time (reading the file and the one-time setup excluded). With
--format json, one JSON object per multi-trace and line, with the fields
file, session (for a log), verdict, mode, engine, nodes (N), local_nodes
(L, when any), elapsed_us, setup_us (the one-time work this
multi-trace caused, when any), reason (when any), explanation (on Fail),
simulated (slice mode), ignored_events (for a log) and all_ignored (true
for a session whose events were all outside the signature: "none judged"
in the text line).

Repairs (--repair, on by default): each Fail is given a smallest repair,
the fewest events to delete from its logs or insert into them for it to
pass in its mode, each edit a line under the explanation ("[R] unexpected
R!zero (event 76)", "[orders] missing orders?confirm before event 2"); in
JSON, repair ([{op, location, index (0-based), action}]),
repair_incomplete (why --repair-budget stopped the search first: the
edits are the best found) and pattern. The Fails of a run are grouped into
failure patterns (their edits without positions, or where they got stuck):
the 10 most frequent close the summary on stderr, and --summary FILE writes
the run's summary as JSON, patterns included.

Engines (--engine):
  runtime           term rewriting over the interaction, the full language
  automata          the compiled path: the interaction's NFA, one projection
                    DFA per component with area labels, local checks, then a
                    central search on the intersection of the areas (the
                    semi-centralized procedure of the automata paper); for
                    interactions of the compilable sublanguage (loopS, and
                    loopW/H/P whose language stays regular). On Fail, reason
                    gives the paper's diagnosis: LocalError (a component's
                    log is impossible on its own: where its check got stuck
                    and what it expected), InterError (the areas of the logs
                    share no accepting path) or CentralError (no interleaving
                    of the logs is accepted)
  auto (default)    automata when the interaction compiles, else runtime; the
                    runtime engine also judges the sessions of a partition of
                    the lifelines whose automata checker is past its limits or
                    too big to build (locations x NFA states over 2^18: many
                    lifelines; see docs/limits.md)

Raw NFAs: SPEC may be a .timbuk word automaton (the automata paper's
benchmark format); its letters are split into locations by
--locations "a,b;c,d" (groups separated by ';', optionally named "L=a,b"),
discrete (the default: one location per letter) or trivial (one location),
and each MULTITRACE is a text file of one line per location, "NAME: letter
letter ...". The automata engine answers for it.

Verdicts, by --mode:
  prefix (default)  Pass: exactly accepted; WeakPass: a multi-prefix of an
                    accepted multi-trace (logs may stop early, lifelines may be
                    unobserved), not accepted itself; Fail: neither
  accept            Pass: exactly accepted; Fail: not
  slice             as prefix, but logs may also start late: WeakPass when
                    the multi-trace is a slice of an accepted one, explained
                    by simulating, before a component's log starts, actions
                    it did not record (listed under the verdict, and in
                    "simulated" with --format json); Inconc when the
                    simulation budget found no explanation; Fail when none
                    exists. --budget liberal (default) allows β·n loop
                    instances and η·n actions outside loops (β: loop depth,
                    η: actions outside loops, n: events of the multi-trace);
                    --budget paper is the (λ,α) criterion of the slice paper
                    (HIBOU's simulate[reset=true]). Runtime engine only
  Inconc            a limit (--timeout, --max-nodes, --max-memory) stopped the search first

A sequence diagram (Mermaid, PlantUML, or a Markdown file's) may stand for
SPEC, or for the HIF beside a .hsf: see ivc --help.

SPEC is a .hsf signature (the .hif of the same name beside it is used when
HIF is omitted) or a legacy single-file .hsf. A MULTITRACE is a .htf file; a
LOG is an event log or a trace file holding many sessions, each one
multi-trace judged apart (printed as FILE (session ID)); a session is its
id across every log of the run (--session-scope file: within its file). A
directory stands for the .htf files and logs below it, by extension or
content (with --log-format, the files of that format), sorted; "-" is
standard input, and a .gz or .zst file is read compressed. --log-format (default
auto: traces by content, then by extension) says which:
  jsonl, csv        event logs (.jsonl/.ndjson; .csv/.tsv with a header row),
                    one event a line with the fields session, action (l!m,
                    l?m) or lifeline + kind (send|receive) + message, and
                    seq or time for the order within a location (else the
                    line order); --field ROLE=NAME renames a field
  otlp              OpenTelemetry OTLP/JSON (the Collector's file exporter):
                    a trace is a session, service.name the lifeline, a
                    PRODUCER/CLIENT span an emission, CONSUMER/SERVER a
                    reception, in start-time order, of the first of its
                    names that the spec declares (CLIENT/SERVER:
                    http.route, "METHOD route", the span's name,
                    "rpc.service/rpc.method", rpc.method; PRODUCER/CONSUMER:
                    messaging.destination.name, the span's name); the two
                    spans of one call or message (a SERVER span's parent
                    CLIENT span, a CONSUMER span's parent or linked
                    PRODUCER span), in one file or two, carry the
                    receiving side's message
  jaeger            Jaeger's JSON traces, mapped alike (span.kind tag;
                    references CHILD_OF and FOLLOWS_FROM link spans)
  otlp-proto        OTLP/protobuf: one ExportTraceServiceRequest, or the
                    file exporter's length-prefixed messages (otlp reads it too)
  zipkin            Zipkin v2 JSON spans (localEndpoint.serviceName the
                    lifeline; a shared SERVER half pairs with its CLIENT)
  stdouttrace       the OpenTelemetry Go SDK's stdouttrace spans
--locations groups the lifelines of logs that share a clock: discrete (the
default: one location per lifeline), trivial (one for all) or the lifelines of
each location "a,b;c". An event whose lifeline or message the signature
does not declare is ignored and counted (--strict: an error); a malformed line
is reported as FILE:LINE and the rest of the log is still judged.

Settings are layered: the command line wins over --options FILE.hcf, which
wins over the option sections of a legacy single-file .hsf, which win over the
defaults. From @analyze_option, ivc reads analysis_kind (accept: accept;
prefix, eliminate, hide: prefix; simulate[slice=true,...]: slice with its
budget; simulate without slice: prefix), local_analysis (--local-analyses),
partial_order_reduction (--por), strategy (BFS: bfs; DFS, HCS: dfs) and
filters max_node_number (--max-nodes); it ignores the options that do not
change verdicts (goal, memoize, loggers, priorities), and warns about the
filters it does not have (max_depth, max_loop_depth).

Exit status: 0 when every verdict is Pass or WeakPass, 1 when any is Fail or
Inconc, 2 when a file could not be read (the others are still analyzed).`,
		Example: `  ivc analyze abp.hsf run1.htf run2.htf
  ivc analyze abp.hsf abp.hif logs/ --format json
  ivc analyze --mode accept --jobs 4 lfrem/signature.hsf lfrem/i3.hif lfrem/i3_accepted
  ivc analyze --options conf.hcf signature.hsf i0.hif traces/
  ivc analyze --graph search.dot abp.hsf run1.htf && dot -Tsvg search.dot -o search.svg
  ivc analyze --engine automata --format json abp.hsf logs/
  ivc analyze --mode slice i2.hsf late-logs/
  ivc analyze --locations "a0,a3;a1,a2" nfa1.timbuk traces/`,
		Args: a.args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.analyze(cmd, &fl, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.mode, "mode", "prefix", "the question asked, `accept|prefix|slice`")
	f.StringVar(&fl.budget, "budget", "liberal", "slice mode's simulation budget, `liberal|paper` (see --help)")
	f.StringVar(&fl.engine, "engine", "auto", "the analysis engine, `auto|runtime|automata`")
	f.StringVar(&fl.locations, "locations", "", locationsHelp+"; with a .timbuk SPEC, the letters of each location, groups optionally named \"L=a,b\" (discrete: one per letter)")
	f.BoolVar(&fl.por, "por", true, "partial order reduction (--por=false to switch it off)")
	f.BoolVar(&fl.loc, "local-analyses", true, "local analyses (--local-analyses=false to switch them off)")
	// --loc was the flag's name before it sat beside --locations.
	f.BoolVar(&fl.loc, "loc", true, "local analyses (old name of --local-analyses)")
	f.MarkDeprecated("loc", "use --local-analyses")
	f.StringVar(&fl.strategy, "strategy", "dfs", "the search order, `dfs|bfs`")
	f.DurationVar(&fl.timeout, "timeout", 0, "time budget per multi-trace, e.g. 5s (0: none); Inconc when hit")
	f.IntVar(&fl.maxNodes, "max-nodes", 0, fmt.Sprintf("vertex budget per multi-trace (0: %d); Inconc when hit", check.DefaultMaxNodes))
	f.IntVar(&fl.jobs, "jobs", runtime.NumCPU(), "multi-traces analyzed in parallel")
	f.StringVar(&fl.options, "options", "", "take defaults from the @analyze_option of `FILE.hcf` (HIBOU options)")
	f.IntVar(&fl.maxStates, "max-states", 0, fmt.Sprintf("state budget of the NFA synthesis of the automata engine (0: %d with --engine auto, compile's default with automata)", check.DefaultAutoMaxStates))
	f.Var(&fl.maxMemory, "max-memory", "memory budget of each analysis (and of the automata engine's constructions), e.g. 512MiB or 4GB; Inconc when hit (0: half the available memory, shared by the --jobs)")
	f.BoolVar(&fl.hugePages, "huge-pages", true, "ask Linux for transparent huge pages on the heap as it grows (where the host's setting is madvise): fewer page faults in large searches and logs")
	fl.maxInput = byteSize(input.DefaultLimit)
	f.Var(&fl.maxInput, "max-input", "the largest input file read, e.g. 512MiB or 8GB")
	f.Var(&fl.maxLine, "max-line", maxLineHelp)
	f.StringVar(&fl.logs.format, "log-format", "auto", "the format of the logs, `auto|htf|jsonl|csv|otlp|otlp-proto|jaeger|zipkin|stdouttrace` (auto: by extension and content)")
	f.StringArrayVar(&fl.logs.fields, "field", nil, "an event log's field for a role, `ROLE=NAME` (roles: session, action, lifeline, kind, message, seq, time; repeatable)")
	f.StringVar(&fl.logs.lifelineAttr, "lifeline-attr", "", "OTLP/Jaeger: the attribute naming a span's lifeline (default service.name, then process.executable.name)")
	f.StringVar(&fl.logs.messageAttr, "message-attr", "", "OTLP/Jaeger: the attribute naming a span's message (default: the first of the span's names that the spec declares; see docs/logs.md)")
	f.BoolVar(&fl.logs.strict, "strict", false, "an event outside the signature is an error (default: ignored and counted)")
	f.StringVar(&fl.traceURL, "trace-url", "", traceURLHelp)
	f.StringVar(&fl.logs.sessionScope, "session-scope", "run", "what a log's session is, `run|file`: its id across every log of the run, or within its file")
	f.Var(&fl.joinMemory, "join-memory", "memory budget of the sessions held while the logs of a run are joined, e.g. 256MiB: past it they spill to disk, verdicts unchanged (0: --max-memory, or half the available memory); the limits on one line or JSON value (a 64th), the spans of a file and the events of a session (a 4th) follow --max-memory")
	f.StringVar(&fl.logs.tmpDir, "tmp-dir", "", "where sessions spill to disk past --join-memory (default: the system's temporary directory)")
	f.StringVar(&fl.graph, "graph", "", "write the graph explored for the one multi-trace to `FILE.dot` (Graphviz)")
	f.BoolVar(&fl.force, "force", false, "let --report, --summary and --graph replace a file that ivc did not write")
	f.StringVar(&fl.session, "session", "", "with --graph and a log, the session whose search is drawn, by its `ID`")
	repairFlags(cmd, &fl)
	f.StringVar(&fl.summary, "summary", "", "also write the run's summary as JSON to `FILE.json`: counts, verdicts, reasons and failure patterns (ivc-beam's summary)")
	f.StringVar(&fl.report, "report", "", "also write an HTML report to `FILE.html`: counts, a table of every multi-trace, drawings of the failures")
	return cmd, &fl
}

// repairFlags adds the flags of the repair of Fails to a command that
// judges: --repair and --repair-budget.
func repairFlags(cmd *cobra.Command, fl *analyzeFlags) {
	f := cmd.Flags()
	f.BoolVar(&fl.repair, "repair", true, "give the smallest repair of each Fail: the events to delete and insert (--repair=false to switch it off)")
	f.StringVar(&fl.repairBudget, "repair-budget", "", fmt.Sprintf("bound each repair by `NODES`, a time or both, e.g. 100000, 2s or 100000,2s (default %d nodes); past it the best repair found, marked incomplete", check.DefaultRepairNodes))
}

// gcLimit is the memory limit of the collector for a run (see
// memlimit.TuneGC): the larger of --max-memory and --join-memory, and the
// 64 MiB the process takes beyond them; 0 (what is available) when neither
// is given.
func gcLimit(fl *analyzeFlags) int64 {
	if m := max(int64(fl.maxMemory), int64(fl.joinMemory)); m > 0 {
		return m + 64<<20
	}
	return 0
}

// analyze runs ivc analyze SPEC [HIF] MULTITRACE...
func (a *app) analyze(cmd *cobra.Command, fl *analyzeFlags, args []string) error {
	if fl.hugePages {
		// Said once the run is done: the periodic advice runs beside the
		// output.
		var mu sync.Mutex
		var errs []error
		stop := memlimit.HugePages(memlimit.BatchHugePages, func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() })
		defer func() {
			stop()
			for _, err := range errs {
				a.warnf("ivc analyze: %v", err)
			}
		}()
	}
	defer memlimit.TuneGC(gcLimit(fl))()
	if check.IsTimbuk(args[0]) {
		return a.analyzeRaw(cmd, fl, args)
	}
	path, hif, paths, err := a.specArgs(args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return a.usagef(noMultiTrace)
	}
	sp, err := a.specOptions().Load(path, hif)
	if err != nil {
		return err
	}
	a.warn(sp.Warnings)
	set := settings(cmd, fl)
	opts, warnings, err := set.Options(sp)
	for _, w := range warnings {
		a.warnf("%s", w)
	}
	if err != nil {
		return err
	}
	start := time.Now() // the batch's time includes the setup
	c, err := check.New(sp, opts)
	if err != nil {
		return err
	}
	src, err := a.logSource(fl, sp)
	if err != nil {
		return err
	}
	files, skipped := a.expandMatch(paths, src.Recognize, orList(append(logs.Extensions(src.Format), "other log")))
	sessions := src.Sessions(files)
	var graph *graphSessions
	switch {
	case fl.graph != "":
		if graph, err = a.graphSessions(fl, paths, files, src); err != nil {
			return err
		}
		sessions = graph.explore(sessions)
	case fl.session != "":
		return a.usagef(sessionWithoutGraph)
	default:
		// Each session's storage serves a later one once its outcome is
		// printed (Run releases it): print keeps nothing of it but a copy.
		src.Reuse = true
	}
	b, err := a.newBatch(fl, args, files, append([]string{path, hif, fl.options, sp.HIFPath}, files...),
		newReportBuilder(a, fl.report, args, sp.SigPath, c.Mode(), c.Engine(), sp))
	if err != nil {
		return err
	}
	sum := c.Run(sessions, check.RunOptions{Jobs: fl.jobs, Explore: graph != nil}, b.print)
	sum.Counts = src.Counts
	b.prog.clear()
	if err := graph.check(); err != nil {
		return err
	}
	b.summary(time.Since(start), &sum, skipped)
	if line := undeclaredLine(&sum.Counts, sp.Sig); line != "" {
		fmt.Fprintln(a.stderr, line)
	}
	if err := sum.NothingJudged(); err != nil {
		a.report(err)
	}
	if err := b.rep.write(time.Since(start), &sum, sp.Sig); err != nil {
		a.report(err)
	}
	if err := writeSummary(fl.summary, &sum); err != nil {
		a.report(err)
	}
	return nil
}

// analyzeRaw runs ivc analyze NFA.timbuk LETTERTRACES...: a raw NFA, its
// letters split by --locations, judged against files of letter traces by
// check's entry point for raw NFAs.
func (a *app) analyzeRaw(cmd *cobra.Command, fl *analyzeFlags, args []string) error {
	path, paths := args[0], args[1:]
	if len(paths) == 0 {
		return a.usagef(noMultiTrace)
	}
	r, err := check.LoadRawNFA(path, fl.locations)
	var le *check.LocationsError
	if errors.As(err, &le) {
		return a.usagef("--locations: %v", le.Err)
	} else if err != nil {
		return err
	}
	set := settings(cmd, fl)
	opts, err := set.RawOptions()
	if err != nil {
		return err
	}
	start := time.Now() // the batch's time includes the setup
	c, err := check.NewRaw(r, opts)
	if err != nil {
		return err
	}
	files := a.expand(paths, ".txt")
	if fl.session != "" {
		return a.usagef(sessionWithoutGraph)
	}
	b, err := a.newBatch(fl, args, files, append([]string{path, fl.options}, files...),
		newReportBuilder(a, fl.report, args, r.Path, c.Mode(), c.Engine(), nil))
	if err != nil {
		return err
	}
	sum := c.Run(files, fl.jobs, b.print)
	b.prog.clear()
	b.summary(time.Since(start), &sum, nil)
	if err := b.rep.write(time.Since(start), &sum, nil); err != nil {
		a.report(err)
	}
	if err := writeSummary(fl.summary, &sum); err != nil {
		a.report(err)
	}
	return nil
}

// summaryMarker is in the first bytes of every summary ivc writes
// (check.SummaryJSON, indented): what lets --summary replace one.
const summaryMarker = `"multi_traces":`

// writeSummary writes the summary of a run as JSON to path (--summary),
// nothing when path is "".
func writeSummary(path string, sum *check.Summary) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(sum.JSON(), "", "  ")
	if err != nil {
		return err
	}
	return syntax.FileError(atomicfile.WriteFile(path, append(b, '\n'), 0o644))
}

// The usage errors that both kinds of SPEC share.
const (
	noMultiTrace        = "no MULTITRACE given (want SPEC [HIF] MULTITRACE...)"
	sessionWithoutGraph = "--session chooses the session whose search --graph draws: give --graph FILE.dot"
)

// newBatch returns the printer of a batch of files, once the outputs are
// checked before the batch: never one of the inputs ins, a link, or a file
// ivc did not write (without --force).
func (a *app) newBatch(fl *analyzeFlags, args, files, ins []string, rep *reportBuilder) (*batch, error) {
	if fl.report != "" {
		if err := checkOutput("--report", fl.report, ins, report.Generator, fl.force); err != nil {
			return nil, err
		}
	}
	if fl.summary != "" {
		if err := checkOutput("--summary", fl.summary, ins, summaryMarker, fl.force); err != nil {
			return nil, err
		}
	}
	if fl.graph != "" {
		if err := checkOutput("--graph", fl.graph, ins, graphMarker, fl.force); err != nil {
			return nil, err
		}
	}
	return &batch{a: a, graph: fl.graph, rep: rep, prog: newProgress(a.stderr, files, a.json())}, nil
}

// batch prints the outcomes of ivc analyze.
type batch struct {
	a     *app
	graph string
	prog  *progress
	rep   *reportBuilder // with --report
	done  int
	line  []byte // the last record written, its room reused
}

func (b *batch) print(o check.Outcome) {
	a := b.a
	b.done++
	b.rep.add(&o)
	b.prog.clear()
	defer b.prog.show(b.done)
	if o.Err != nil {
		a.report(a.describe(o.Err))
		return
	}
	if !o.Result.Verdict.OK() {
		a.fail()
	}
	if a.json() {
		if line, err := o.Record().AppendJSON(b.line[:0]); err != nil {
			a.report(fmt.Errorf("%s: the record not written: %w", syntax.FileName(o.File), err))
		} else {
			b.line = append(line, '\n')
			a.stdout.Write(b.line)
		}
	} else {
		b.line = o.AppendText(b.line[:0])
		a.stdout.Write(b.line)
	}
	if b.graph != "" && o.Graph != nil {
		name := o.File
		if o.ID != "" {
			name += " (session " + o.ID + ")"
		}
		if err := writeGraph(b.graph, name, o.Result, o.Graph); err != nil {
			a.report(err)
		}
	}
}

// summary prints the summary of a batch on stderr (skipped: the files of
// the directories given that were neither logs nor .htf files), and the
// setup time when there was any worth a mention, unless the batch was one
// multi-trace judged with nothing else to say.
func (b *batch) summary(d time.Duration, sum *check.Summary, skipped []string) {
	errors := sum.Unreadable + sum.Unjudged // inputs and multi-traces reported
	judged := sum.Judged()
	if judged+errors <= 1 && sum.Ignored == 0 && sum.Malformed == 0 && sum.Unkinded == 0 && len(skipped) == 0 {
		return
	}
	var parts []string
	for v, c := range sum.Verdicts {
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, verdict.Verdict(v)))
		}
	}
	if errors > 0 {
		parts = append(parts, fmt.Sprintf("%d unreadable", errors))
	}
	if sum.Malformed > 0 {
		parts = append(parts, plural(sum.Malformed, "malformed log line"))
	}
	if sum.Ignored > 0 {
		parts = append(parts, plural(sum.Ignored, "event")+" outside the signature ignored")
	}
	if sum.Unkinded > 0 {
		parts = append(parts, plural(sum.Unkinded, "span")+" without a protocol kind (INTERNAL or none) not judged")
	}
	setup := ""
	if sum.Setup >= time.Millisecond {
		setup = fmt.Sprintf(" (setup %s)", report.RoundDuration(sum.Setup))
	}
	fmt.Fprintf(b.a.stderr, "%s: %s in %s%s\n", plural(judged+errors, "multi-trace"), strings.Join(parts, ", "), report.RoundDuration(d), setup)
	if line := skippedLine(skipped); line != "" {
		fmt.Fprintln(b.a.stderr, line)
	}
	if sum.Logs > 0 {
		joined := ""
		if sum.Joined > 0 {
			joined = fmt.Sprintf(" (%d joined across several files)", sum.Joined)
		}
		dups := ""
		if sum.Duplicates > 0 {
			dups = fmt.Sprintf(", %d duplicates dropped", sum.Duplicates)
			if sum.Conflicts > 0 {
				dups += fmt.Sprintf(" (%d conflicting)", sum.Conflicts)
			}
		}
		fmt.Fprintf(b.a.stderr, "%s: %s%s, events: %d judged, %d ignored, %d in sessions not judged%s\n",
			plural(sum.Logs, "log file"), plural(sum.Sessions, "session"), joined, sum.Events-sum.EventsNotJudged, sum.Ignored, sum.EventsNotJudged, dups)
	}
	if sum.Spilled {
		fmt.Fprintln(b.a.stderr, "sessions spilled to disk past --join-memory (the verdicts are the same)")
	}
	sum.WritePatterns(b.a.stderr, 0)
}

// plural returns "1 thing" or "n things".
// skippedLine says which files of the directories given were neither logs
// nor .htf files ("" when none).
func skippedLine(skipped []string) string {
	n := len(skipped)
	if n == 0 {
		return ""
	}
	names := make([]string, min(n, 5))
	for i := range names {
		names[i] = syntax.FileName(skipped[i])
	}
	if n > len(names) {
		names = append(names, fmt.Sprintf("and %d more", n-len(names)))
	}
	return fmt.Sprintf("%s of the directories given, neither logs nor .htf files, skipped: %s", plural(n, "file"), strings.Join(names, ", "))
}

func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
