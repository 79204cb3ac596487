package check

import (
	"fmt"
	"time"

	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/hcf"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// Options configure a Checker: the question, the engine, and the settings
// of the engines. They are the front door's own: New maps them onto each
// engine's options, here and nowhere else (runtimeOptions,
// automataOptions), and option files are mapped onto them here too
// (layer).
type Options struct {
	Engine Engine
	Mode   verdict.Mode // the question: Prefix (the default), Accept or Slice

	// The runtime engine's search.
	POR        bool       // partial order reduction by one-unambiguous actions
	LOC        bool       // local analyses: prune vertices whose components fail alone
	Strategy   Strategy   // DFS (the default) or BFS
	Simulation Simulation // slice mode's budget (DefaultOptions: DefaultSimulation)

	// The limits of one multi-trace's check, for both engines. MaxNodes
	// bounds the vertices of the runtime engine's search (0:
	// DefaultMaxNodes) and the states of each central search of the
	// automata engine (0: its own default); Timeout bounds the check, and
	// the automata engine's compilation and checkers (0: none); MaxMemory
	// bounds, in bytes, the runtime engine's analysis (0: none) and the
	// automata engine's compilation and checkers (0: its own default).
	MaxNodes  int
	Timeout   time.Duration
	MaxMemory int64

	// MaxStates bounds the NFA synthesis (0: DefaultAutoMaxStates for
	// EngineAuto, the synthesis's default for EngineAutomata).
	MaxStates int
	// Procedure is the automata engine's procedure (AS by default).
	Procedure Procedure
	// MaxInput bounds the bytes read from one input file (0:
	// input.DefaultLimit, 4 GiB).
	MaxInput int64
	// Repair bounds the search for the repair of a Fail (Checker.Repair).
	Repair RepairBudget
	// TraceURL, when set, is the page of a span in a trace viewer, with
	// the placeholders {trace_id} and {span_id}: the stops of a Fail link
	// to it (Stop.URL).
	TraceURL string
	// RepairFails asks Judge and Run to repair every Fail
	// (Outcome.Repair): on in DefaultOptions. Pass and WeakPass cost
	// nothing more.
	RepairFails bool
}

// The settings' values that belong to one engine are that engine's types,
// named here so that a caller needs no engine (as package os names
// io/fs's FileMode): one type per concept.
type (
	// Strategy is the order in which the runtime engine explores its
	// analysis graph: DFS or BFS.
	Strategy = rewrite.Strategy
	// Simulation is slice mode's budget of simulated actions: the liberal
	// criterion (DefaultSimulation), the slice paper's (PaperSimulation),
	// or what an option file's simulate[...] gives.
	Simulation = rewrite.Simulation
	// Procedure is the automata engine's decision procedure: AS or AC.
	Procedure = automata.Procedure
)

const (
	DFS = rewrite.DFS // depth first: stops at the first success, memory ∝ depth
	BFS = rewrite.BFS // breadth first

	AS = automata.AS // semi-centralized: local checks, Inter, central search
	AC = automata.AC // centralized: the central search on the whole NFA
)

// DefaultMaxNodes bounds the vertices of the runtime engine's search of
// one multi-trace when Options.MaxNodes is 0.
const DefaultMaxNodes = rewrite.DefaultMaxNodes

// DefaultSimulation is slice mode's default budget, the liberal criterion
// (--budget liberal); PaperSimulation is the slice paper's (--budget paper).
func DefaultSimulation() Simulation { return rewrite.DefaultSimulation() }

// PaperSimulation: see DefaultSimulation.
func PaperSimulation() Simulation { return rewrite.PaperSimulation() }

// DefaultOptions are EngineAuto in prefix mode, with POR and local
// analyses on, depth first, and slice mode's DefaultSimulation.
func DefaultOptions() Options {
	return Options{Mode: verdict.Prefix, POR: true, LOC: true, Strategy: DFS, Simulation: DefaultSimulation(), RepairFails: true}
}

// runtimeOptions are the runtime engine's options of o.
func (o *Options) runtimeOptions() rewrite.Options {
	return rewrite.Options{Mode: o.Mode, POR: o.POR, LOC: o.LOC, Strategy: o.Strategy, Simulation: o.Simulation,
		MaxNodes: o.MaxNodes, Timeout: o.Timeout, MaxMemory: o.MaxMemory}
}

// automataOptions are the automata engine's options of o (New adds where
// the interaction comes from).
func (o *Options) automataOptions() automata.Options {
	return automata.Options{Mode: o.Mode, Procedure: o.Procedure, MaxStates: o.MaxStates,
		MaxNodes: o.MaxNodes, Timeout: o.Timeout, MaxMemory: o.MaxMemory}
}

// autoAttempt bounds the automata engine's options ao for EngineAuto's
// attempt: DefaultAutoMaxStates, DefaultAutoBuildTimeout,
// DefaultAutoMaxMemory (or o's own limits when they are smaller) and
// DefaultAutoMaxCheckerWork.
func (o *Options) autoAttempt(ao *automata.Options) {
	if ao.MaxStates == 0 {
		ao.MaxStates = DefaultAutoMaxStates
	}
	ao.BuildTimeout, ao.MaxMemory, ao.MaxCheckerWork = DefaultAutoBuildTimeout, DefaultAutoMaxMemory, DefaultAutoMaxCheckerWork
	if m := o.MaxMemory; m > 0 {
		ao.MaxMemory = min(m, DefaultAutoMaxMemory)
	}
	if t := o.Timeout; t > 0 {
		ao.BuildTimeout = min(t, DefaultAutoBuildTimeout)
	}
}

// The settings that option files may give.
const (
	settingMode     = "mode"           // analysis_kind
	settingBudget   = "budget"         // the budget of analysis_kind = simulate[slice=true,...]
	settingLOC      = "local-analyses" // local_analysis
	settingPOR      = "por"            // partial_order_reduction
	settingStrategy = "strategy"       // strategy
	settingMaxNodes = "max-nodes"      // filters = [max_node_number = N]
)

// layer applies the HIBOU options of the @analyze_option sections of a
// legacy single-file .hsf, then of the .hcf files, in order, so that a later
// one wins; a setting for which fixed returns true (the caller's own) is
// left as it is. Options that do not change verdicts (goal, memoize,
// loggers, priorities) are ignored; the filters ivc does not have give
// warnings, which layer returns.
//
// The mapping: analysis_kind accept → verdict.Accept; prefix, eliminate,
// hide → verdict.Prefix (which decides exactly what HIBOU leaves Inconc);
// simulate[slice=true,...] → verdict.Slice with its budget; simulate
// without slice → verdict.Prefix. local_analysis → LOC,
// partial_order_reduction → POR, strategy BFS → BFS (DFS, HCS and
// HIBOU ≤ 0.7's greedy → DFS), max_node_number → MaxNodes.
func (o *Options) layer(sp *spec.Spec, hcfFiles []string, fixed func(setting string) bool) (warnings []string, err error) {
	apply := func(file string, f *hcf.File) {
		if sec := f.Section(hcf.Analyze); sec != nil {
			warnings = append(warnings, o.apply(file, sec, fixed)...)
		}
	}
	if sp.Options != nil {
		apply(sp.SigPath, sp.Options)
	}
	for _, file := range hcfFiles {
		src, err := syntax.ReadFile(file)
		if err != nil {
			return warnings, err
		}
		f, err := hcf.Parse(file, src)
		if err != nil {
			return warnings, err
		}
		apply(file, f)
	}
	return warnings, nil
}

// apply sets what an @analyze_option section gives and fixed does not pin.
func (o *Options) apply(file string, sec *hcf.Section, fixed func(string) bool) (warnings []string) {
	h := &sec.Options
	given := func(k hcf.Key, setting string) bool { return h.Has(k) && !fixed(setting) }
	if given(hcf.KeyAnalysisKind, settingMode) {
		switch h.Analysis.Kind {
		case hcf.Accept:
			o.Mode = verdict.Accept
		case hcf.Prefix, hcf.Eliminate:
			o.Mode = verdict.Prefix
		case hcf.Simulate:
			sim := h.Analysis.Simulate
			if !sim.Slice {
				// Simulation after the end only: multi-prefixes, which prefix
				// mode decides exactly by lifeline removal.
				o.Mode = verdict.Prefix
				break
			}
			o.Mode = verdict.Slice
			if !fixed(settingBudget) {
				o.Simulation = Simulation{Reset: sim.Reset, Multiply: sim.Multiply,
					Loops: budgetOf(sim.Loop), Actions: budgetOf(sim.Act)}
			}
		}
	}
	if given(hcf.KeyLocalAnalysis, settingLOC) {
		o.LOC = h.LocalAnalysis.Enabled
	}
	if given(hcf.KeyPartialOrderReduction, settingPOR) {
		o.POR = h.PartialOrderReduction
	}
	if given(hcf.KeyStrategy, settingStrategy) {
		// HCS is depth first with a different order of siblings, and the
		// greedy strategy of HIBOU ≤ 0.7 has no equivalent: depth first.
		o.Strategy = DFS
		if h.Strategy == hcf.BFS {
			o.Strategy = BFS
		}
	}
	if given(hcf.KeyMaxNodeNumber, settingMaxNodes) {
		o.MaxNodes = h.Filters.MaxNodeNumber
	}
	for _, k := range []hcf.Key{hcf.KeyMaxDepth, hcf.KeyMaxLoopDepth} {
		if h.Has(k) {
			warnings = append(warnings, fmt.Sprintf("%s:%s: warning: filter %s is ignored (ivc bounds searches by node and time budgets only)", file, sec.Pos, k))
		}
	}
	return warnings
}

// budgetOf maps a budget of HIBOU's simulate[...] onto ivc's: max_depth (for
// loops) and the count of actions outside loops are structural.
func budgetOf(b hcf.HibouBudget) rewrite.Budget {
	switch b.Kind {
	case hcf.BudgetNone:
		return rewrite.Budget{Kind: rewrite.Fixed, N: 0}
	case hcf.BudgetNum:
		return rewrite.Budget{Kind: rewrite.Fixed, N: b.N}
	case hcf.BudgetMaxNum:
		return rewrite.Budget{Kind: rewrite.Count}
	default:
		return rewrite.Budget{Kind: rewrite.Structural}
	}
}
