package main

import (
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/runtime"
	"github.com/ivc-project/ivc/spec"
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
}

func newAnalyzeCmd(a *app) *cobra.Command {
	cmd, _ := analyzeCommand(a)
	return cmd
}

// analyzeCommand returns ivc analyze and the flags it parses into.
func analyzeCommand(a *app) (*cobra.Command, *analyzeFlags) {
	var fl analyzeFlags
	cmd := &cobra.Command{
		Use:   "analyze SPEC [HIF] MULTITRACE...",
		Short: "Give a verdict for each multi-trace against an interaction",
		Long: `Analyze decides, for each multi-trace, whether it is consistent with the
interaction, and prints one line per multi-trace in input order:

  FILE: VERDICT (N nodes, T µs)

followed, on Fail, by indented lines that explain it: how far each component
was consumed and its next action, and the actions the interaction expected
there. N counts the vertices of the search, T its time (reading the file
excluded). With --format json, one JSON object per multi-trace and line, with
the fields file, verdict, mode, engine, nodes, elapsed_us, reason (when any)
and explanation (on Fail).

Verdicts, by --mode:
  prefix (default)  Pass: exactly accepted; WeakPass: a multi-prefix of an
                    accepted multi-trace (logs may stop early, lifelines may be
                    unobserved), not accepted itself; Fail: neither
  accept            Pass: exactly accepted; Fail: not
  Inconc            a limit (--timeout, --max-nodes) stopped the search first

SPEC is a .hsf signature (the .hif of the same name beside it is used when
HIF is omitted) or a legacy single-file .hsf. A MULTITRACE is a .htf file or a
directory, which stands for the .htf files below it, sorted.

Settings are layered: the command line wins over --options FILE.hcf, which
wins over the option sections of a legacy single-file .hsf, which win over the
defaults. From @analyze_option, ivc reads analysis_kind (accept: accept;
prefix, eliminate, hide: prefix; simulate: slice), local_analysis (--loc),
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
  ivc analyze --graph search.dot abp.hsf run1.htf && dot -Tsvg search.dot -o search.svg`,
		Args: a.args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, _, paths, err := a.specArgs(args); err != nil {
				return err
			} else if len(paths) == 0 {
				return a.usagef("no MULTITRACE given (want SPEC [HIF] MULTITRACE...)")
			}
			sp, paths, err := a.loadSpec(args)
			if err != nil {
				return err
			}
			opts, err := a.analysisOptions(cmd, &fl, sp)
			if err != nil {
				return err
			}
			files := a.expand(paths, ".htf")
			if fl.graph != "" {
				if len(files) != 1 || len(paths) != 1 {
					return a.usagef("--graph draws the search of one multi-trace: give exactly one .htf file")
				}
				opts.RecordGraph = true
			}
			b := &batch{a: a, sp: sp, opts: opts, files: files, jobs: fl.jobs, graph: fl.graph}
			b.run()
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.mode, "mode", "prefix", "the question asked, `accept|prefix` (slice is not implemented yet)")
	f.StringVar(&fl.engine, "engine", "auto", "the analysis engine, `auto|runtime` (automata is not implemented yet)")
	f.BoolVar(&fl.por, "por", true, "partial order reduction (--por=false to switch it off)")
	f.BoolVar(&fl.loc, "loc", true, "local analyses (--loc=false to switch them off)")
	f.StringVar(&fl.strategy, "strategy", "dfs", "the search order, `dfs|bfs`")
	f.DurationVar(&fl.timeout, "timeout", 0, "time budget per multi-trace, e.g. 5s (0: none); Inconc when hit")
	f.IntVar(&fl.maxNodes, "max-nodes", 0, fmt.Sprintf("vertex budget per multi-trace (0: %d); Inconc when hit", runtime.DefaultMaxNodes))
	f.IntVar(&fl.jobs, "jobs", goruntime.NumCPU(), "multi-traces analyzed in parallel")
	f.StringVar(&fl.options, "options", "", "take defaults from the @analyze_option of `FILE.hcf` (HIBOU options)")
	f.StringVar(&fl.graph, "graph", "", "write the graph explored for the one multi-trace to `FILE.dot` (Graphviz)")
	return cmd, &fl
}

// batch analyzes multi-traces with a pool of workers, each with its own
// Store and Analyzer, and prints the results in input order.
type batch struct {
	a     *app
	sp    *spec.Spec
	opts  runtime.Options
	files []string
	jobs  int
	graph string

	counts [runtime.Inconc + 1]int
	errors int
}

type outcome struct {
	i       int
	res     runtime.Result
	elapsed time.Duration
	err     error
}

