package hcf

import (
	"strings"

	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// File is a parsed .hcf file: its option sections in source order, at most
// one of each Kind.
type File struct {
	Sections []*Section
	// Comments are the comments of a file without sections; those of a
	// file with sections are kept with them.
	Comments []string
}

// Section returns the section of kind k, or nil if the file has none.
func (f *File) Section(k Kind) *Section {
	for _, s := range f.Sections {
		if s.Kind == k {
			return s
		}
	}
	return nil
}

// Section is one @analyze_option{...}, @explore_option{...} or
// @canonize_option{...}.
type Section struct {
	Kind    Kind
	Pos     syntax.Pos // the '@'
	End     syntax.Pos // just after the closing '}'
	Options Options

	// Comments are the source's comments kept with the section (nil when
	// none), and OptionComments those kept with each option, by the
	// option's name in today's spelling ("partial_order_reduction" for
	// "por"): Format prints them back around the option, which it may move.
	Comments       *syntax.Comments
	OptionComments map[string]*syntax.Comments

	decls []declSpan // where the options are in the source, for comments
}

// declSpan is where an option is declared in the source.
type declSpan struct {
	name string // in today's spelling
	span scan.Span
}

// Kind is the kind of an option section.
type Kind uint8

const (
	Analyze  Kind = iota + 1 // @analyze_option
	Explore                  // @explore_option
	Canonize                 // @canonize_option
)

var kindNames = enum.New("Kind", map[Kind]string{Analyze: "analyze_option", Explore: "explore_option", Canonize: "canonize_option"})

// The names of the option values are HIBOU's spelling of today, which the
// formatter writes; the parser reads them and older spellings (hcf's own
// grammar, not these tables). They are not the constants' identifiers:
// internal/enum's tables rather than stringer's.

// String returns the section name without '@', e.g. "analyze_option".
func (k Kind) String() string { return kindNames.Name(k) }

// Options are the values of one section. Only the options named in Set were
// written in the file; the others hold their zero value, which means "not
// given": the caller applies its own defaults, and command-line flags win
// over both. The zero value of every enum type below also means "not given".
type Options struct {
	Set Key // the options given, a bitwise OR of Key values

	Loggers               []Logger
	Strategy              HibouStrategy
	GreedyPriorities      Priorities // parameters of Strategy GreedyBestFS
	Goal                  Goal
	Analysis              Analysis
	LocalAnalysis         LocalAnalysis
	PartialOrderReduction bool
	Memoize               bool
	Filters               Filters
	Priorities            Priorities
	SearchAll             bool
}

// Has reports whether the file gave option k.
func (o *Options) Has(k Key) bool { return o.Set&k != 0 }

// Key names one option. Keys are bits, so that a set of keys is a Key.
type Key uint16

const (
	KeyLoggers Key = 1 << iota
	KeyStrategy
	KeyGoal
	KeyAnalysisKind
	KeyLocalAnalysis
	KeyPartialOrderReduction
	KeyMemoize
	KeyMaxDepth // filters = [max_depth=N]
	KeyMaxLoopDepth
	KeyMaxNodeNumber
	KeyPriorities
	KeySearchAll
)

var keyNames = [...]string{"loggers", "strategy", "goal", "analysis_kind", "local_analysis",
	"partial_order_reduction", "memoize", "max_depth", "max_loop_depth", "max_node_number",
	"priorities", "search_all"}

// String returns the option's name in today's HIBOU spelling; a set of
// several keys prints as "strategy|goal".
func (k Key) String() string {
	s := ""
	for i, name := range keyNames {
		if k&(1<<i) != 0 {
			if s != "" {
				s += "|"
			}
			s += name
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// The values of strategy, simulate[...] and its budgets are HIBOU's, as
// its files spell them, not ivc's: HIBOU has strategies and budgets that
// ivc does not (HCS, GreedyBestFS; none, max_depth), and ivc's own
// (check.Strategy and check.Simulation, the runtime engine's Strategy,
// Simulation and Budget) are named without the prefix. Package check maps
// these onto those, in one place (its options.go).

// HibouStrategy is HIBOU's search strategy of the graph exploration.
type HibouStrategy uint8

const (
	BFS          HibouStrategy = iota + 1 // breadth first
	DFS                                   // depth first
	HCS                                   // high coverage: depth first, then the oldest pending siblings
	GreedyBestFS                          // HIBOU ≤ 0.7 only, with Options.GreedyPriorities
)

var strategyNames = enum.New("HibouStrategy", map[HibouStrategy]string{BFS: "BFS", DFS: "DFS", HCS: "HCS", GreedyBestFS: "GreedyBestFS"})

func (s HibouStrategy) String() string { return strategyNames.Name(s) }

// Goal is the verdict at which an analysis may stop early.
type Goal uint8

const (
	GoalPass     Goal = iota + 1
	GoalWeakPass      // stop at WeakPass or better
	GoalNone          // explore the whole graph
)

var goalNames = enum.New("Goal", map[Goal]string{GoalPass: "Pass", GoalWeakPass: "WeakPass", GoalNone: "None"})

func (g Goal) String() string { return goalNames.Name(g) }

// AnalysisKind is HIBOU's analysis mode.
type AnalysisKind uint8

const (
	Accept    AnalysisKind = iota + 1 // exact membership
	Prefix                            // multi-prefix, without lifeline removal
	Eliminate                         // multi-prefix by lifeline removal ("hide" before 0.8.4)
	Simulate                          // slices by simulation, see HibouSimulation
)

var analysisKindNames = enum.New("AnalysisKind", map[AnalysisKind]string{Accept: "accept", Prefix: "prefix", Eliminate: "eliminate", Simulate: "simulate"})

func (k AnalysisKind) String() string { return analysisKindNames.Name(k) }

// Analysis is the value of analysis_kind.
type Analysis struct {
	Kind     AnalysisKind
	Simulate HibouSimulation // when Kind == Simulate
}

// HibouSimulation holds the parameters of simulate[...]. Parameters the file
// leaves out get HIBOU's defaults: no slice, no reset, no multiply,
// loop max_depth, act none.
type HibouSimulation struct {
	Slice    bool // also simulate before the start of a component ("before", "preamble")
	Reset    bool // reset the budgets after each real consumption ("reinitialize")
	Multiply bool // multiply the budgets by the multi-trace length ("resized", "dependent")
	Loop     HibouBudget
	Act      HibouBudget
}

// HibouBudget bounds what a simulation may add: loop instances or actions.
type HibouBudget struct {
	Kind HibouBudgetKind
	N    int // for BudgetNum
}

// HibouBudgetKind is the kind of a simulation budget.
type HibouBudgetKind uint8

const (
	BudgetNone     HibouBudgetKind = iota + 1 // "none": no simulation of this kind
	BudgetNum                                 // "num=N"
	BudgetMaxNum                              // "max_num": the number of loops (or actions outside loops) of the term
	BudgetMaxDepth                            // "max_depth": the loop depth of the term (loop budget only)
)

var budgetNames = enum.New("HibouBudgetKind", map[HibouBudgetKind]string{BudgetNone: "none", BudgetNum: "num", BudgetMaxNum: "max_num", BudgetMaxDepth: "max_depth"})

func (k HibouBudgetKind) String() string { return budgetNames.Name(k) }

// LocalAnalysis is the value of local_analysis: local analyses prune a node
// when one component alone cannot be explained by the projected interaction.
type LocalAnalysis struct {
	Enabled bool // false for "none"; the fields below are then zero
	Select  Select
	// MaxLookAhead bounds the depth of each local sub-analysis; Unbounded
	// for "none".
	MaxLookAhead int
	// Modulo: with Select == SelectDirty, a component is analysed once it has
	// been affected by that many steps.
	Modulo int
}

// Unbounded is the value of a depth bound written "none".
const Unbounded = -1

// Select chooses the components a local analysis looks at.
type Select uint8

const (
	SelectDirty Select = iota + 1 // only the components affected by the last steps
	SelectAll
)

var selectNames = enum.New("Select", map[Select]string{SelectDirty: "dirty", SelectAll: "all"})

func (s Select) String() string { return selectNames.Name(s) }

// DefaultLocalAnalysis is what local_analysis = true (or a list that gives
// no parameter) means: [select=dirty, max_look_ahead_depth=none, modulo=1].
var DefaultLocalAnalysis = LocalAnalysis{Enabled: true, Select: SelectDirty, MaxLookAhead: Unbounded, Modulo: 1}

// Filters bound the search. A filter is given when its Key is in Options.Set.
type Filters struct {
	MaxDepth      int
	MaxLoopDepth  int // loop instances along a path
	MaxNodeNumber int
}

// Priority is a kind of step whose order HIBOU lets the user tune.
type Priority uint8

const (
	Emission Priority = iota
	Reception
	InLoop // "loop": actions inside loops
	MultiRdv
	Elim // lifeline elimination steps ("hide" in HIBOU ≤ 0.8.2)
	Simu // simulation steps
	// Canonization steps (@canonize_option only).
	Simpl
	Flush
	Invert
	Deduplicate
	Factorize
	Defactorize
	// Step weighs the depth of a node in GreedyBestFS[...] (HIBOU ≤ 0.7).
	Step
	numPriorities
)

var priorityNames = enum.New("Priority", map[Priority]string{Emission: "emission", Reception: "reception",
	InLoop: "loop", MultiRdv: "multi_rdv", Elim: "elim", Simu: "simu", Simpl: "simpl", Flush: "flush", Invert: "invert",
	Deduplicate: "deduplicate", Factorize: "factorize", Defactorize: "defactorize", Step: "step"})

func (p Priority) String() string { return priorityNames.Name(p) }

// Priorities are signed levels per kind of step (0 when not given), and
// whether to shuffle steps of equal level.
type Priorities struct {
	Level     [numPriorities]int
	Randomize bool
}

// LoggerKind is the kind of a logger.
type LoggerKind uint8

const (
	Graphic  LoggerKind = iota + 1 // graphic[...]: draws the explored graph (needs Graphviz)
	TraceGen                       // tracegen[...]: writes the multi-traces met as .htf files
	NFA                            // nfa (or nfait): writes the explored graph as an NFA, explore only
)

var loggerNames = enum.New("LoggerKind", map[LoggerKind]string{Graphic: "graphic", TraceGen: "tracegen", NFA: "nfa"})

func (k LoggerKind) String() string { return loggerNames.Name(k) }

// Logger is one element of loggers = [...].
type Logger struct {
	Kind     LoggerKind
	Graphic  GraphicLogger  // when Kind == Graphic
	TraceGen TraceGenLogger // when Kind == TraceGen
}

// GraphicLogger holds the parameters of graphic[...]; zero values are not given.
type GraphicLogger struct {
	Format           ImageFormat
	Layout           Layout
	DrawSD           Switch // draw_sd: sequence diagrams in nodes
	DrawTT           Switch // draw_tt: term trees in nodes
	DrawSubProcesses Switch
	DrawLegend       Switch
	Parent           string // parent folder
	Output           string // output file name
}

// Switch is a boolean parameter that may be left out.
type Switch uint8

const (
	Off Switch = iota + 1
	On
)

var switchNames = enum.New("Switch", map[Switch]string{Off: "false", On: "true"})

func (s Switch) String() string { return switchNames.Name(s) }

// ImageFormat is the output format of the graphic logger.
type ImageFormat uint8

const (
	SVG ImageFormat = iota + 1
	PNG
)

var formatNames = enum.New("ImageFormat", map[ImageFormat]string{SVG: "svg", PNG: "png"})

func (f ImageFormat) String() string { return formatNames.Name(f) }

// Layout is the direction of the graphic logger's graph.
type Layout uint8

const (
	Vertical Layout = iota + 1
	Horizontal
)

var layoutNames = enum.New("Layout", map[Layout]string{Vertical: "vertical", Horizontal: "horizontal"})

func (l Layout) String() string { return layoutNames.Name(l) }

// TraceGenLogger holds the parameters of tracegen[...]; zero values are not given.
type TraceGenLogger struct {
	Generation   Generation
	Partition    Partition
	Folder       string // parent folder
	Prefix       string // prefix of the file names
	NoDuplicates Switch
}

// Generation says which nodes of the explored graph give a multi-trace file.
type Generation struct {
	Kind  GenerationKind
	Depth int // for GenExactDepth and GenModuloDepth
}

// GenerationKind is the kind of a tracegen generation.
type GenerationKind uint8

const (
	GenTerminal    GenerationKind = iota + 1 // "terminal": leaves of the graph
	GenAccepted                              // "accepted" ("exact" before 0.8.5): exactly accepted multi-traces
	GenPrefixes                              // "prefix" (before 0.8.5): every node
	GenExactDepth                            // "exact depth N"
	GenModuloDepth                           // "modulo depth N": nodes at depths multiple of N
)

var generationNames = enum.New("GenerationKind", map[GenerationKind]string{GenTerminal: "terminal", GenAccepted: "accepted", GenPrefixes: "prefix", GenExactDepth: "exact depth", GenModuloDepth: "modulo depth"})

func (k GenerationKind) String() string { return generationNames.Name(k) }

// Partition is HIBOU's partition=... of tracegen: the locations of the
// generated multi-traces (groups of lifelines that share a clock), one
// component each.
type Partition struct {
	Kind   PartitionKind
	Groups [][]string // for PartitionSpecific: the lifeline names of each location, non-empty, disjoint
}

// PartitionKind is the kind of a tracegen partition.
type PartitionKind uint8

const (
	PartitionDiscrete PartitionKind = iota + 1 // one location per lifeline
	PartitionTrivial                           // one location for all lifelines
	PartitionSpecific                          // {(l1),(l2,l3)}
)

var partitionNames = enum.New("PartitionKind", map[PartitionKind]string{PartitionDiscrete: "discrete", PartitionTrivial: "trivial", PartitionSpecific: "specific"})

// Locations returns p as the --locations flags write locations, which
// interaction.ParseLocations reads: "discrete", "trivial", or the lifeline
// names of each location "a,b;c" (quoted as in a .htf when they are not
// identifiers).
func (p Partition) Locations() string {
	if p.Kind != PartitionSpecific {
		return p.Kind.String()
	}
	gs := make([]string, len(p.Groups))
	for k, g := range p.Groups {
		names := make([]string, len(g))
		for i, l := range g {
			names[i] = syntax.QuoteName(l)
		}
		gs[k] = strings.Join(names, ",")
	}
	return strings.Join(gs, ";")
}

func (k PartitionKind) String() string { return partitionNames.Name(k) }
