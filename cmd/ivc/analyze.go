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

	"github.com/ivc-project/ivc/automata"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/nfa"
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
	locations              string
	budget                 string
	simulation             *runtime.Simulation // set by a simulate[...] option section
}

func newAnalyzeCmd(a *app) *cobra.Command {
	cmd, _ := analyzeCommand(a)
	return cmd
}

// analyzeCommand returns ivc analyze and the flags it parses into.
func analyzeCommand(a *app) (*cobra.Command, *analyzeFlags) {
	var fl analyzeFlags
	cmd := &cobra.Command{
		Use: "analyze SPEC [HIF] MULTITRACE...",
		// The engines and raw NFAs are described in the Long help.
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
  auto (default)    automata when the interaction compiles, else runtime

Raw NFAs: SPEC may be a .timbuk word automaton (the automata paper's
benchmark format); its letters are split into locations by
--locations "a,b;c,d" (groups separated by ';', optionally named "L=a,b"),
by default one location per letter, and each MULTITRACE is a text file of
one line per location, "NAME: letter letter ...". The automata engine
answers for it.

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
  Inconc            a limit (--timeout, --max-nodes) stopped the search first

SPEC is a .hsf signature (the .hif of the same name beside it is used when
HIF is omitted) or a legacy single-file .hsf. A MULTITRACE is a .htf file or a
directory, which stands for the .htf files below it, sorted.

Settings are layered: the command line wins over --options FILE.hcf, which
wins over the option sections of a legacy single-file .hsf, which win over the
defaults. From @analyze_option, ivc reads analysis_kind (accept: accept;
prefix, eliminate, hide: prefix; simulate[slice=true,...]: slice with its
budget; simulate without slice: prefix), local_analysis (--loc),
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
			if len(args) > 0 && hasExt(args[0], ".timbuk") {
				return a.analyzeTimbuk(cmd, &fl, args[0], args[1:])
			}
			if fl.locations != "" {
				return a.usagef("--locations splits the letters of a .timbuk NFA; the components of a .htf multi-trace are its co-localizations")
			}
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
			if b.auto, err = a.automataEngine(sp, fl.engine, opts, fl.graph != ""); err != nil {
				return err
			}
			b.run()
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.mode, "mode", "prefix", "the question asked, `accept|prefix|slice`")
	f.StringVar(&fl.budget, "budget", "liberal", "slice mode's simulation budget, `liberal|paper` (see --help)")
	f.StringVar(&fl.engine, "engine", "auto", "the analysis engine, `auto|runtime|automata`")
	f.StringVar(&fl.locations, "locations", "", "with a .timbuk SPEC, the letters of each location, `\"a,b;c\"` (default: one per letter)")
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

	// auto is the automata engine, or nil for the runtime engine.
	auto *automata.Engine

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
	analyzers := make([]func(*multitrace.MultiTrace) runtime.Result, workers)
	for w := range analyzers {
		if b.auto != nil {
			analyzers[w] = b.auto.Analyze // safe for concurrent use
			continue
		}
		// Import reads the spec's store: done here, before any worker runs.
		st := interaction.NewStore(b.sp.Sig)
		analyzers[w] = runtime.New(st, st.Import(b.sp.Store, b.sp.Root), b.opts).Analyze
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

func (b *batch) analyze(an func(*multitrace.MultiTrace) runtime.Result, i int) (o outcome) {
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
	res := an(mt)
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
			File: file, Verdict: r.Verdict.String(), Mode: r.Mode.String(), Engine: b.engineName(),
			Nodes: r.Nodes, ElapsedUS: us, Reason: r.Reason, Explanation: r.Explanation,
			Simulated: r.Simulated,
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
	// Simulated lists, for a slice, the actions assumed unobserved.
	Simulated []runtime.SimulatedAction `json:"simulated,omitempty"`
}

func printResult(w io.Writer, file string, r runtime.Result, us int64) {
	fmt.Fprintf(w, "%s: %s (%d nodes, %d µs)", file, r.Verdict, r.Nodes, us)
	if r.Reason != "" {
		fmt.Fprintf(w, ": %s", r.Reason)
	}
	fmt.Fprintln(w)
	printSimulated(w, r.Simulated)
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

// printSimulated prints, per component, the actions a slice explanation
// assumed unobserved before the component's log starts.
func printSimulated(w io.Writer, sim []runtime.SimulatedAction) {
	var comps []string
	byComp := map[string][]string{}
	for _, s := range sim {
		if _, ok := byComp[s.Component]; !ok {
			comps = append(comps, s.Component)
		}
		byComp[s.Component] = append(byComp[s.Component], s.Action)
	}
	for _, c := range comps {
		fmt.Fprintf(w, "	before the log of [%s] starts: %s\n", c, strings.Join(byComp[c], " "))
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

func (b *batch) engineName() string {
	if b.auto != nil {
		return "automata"
	}
	return "runtime"
}

// autoMaxStates bounds the NFA synthesis of --engine auto, so that an
// interaction whose automaton is huge falls back to the runtime engine
// quickly.
const autoMaxStates = 1 << 16

// automataEngine compiles the spec for --engine automata or auto: it returns
// nil for the runtime engine (asked, or chosen by auto because the
// interaction does not compile or the run needs the runtime engine).
func (a *app) automataEngine(sp *spec.Spec, engine string, opts runtime.Options, graph bool) (*automata.Engine, error) {
	ao := automata.Options{Mode: opts.Mode, MaxNodes: opts.MaxNodes, Timeout: opts.Timeout, File: sp.HIFPath, Syntax: sp.Syntax}
	switch engine {
	case "runtime":
		return nil, nil
	case "automata":
		if graph {
			return nil, a.usagef("--graph draws the runtime engine's search: use --engine runtime")
		}
		if opts.Mode != runtime.Prefix && opts.Mode != runtime.Accept {
			return nil, a.usagef("--engine automata answers --mode accept and prefix")
		}
		return automata.New(sp.Store, sp.Root, ao)
	}
	if graph || opts.Mode != runtime.Prefix && opts.Mode != runtime.Accept {
		return nil, nil
	}
	ao.MaxStates = autoMaxStates
	e, err := automata.New(sp.Store, sp.Root, ao)
	if err != nil {
		return nil, nil // not compilable: the runtime engine answers
	}
	return e, nil
}

// analyzeTimbuk checks letter multi-traces against a raw NFA.
func (a *app) analyzeTimbuk(cmd *cobra.Command, fl *analyzeFlags, file string, paths []string) error {
	if len(paths) == 0 {
		return a.usagef("no MULTITRACE given (want NFA.timbuk MULTITRACE...)")
	}
	if fl.engine == "runtime" {
		return a.usagef("a .timbuk NFA has no interaction: only --engine automata (or auto) applies")
	}
	if fl.graph != "" || fl.options != "" {
		return a.usagef("--graph and --options apply to interactions, not to a .timbuk NFA")
	}
	var mode nfa.Mode
	switch fl.mode {
	case "accept":
		mode = nfa.Accept
	case "prefix":
		mode = nfa.Prefix
	default:
		return a.usagef("invalid --mode %q for a .timbuk NFA: want accept or prefix", fl.mode)
	}
	src, err := spec.ReadFile(file)
	if err != nil {
		return err
	}
	aut, err := nfa.ParseTimbuk(file, src)
	if err != nil {
		return err
	}
	var locs *nfa.Locations
	if fl.locations != "" {
		locs, err = nfa.ParseLocations(aut.Symbols(), fl.locations)
	} else {
		var groups [][]string
		for _, x := range aut.Symbols().Names() {
			groups = append(groups, []string{x})
		}
		locs, err = nfa.PartitionSymbols(aut.Symbols(), groups, aut.Symbols().Names())
	}
	if err != nil {
		return a.usagef("--locations: %v", err)
	}
	c, err := nfa.NewChecker(aut, locs, nfa.CheckerOptions{MaxNodes: fl.maxNodes, Timeout: fl.timeout})
	if err != nil {
		return err
	}
	files := a.expand(paths, ".txt")
	counts := map[nfa.Verdict]int{}
	for _, f := range files {
		src, err := spec.ReadFile(f)
		if err != nil {
			a.report(err)
			continue
		}
		mt, err := nfa.ParseLetterTraces(f, src, locs)
		if err != nil {
			a.report(err)
			continue
		}
		t0 := time.Now()
		r := c.CheckAS(mt, mode)
		us := time.Since(t0).Microseconds()
		counts[r.Verdict]++
		if r.Verdict == nfa.Fail || r.Verdict == nfa.Inconc {
			a.fail()
		}
		res := letterResult(c, mt, r, fl.mode)
		if a.json() {
			line, _ := json.Marshal(jsonResult{File: f, Verdict: r.Verdict.String(), Mode: fl.mode, Engine: "automata",
				Nodes: r.Nodes, ElapsedUS: us, Reason: res.Reason, Explanation: res.Explanation})
			fmt.Fprintf(a.stdout, "%s\n", line)
		} else {
			printResult(a.stdout, f, res, us)
		}
	}
	if len(files) > 1 {
		var parts []string
		for _, v := range []nfa.Verdict{nfa.Pass, nfa.WeakPass, nfa.Fail, nfa.Inconc} {
			if counts[v] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[v], v))
			}
		}
		fmt.Fprintf(a.stderr, "%d multi-traces: %s\n", len(files), strings.Join(parts, ", "))
	}
	return nil
}

// letterResult puts a verdict on letters in the runtime's terms, for
// printing: the locations stand for components.
func letterResult(c *nfa.Checker, mt [][]nfa.Letter, r nfa.Result, mode string) runtime.Result {
	locs := c.Locations()
	res := runtime.Result{Nodes: r.Nodes}
	res.Mode, _ = runtime.ParseMode(mode)
	res.Verdict = [...]runtime.Verdict{nfa.Pass: runtime.Pass, nfa.WeakPass: runtime.WeakPass, nfa.Fail: runtime.Fail, nfa.Inconc: runtime.Inconc}[r.Verdict]
	if r.Verdict == nfa.Inconc {
		res.Reason = r.Reason.String()
	}
	if r.Verdict != nfa.Fail {
		return res
	}
	consumed := make([]int, len(mt))
	for i := range mt {
		consumed[i] = len(mt[i])
		if r.Progress != nil {
			consumed[i] = r.Progress[i]
		}
	}
	ex := &runtime.Explanation{}
	reason := r.Reason.String()
	for k, f := range r.Locals {
		consumed[f.Loc] = f.Pos
		if k == 0 {
			ex.LocalFailure = locs.Name(f.Loc)
			for _, x := range f.Expected {
				ex.Expected = append(ex.Expected, locs.Letters(f.Loc)[x])
			}
			reason += ":"
		} else {
			reason += ";"
		}
		reason += fmt.Sprintf(" %s at event %d", locs.Name(f.Loc), f.Pos+1)
		if f.AtEnd {
			reason = strings.TrimSuffix(reason, fmt.Sprintf(" at event %d", f.Pos+1)) + " ends too early"
		}
	}
	for _, x := range r.Expected {
		ex.Expected = append(ex.Expected, c.NFA().Symbols().Name(x))
	}
	for i, tr := range mt {
		cp := runtime.ComponentProgress{Lifelines: locs.Name(i), Consumed: consumed[i], Length: len(tr)}
		if consumed[i] < len(tr) && int(tr[consumed[i]]) < len(locs.Letters(i)) {
			cp.Head = locs.Letters(i)[tr[consumed[i]]]
		}
		ex.Components = append(ex.Components, cp)
	}
	res.Explanation, res.Reason = ex, reason
	return res
}