func (b *batch) run() {
	start := time.Now()
	n := len(b.files)
	workers := max(1, min(b.jobs, n))
	analyzers := make([]*runtime.Analyzer, workers)
	for w := range analyzers {
		// Import reads the spec's store: done here, before any worker runs.
		st := interaction.NewStore(b.sp.Sig)
		analyzers[w] = runtime.New(st, st.Import(b.sp.Store, b.sp.Root), b.opts)
	}
	jobs := make(chan int)
	results := make(chan outcome, workers)
	go func() {
		for i := range b.files {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for _, an := range analyzers {
		wg.Go(func() {
			for i := range jobs {
				results <- b.analyze(an, i)
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	prog := newProgress(b.a.stderr, n)
	pending := map[int]outcome{}
	next := 0
	for o := range results {
		pending[o.i] = o
		for {
			o, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			prog.clear()
			b.print(o)
			next++
			prog.show(next)
		}
	}
	prog.clear()
	if n > 1 {
		b.summary(time.Since(start))
	}
}

func (b *batch) analyze(an *runtime.Analyzer, i int) (o outcome) {
	defer func() {
		if err := internalError(recover()); err != nil {
			o = outcome{i: i, err: fmt.Errorf("%s: %w", b.files[i], err)}
		}
	}()
	mt, err := multitrace.Read(b.files[i], b.sp.Sig)
	if err != nil {
		return outcome{i: i, err: spec.FileError(err)}
	}
	t0 := time.Now()
	res := an.Analyze(mt)
	return outcome{i: i, res: res, elapsed: time.Since(t0)}
}

func (b *batch) print(o outcome) {
	a, file := b.a, b.files[o.i]
	if o.err != nil {
		b.errors++
		a.report(o.err)
		return
	}
	r := o.res
	if e := r.Explanation; e != nil {
		// The expected actions form a set: print them in a stable order.
		sorted := *e
		sorted.Expected = slices.Sorted(slices.Values(e.Expected))
		r.Explanation = &sorted
	}
	b.counts[r.Verdict]++
	if !r.Verdict.OK() {
		a.fail()
	}
	us := o.elapsed.Microseconds()
	if a.json() {
		line, _ := json.Marshal(jsonResult{
			File: file, Verdict: r.Verdict.String(), Mode: r.Mode.String(), Engine: "runtime",
			Nodes: r.Nodes, ElapsedUS: us, Reason: r.Reason, Explanation: r.Explanation,
		})
		fmt.Fprintf(a.stdout, "%s\n", line)
	} else {
		printResult(a.stdout, file, r, us)
	}
	if b.graph != "" && r.Graph != nil {
		if err := writeGraph(b.graph, file, r); err != nil {
			a.report(err)
		}
	}
}

// jsonResult is the line --format json prints for a multi-trace.
type jsonResult struct {
	File        string               `json:"file"`
	Verdict     string               `json:"verdict"`
	Mode        string               `json:"mode"`
	Engine      string               `json:"engine"`
	Nodes       int                  `json:"nodes"`
	ElapsedUS   int64                `json:"elapsed_us"`
	Reason      string               `json:"reason,omitempty"`
	Explanation *runtime.Explanation `json:"explanation,omitempty"`
}

func printResult(w io.Writer, file string, r runtime.Result, us int64) {
	fmt.Fprintf(w, "%s: %s (%d nodes, %d µs)", file, r.Verdict, r.Nodes, us)
	if r.Reason != "" {
		fmt.Fprintf(w, ": %s", r.Reason)
	}
	fmt.Fprintln(w)
	if r.Verdict != runtime.Fail || r.Explanation == nil {
		return
	}
	e := r.Explanation
	if e.LocalFailure != "" {
		fmt.Fprintf(w, "\tlocal failure: the trace of [%s] is impossible on its own\n", e.LocalFailure)
	}
	for _, c := range e.Components {
		fmt.Fprintf(w, "\t[%s] consumed %d/%d", c.Lifelines, c.Consumed, c.Length)
		if c.Head != "" {
			fmt.Fprintf(w, ", next %s", c.Head)
		}
		fmt.Fprintln(w)
	}
	if len(e.Expected) == 0 {
		fmt.Fprintf(w, "\texpected: nothing more\n")
	} else {
		fmt.Fprintf(w, "\texpected: %s\n", strings.Join(e.Expected, " "))
	}
}

// summary prints the counts of a batch on stderr.
func (b *batch) summary(d time.Duration) {
	var parts []string
	for v, c := range b.counts {
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, runtime.Verdict(v)))
		}
	}
	if b.errors > 0 {
		parts = append(parts, fmt.Sprintf("%d unreadable", b.errors))
	}
	fmt.Fprintf(b.a.stderr, "%d multi-traces: %s in %s\n", len(b.files), strings.Join(parts, ", "), roundDuration(d))
}

// roundDuration keeps about three significant digits: 1.23s, 45.67ms, 789µs.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	default:
		return d.Round(time.Microsecond)
	}
}
