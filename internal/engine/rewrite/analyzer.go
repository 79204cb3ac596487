package rewrite

import (
	"hash/maphash"
	"slices"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/memo"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// An Analyzer checks multi-traces against one interaction. It keeps memo
// tables (in its Store and its own) from one multi-trace to the next, so a
// batch over one specification gets faster as it goes. An Analyzer and its
// Store belong to one goroutine; give each worker its own (Store.Import).
type Analyzer struct {
	st   *interaction.Store
	root interaction.Term
	opts Options
	all  interaction.Lifelines

	located     map[uint64][]*located     // by a hash of their lifeline sets
	lastOn      [][]interaction.Action    // the actions that end each lifeline (lastActions)
	npart       int32                     // sets of locations made
	results     memo.Verdicts             // the verdicts decided, by multi-trace
	kept        int                       // entries of the locations' memos (see keep)
	last        *located                  // the locations of the last analysis
	recent      *located                  // the locations last found by locate
	lastEntries int                       // its memos' entries before
	loc         map[uint64]bool           // the local analyses of this analysis (see locKey)
	letters     []interaction.MultiAction // every multi-action of the interaction
	hasSync     bool                      // the interaction has a sync operator
	// single holds the ActID of each single action met in a multi-trace,
	// so that the events of a multi-trace take no look-up of the store's
	// (by string).
	single interaction.ActionTable[interaction.ActID]
	// por remembers oneUnambiguous by term (see unambiguous), for the
	// terms below porTerms.
	por      []uint64
	porTerms int
	// names holds the text of the multi-actions an explanation named, by
	// ActID ("" until needed): Fail results name the head of each component
	// and the expected actions again and again.
	names []string

	// base is what the store held when the analyzer got it (see renew);
	// spent: the last analysis stopped at the memory budget; used: an
	// analysis ran since (see analyze).
	base  int64
	spent bool
	used  bool

	// noStraight turns straight off (tests compare the search with it).
	noStraight bool

	// Scratch space reused from one search to the next.
	pb    problem
	grows func() // pb.grows
	vs    vertices
	work  []edge
	succ  []move
	via   []viaStep // slice searches: how each vertex was reached
}

// New returns an Analyzer of root, a term of st.
func New(st *interaction.Store, root interaction.Term, opts Options) *Analyzer {
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = DefaultMaxNodes
	}
	root = st.Simplify(root)
	if opts.MaxMemory > 0 {
		// The memory an analysis is charged for counts the growth of the
		// store, which depends on what the store held before: start from a
		// copy of the interaction alone, as renew does, so that an analysis
		// judged first, or again after renew, is charged the same.
		st, root = st.Fresh(root)
	}
	withSync := hasSync(st, root)
	if opts.LOC && withSync {
		// A local analysis projects by Remove, which erases the synchronized
		// actions of other components and so unlinks the events a sync joins:
		// the projection would reject what the interaction accepts.
		opts.LOC = false
	}
	a := &Analyzer{
		st:       st,
		root:     root,
		opts:     opts,
		porTerms: porTerms(opts),
		hasSync:  withSync,
		all:      st.Signature().AllLifelines(),
		located:  map[uint64][]*located{},
		loc:      map[uint64]bool{},
		base:     st.Bytes(),
	}
	a.prepare()
	return a
}

// prepare does the one-time work that the first multi-trace would
// otherwise do, so that it counts as setup: the partition of one lifeline
// per component (that of .htf files and logs without co-localizations), the
// first table and chunk of the search's vertices, a first analysis (see
// warmUp), the lifeline removals (see warmRemovals), and last an analysis
// of the partition's empty multi-trace: the work above leaves out of the
// processor's caches what an analysis touches first (the analyzer's
// tables, the store's), and without it the first multi-trace of a run
// took 1.2-1.35 times what it takes after another analysis (lfrem corpus,
// one analyzer per interaction), 1.1 times with it. What the analyses are
// charged for the memory budget counts from there.
func (a *Analyzer) prepare() {
	n := a.st.Signature().NumLifelines()
	mt := &multitrace.MultiTrace{Components: make([]multitrace.Component, n)}
	for l := range mt.Components {
		mt.Components[l].Lifelines = interaction.LifelinesOf(interaction.LifelineID(l))
	}
	p := a.locate(mt)
	a.vs.table = make([]uint64, minTable)
	a.vs.chunks = [][]int32{make([]int32, chunkInts)}
	if a.st.NumActions(a.root) <= warmActions {
		a.warmUp(mt, p)
		a.warmRemovals(p)
		for i := range mt.Components {
			mt.Components[i].Trace = nil
		}
		a.warmAnalyze(mt)
		// The names an explanation gives the interaction's actions, and
		// their parts on one lifeline, made once.
		for _, m := range a.interactionActions() {
			id := a.st.ActID(m)
			a.name(id)
			for _, pt := range a.parts(p, id) {
				a.name(pt.act)
			}
		}
	}
	a.base, a.spent, a.used = a.st.Bytes(), false, false
}

// warmRemovals does the lifeline removals that searches start from, once
// per interaction rather than in the first multi-traces that need each: the
// removal from the root of each set of lifelines (those of a multi-trace's
// empty components, where a search for a multi-prefix or a slice starts;
// in accept mode, the root alone), and with local analyses the projection
// of each result on each lifeline still observed (the local analyses at a
// search's root), over the partition p of one lifeline per component
// (component c is lifeline c), with their frontiers. Only on signatures of
// warmLifelines lifelines at most (2^n sets), and within warmTerms new
// terms. Like warmUp's, the terms it adds do not depend on the limits.
func (a *Analyzer) warmRemovals(p *located) {
	st := a.st
	n := st.Signature().NumLifelines()
	if n > warmLifelines {
		return
	}
	sets := 1 << n
	if a.opts.Mode == verdict.Accept {
		sets = 1 // the empty set: an exact search starts from the root
	}
	limit := st.Len() + warmTerms
	for set := range sets {
		var ls interaction.Lifelines
		for l := range n {
			if set&(1<<l) != 0 {
				ls = ls.Add(interaction.LifelineID(l))
			}
		}
		t := st.RemoveObserved(a.root, ls, false)
		st.NumFrontier(t)
		for c := range n {
			if st.Len() > limit {
				return
			}
			if a.opts.LOC && set&(1<<c) == 0 {
				st.NumFrontier(a.proj(p, c, t))
			}
		}
	}
}

// warmUp judges one multi-trace of the interaction, over the partition p of
// one lifeline per component (mt, empty): the events of the run that
// executes the first frontier element, warmSteps times at most. Its
// analysis fills what the first analyses fill lazily — the frontiers of the
// terms near the root, the projections of the root, the split of its
// actions, the memo tables and the scratch space — so that the first
// multi-trace of a run costs what the others do. An analyzer's results do
// not depend on what it judged before, so this one changes none. Large
// interactions are not warmed up: the frontiers of their terms alone may
// take long (the limits of a search stop those of the multi-traces).
func (a *Analyzer) warmUp(mt *multitrace.MultiTrace, p *located) {
	st := a.st
	t := a.root
	for range warmSteps {
		if st.NumFrontier(t) == 0 || st.NumActions(t) > warmActions {
			break // loops that unfold may grow the term
		}
		for _, pt := range a.parts(p, st.FrontierAct(t, 0)) {
			mt.Components[pt.c].Trace = append(mt.Components[pt.c].Trace, st.MultiAction(pt.act))
		}
		t = st.Step(t, 0)
	}
	a.warmAnalyze(mt)
}

// warmAnalyze analyzes mt for the warm-up, whose verdicts are not
// remembered. Within a small node budget and no memory budget: the
// multi-trace may be hard (the options may switch the pruning off), a
// warm-up claims nothing, and an analysis past half a memory budget would
// renew the analyzer, whose preparation warms up again. The same budgets
// whatever Options.MaxNodes and MaxMemory: the terms the warm-up adds to
// the store, and so their numbers, must not depend on them, as the order
// of the operands of alt and par follows their numbers (see interaction's
// canonical forms), and with it the order in which the searches go
// through a frontier. (Under its budget, the analysis of a multi-trace
// under a budget of exactly the vertices it reported without one explored
// in another order, and might not decide.) Its verdict is not remembered:
// it may cost more than Options.MaxNodes, under which the same multi-trace
// is Inconc.
func (a *Analyzer) warmAnalyze(mt *multitrace.MultiTrace) {
	max, mem := a.opts.MaxNodes, a.opts.MaxMemory
	a.opts.MaxNodes, a.opts.MaxMemory = warmNodes, 0
	defer func() {
		a.opts.MaxNodes, a.opts.MaxMemory = max, mem
		a.results.Clear()
	}()
	a.analyze(mt, false)
}

// The interactions warmUp warms up (of warmActions actions at most), the
// events of its multi-trace, and the vertices its analysis may explore.
const (
	warmActions = 256
	warmSteps   = 16
	warmNodes   = 1 << 10
	// warmRemovals: the signatures it warms up (2^n sets of lifelines),
	// and the terms it may add.
	warmLifelines = 6
	warmTerms     = 1 << 12
)

// renew gives the analyzer a fresh store with a copy of its interaction,
// and drops its scratch space: the memos an analysis leaves behind speed up
// the next ones, but not once they take half the memory budget, or after an
// analysis stopped at the budget.
func (a *Analyzer) renew() {
	a.st, a.root = a.st.Fresh(a.root)
	a.located, a.single, a.por, a.names = map[uint64][]*located{}, interaction.ActionTable[interaction.ActID]{}, nil, nil
	a.results, a.kept, a.last, a.recent = memo.Verdicts{}, 0, nil, nil
	a.loc = map[uint64]bool{}
	a.vs, a.work, a.succ, a.via, a.pb = vertices{}, nil, nil, nil, problem{}
	a.base, a.spent, a.used = a.st.Bytes(), false, false
	a.prepare()
}

// Options returns the analyzer's options.
func (a *Analyzer) Options() Options { return a.opts }

var locationsSeed = maphash.MakeSeed()

// located is the locations of a multi-trace (the lifelines of its
// components), with the component-wise split of each multi-action (computed
// once per set of locations).
type located struct {
	id         int32                   // its index among the analyzer's sets of locations
	comp       []int32                 // component of each lifeline
	lifelines  interaction.Locations   // lifelines of each component
	complement []interaction.Lifelines // all lifelines but those of the component, "" until needed
	split      [][]part                // parts of each multi-action (by ActID), nil until computed
	several    []int32                 // the components of several lifelines
	names      []string                // the text of each component's lifelines, nil until an explanation needs it
	observed   [][]uint64              // per component, the ActIDs of the parts of the interaction's actions there, nil until needed (see foreignEvent)

	// Memos kept from one multi-trace to the next (see compMemo), and
	// their entries, counted as they are added.
	memo    []compMemo
	steps   steps // the steps of the searches' straight paths (see straight)
	entries int
}

// compMemo holds, for one component of a partition, what the local
// analyses ask of the store again and again, by integer keys: the
// projection of a term on the component (Remove of the other lifelines),
// whether an action of the component can start the projection
// (FirstInProjection), and the fewest events the term needs of the
// component (MinEvents). The store memoizes these too, but by a lifeline
// set it must hash first, and only for large terms.
type compMemo struct {
	proj  map[interaction.Term]interaction.Term
	first map[uint64]bool // by term<<32 | ActID
	min   map[interaction.Term]int32
}

// proj returns the term t projected on component c.
func (a *Analyzer) proj(p *located, c int, t interaction.Term) interaction.Term {
	m := &p.memo[c]
	if r, ok := m.proj[t]; ok {
		return r
	}
	r := a.st.Remove(t, a.complementOf(p, c))
	if m.proj == nil {
		m.proj = map[interaction.Term]interaction.Term{}
	}
	m.proj[t] = r
	p.entries++
	return r
}

// firstIn reports whether act, an action of component c, can start the
// projection of t on c (interaction.Store.FirstInProjection).
func (a *Analyzer) firstIn(p *located, c int, t interaction.Term, act interaction.ActID) bool {
	m := &p.memo[c]
	key := uint64(t)<<32 | uint64(act)
	if r, ok := m.first[key]; ok {
		return r
	}
	r := a.st.FirstInProjection(t, p.lifelines[c], act)
	if m.first == nil {
		m.first = map[uint64]bool{}
	}
	m.first[key] = r
	p.entries++
	return r
}

// minEvents returns the fewest events of component c in a trace of t
// (interaction.Store.MinEvents).
func (a *Analyzer) minEvents(p *located, c int, t interaction.Term) int {
	m := &p.memo[c]
	if r, ok := m.min[t]; ok {
		return int(r)
	}
	r := a.st.MinEvents(t, p.lifelines[c])
	if m.min == nil {
		m.min = map[interaction.Term]int32{}
	}
	m.min[t] = int32(min(r, 1<<30))
	p.entries++
	return r
}

// The memos kept from one multi-trace to the next are dropped when they
// grow past maxKept entries (they are caches). They are not counted in the
// memory budget of an analysis: what they hold depends on the multi-traces
// judged before, and a verdict must not (ivc analyze gives the same output
// for any number of workers, which each judge different sessions). Their
// bound, maxKept entries of keptBytes bytes (2.5 MiB; a step of straight,
// keyed by up to maxStraightComponents+2 ints, may take twice that), is a
// fixed cost of the analyzer beside the budget. The local analyses of one
// analysis, which are counted, take keptBytes an entry too.
const (
	maxKept   = 1 << 16
	keptBytes = 40
)

// keep drops the kept memos when they have grown too large. It counts
// what the last analysis added to its partition's memos (a.last).
func (a *Analyzer) keep() {
	if a.last != nil {
		a.kept += a.last.entries - a.lastEntries
		a.last = nil
	}
	if a.kept+a.results.Size() <= maxKept {
		return
	}
	a.results.Clear()
	for _, ps := range a.located {
		for _, p := range ps {
			clear(p.memo)
			p.steps.clear()
			p.entries = 0
		}
	}
	a.kept = 0
}

// part is the piece of a multi-action that lies on one component.
type part struct {
	c   int32
	act interaction.ActID
}

func (a *Analyzer) locate(mt *multitrace.MultiTrace) *located {
	same := func(ls interaction.Lifelines, c multitrace.Component) bool { return ls == c.Lifelines }
	if p := a.recent; p != nil && slices.EqualFunc(p.lifelines, mt.Components, same) {
		return p // the sessions of a log mostly share theirs
	}
	// Partitions are found by a hash of their lifeline sets (a key made of
	// the sets themselves would take, with many lifelines, their square).
	var h maphash.Hash
	h.SetSeed(locationsSeed)
	for _, c := range mt.Components {
		n := len(c.Lifelines)
		h.Write([]byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)})
		h.WriteString(string(c.Lifelines))
	}
	key := h.Sum64()
	for _, p := range a.located[key] {
		if slices.EqualFunc(p.lifelines, mt.Components, same) {
			a.recent = p
			return p
		}
	}
	n := a.st.Signature().NumLifelines()
	a.npart++
	p := &located{id: a.npart, comp: make([]int32, n)}
	for i := range p.comp {
		p.comp[i] = -1
	}
	for ci, c := range mt.Components {
		for l := range c.Lifelines.All() {
			p.comp[l] = int32(ci)
		}
		p.lifelines = append(p.lifelines, c.Lifelines)
		if c.Lifelines.Len() > 1 {
			p.several = append(p.several, int32(ci))
		}
		p.complement = append(p.complement, "")
	}
	p.memo = make([]compMemo, len(mt.Components))
	a.located[key] = append(a.located[key], p)
	a.recent = p
	return p
}

// complementOf returns all lifelines but those of component c (computed
// when first needed: with many lifelines, each takes room).
func (a *Analyzer) complementOf(p *located, c int) interaction.Lifelines {
	if p.complement[c] == "" {
		p.complement[c] = a.all.Minus(p.lifelines[c])
	}
	return p.complement[c]
}

// parts returns the component-wise split of the multi-action id: the
// observed part of it on each component it touches. Ghost actions are never
// observed: a silent multi-action has no part, and executing it consumes
// nothing.
func (a *Analyzer) parts(p *located, id interaction.ActID) []part {
	if int(id) < len(p.split) && p.split[id] != nil {
		return p.split[id]
	}
	m := a.st.MultiAction(id)
	ps := []part{} // non-nil: computed
	if len(m) == 1 && !m[0].IsGhost() {
		ps = []part{{c: p.comp[m[0].Lifeline()], act: id}}
	} else {
		byComp := map[int32][]interaction.Action{}
		var order []int32
		for _, x := range m {
			if x.IsGhost() {
				continue
			}
			c := p.comp[x.Lifeline()]
			if _, seen := byComp[c]; !seen {
				order = append(order, c)
			}
			byComp[c] = append(byComp[c], x)
		}
		for _, c := range order {
			ps = append(ps, part{c: c, act: a.st.ActID(interaction.NewMultiAction(byComp[c]...))})
		}
	}
	for int(id) >= len(p.split) {
		p.split = append(p.split, nil)
	}
	p.split[id] = ps
	return ps
}

// problem is one multi-trace being analyzed.
type problem struct {
	a       *Analyzer
	p       *located
	traces  [][]interaction.ActID
	events  []interaction.ActID // the traces' backing array
	exact   bool
	kind    searchKind
	sim     Simulation
	refused bool  // a slice search refused a simulation for lack of budget
	goal    int32 // the vertex where the search succeeded
	witness bool  // record how each vertex was reached, for Witness

	nodes      int
	localNodes int
	maxNodes   int   // the node budget: Options.MaxNodes, less to explain
	ticks      int   // checks of the limits, to look at the clock every 64
	extra      int64 // bytes of the scratch data of local checks, for the memory budget
	deadline   time.Time
	stopped    string         // why the search stopped early, if it did
	stopReason verdict.Reason // NodeLimit or Timeout, when stopped

	at         []int32             // the index of each component's first position among all (see locKey)
	key        []int32             // the multi-trace, for the analyzer's verdict memo (see memo.Verdicts)
	word       []interaction.ActID // scratch of replay
	locStack   []locFrame
	completing map[interaction.Term]int // scratch of completable
	ready      []int32                  // scratch of localOK
	scratch    []int32                  // scratch of order: positions
	sizes      []int                    // scratch of order: sizes

	graph *graphRec // the explored graph, for Explore

	// The furthest vertices reached, for explanations (best is -1 before
	// the first).
	best      int
	bestPos   []int32
	bestTerms []interaction.Term // their terms
	expect    actSet             // the actions they could execute (see explain)
	// locFail is a component whose trace is impossible on its own, or -1:
	// a local analysis of the root vertex, of term locTerm, failed (or, in
	// a slice, the local check of locSlice; foreignAt is then the index of
	// an event of no action of the interaction, or -1).
	locFail   int
	locTerm   interaction.Term
	locSlice  bool
	foreignAt int
	atRoot    bool // the search is at its root vertex
	// explaining: the search only looks for the furthest vertices, and does
	// not prune those with fewer events left than the term needs.
	explaining bool
	// optimistic: the exact search is an optimistic attempt (see
	// accepted), which gives up past optimisticEnd local vertices (then
	// gaveUp).
	optimistic    bool
	gaveUp        bool
	optimisticEnd int
}

// locKey is the key of a local analysis in the analyzer's memo: of the
// projected term t, on component c from position q, complete or a prefix
// (exact). Positions are numbered across the components (pb.at), so that
// the key is one integer: the memo is the analysis's, whose traces are
// fixed.
func (pb *problem) locKey(t interaction.Term, c, q int32) uint64 {
	k := uint64(uint32(t))<<32 | uint64(uint32(pb.at[c]+q))<<1
	if pb.exact {
		k |= 1
	}
	return k
}

// Check decides the verdict of mt, a multi-trace over the analyzer's
// signature whose components partition its lifelines.
func (a *Analyzer) Check(mt *multitrace.MultiTrace) verdict.Result {
	res, _ := a.analyze(mt, false)
	return res
}

// newProblem prepares the analysis of mt: its traces in the store's
// actions, its limits (the time budget counts from now), and the store's
// growth hook, which the caller removes (a.st.OnGrowth(nil)) when done.
func (a *Analyzer) newProblem(mt *multitrace.MultiTrace) *problem {
	var deadline time.Time
	if a.opts.Timeout > 0 {
		deadline = time.Now().Add(a.opts.Timeout)
	}
	if max := a.opts.MaxMemory; a.spent || max > 0 && a.st.Bytes()-a.base > max/2 {
		a.renew()
	}
	a.keep()
	// The problem and its scratch space (traces, stacks) are the
	// analyzer's, reused from one multi-trace to the next: a small
	// multi-trace allocates nothing.
	pb := &a.pb
	*pb = problem{a: a, p: a.locate(mt), locFail: -1, foreignAt: -1, deadline: deadline,
		maxNodes: a.opts.MaxNodes, sim: a.opts.Simulation, best: -1,
		locStack: pb.locStack[:0], completing: pb.completing, ready: pb.ready[:0],
		scratch: pb.scratch[:0], sizes: pb.sizes[:0], bestPos: pb.bestPos[:0], bestTerms: pb.bestTerms[:0],
		expect: pb.expect, events: pb.events[:0], traces: pb.traces[:0], at: pb.at[:0], key: pb.key[:0], word: pb.word[:0]}
	// Local analyses are remembered within one analysis only: a vertex of
	// a local analysis counts in the node budget and in LocalNodes, and a
	// vertex remembered from an earlier multi-trace would cost nothing,
	// which would make the verdict near the budget, and LocalNodes, depend
	// on what the analyzer judged before.
	if len(a.loc) > 1<<12 {
		a.loc = map[uint64]bool{} // clear costs the buckets of its largest size
	} else {
		clear(a.loc)
	}
	a.last, a.lastEntries = pb.p, pb.p.entries
	if a.grows == nil {
		a.grows = pb.grows // a method value allocates: once
	}
	a.st.OnGrowth(a.grows)
	n := 0
	for _, c := range mt.Components {
		n += len(c.Trace)
	}
	pb.events = slices.Grow(pb.events, n)
	pb.key = append(slices.Grow(pb.key, 1+len(mt.Components)+n), pb.p.id)
	for ci, c := range mt.Components {
		start := len(pb.events)
		for _, e := range c.Trace {
			pb.events = append(pb.events, a.eventID(e))
		}
		tr := pb.events[start:len(pb.events):len(pb.events)]
		pb.traces = append(pb.traces, tr)
		pb.at = append(pb.at, int32(start+ci))
		pb.key = append(pb.key, int32(len(tr)))
		for _, e := range tr {
			pb.key = append(pb.key, int32(e))
		}
	}
	return pb
}

// eventID returns the ActID of the event e of a multi-trace.
func (a *Analyzer) eventID(e interaction.MultiAction) interaction.ActID {
	if len(e) != 1 || e[0].IsGhost() {
		return a.st.ActID(e)
	}
	if id, ok := a.single.Get(e[0]); ok {
		return id
	}
	id := a.st.ActID(e)
	a.single.Set(e[0], id)
	return id
}

// Explore is Check that also records the part of the analysis graph the
// search explored, for review (slow).
func (a *Analyzer) Explore(mt *multitrace.MultiTrace) (verdict.Result, *Graph) {
	return a.analyze(mt, true)
}

// analyze decides mt's verdict. The memory an analysis is charged for
// depends on what the analyzer holds from earlier ones: the terms and memos
// of its store, the capacity of its scratch space (the memos it keeps
// beside them are not charged, see maxKept). An analysis by a used
// analyzer is charged at least what it would be by a fresh one, step by
// step: so it is decided only when a fresh analyzer would decide it, and
// when it stops at the memory budget it runs again on a fresh store, to
// stop where a fresh analyzer would. As far as the memory budget goes, the
// verdict and the result depend on the multi-trace and the options alone,
// not on which multi-traces the analyzer judged before. The vertices an
// analysis counts (Result.Nodes, LocalNodes) may: the order in which its
// searches go through a frontier follows the numbers of the store's terms
// (see warmUp), which the analyses before made. (Lifeline-removal corpus,
// prefix mode, one analyzer per interaction judging its multi-traces in
// order: 108 of the 10,000 count otherwise than a fresh analyzer does.)
// So near a node budget, a verdict may depend on them too.
func (a *Analyzer) analyze(mt *multitrace.MultiTrace, record bool) (verdict.Result, *Graph) {
	warm := a.used
	res, g := a.analyzeOnce(mt, record)
	if warm && a.spent {
		a.renew()
		res, g = a.analyzeOnce(mt, record)
	}
	return res, g
}

func (a *Analyzer) analyzeOnce(mt *multitrace.MultiTrace, record bool) (verdict.Result, *Graph) {
	pb := a.newProblem(mt)
	a.used = true
	defer a.st.OnGrowth(nil)
	if record {
		pb.graph = &graphRec{pb: pb}
	}
	h := memo.Hash(pb.key)
	if r := a.results.Find(h, pb.key); r != nil && !record {
		return r.Clone(), nil
	}
	res := verdict.Result{Mode: a.opts.Mode}
	switch a.opts.Mode {
	case verdict.Accept:
		res.Verdict = pb.searchFirst(exactSearch)
		if res.Verdict == verdict.Fail && pb.locFail < 0 {
			pb.explainExact()
		}
	default:
		exact := pb.accepted()
		if exact == verdict.Pass {
			res.Verdict = verdict.Pass
			break
		}
		pb.resetExplanation()
		kind := prefixSearch
		res.Verdict = pb.searchFirst(prefixSearch)
		if a.opts.Mode == verdict.Slice && res.Verdict == verdict.Fail {
			// Not a multi-prefix (which needs no simulation): a slice? What
			// the multi-prefix search blamed on a component may not hold for
			// a slice.
			pb.resetExplanation()
			if !pb.noSlice() {
				kind = sliceSearch
				res.Verdict = pb.search(sliceSearch)
			}
		}
		if res.Verdict == verdict.Pass && kind == sliceSearch {
			res.Simulated = pb.simulated()
		}
		if res.Verdict == verdict.Inconc && kind == sliceSearch && pb.stopped == "" {
			res.Reason, res.Detail = verdict.Budget, "no explanation within the simulation budget"
		}
		if res.Verdict == verdict.Pass && kind == prefixSearch && exact == verdict.Fail {
			res.Verdict = verdict.WeakPass // not exactly accepted: accepted said so
			break
		}
		// Without an attempt (local analyses off), the replay may spare
		// the exact search; after an attempt that gave up, it mostly fails
		// too (lfrem corpus: 6% more vertices in all, p99 +25%).
		if res.Verdict == verdict.Pass && kind == prefixSearch && !pb.gaveUp && pb.replay() {
			break // exactly accepted: the interleaving found is a complete trace
		}
		if res.Verdict == verdict.Pass {
			// A multi-prefix or a slice: is it also exactly accepted?
			pb.resetExplanation()
			switch pb.searchFirst(exactSearch) {
			case verdict.Pass:
				res.Simulated = nil
			case verdict.Fail:
				res.Verdict = verdict.WeakPass
			case verdict.Inconc:
				res.Verdict = verdict.WeakPass
				res.Reason = pb.stopReason
				res.Detail = "a multi-prefix; whether it is exactly accepted is undecided: " + pb.stopped
				pb.stopped = ""
			}
		}
	}
	res.Nodes, res.LocalNodes = pb.nodes, pb.localNodes
	if pb.stopped != "" {
		res.Verdict = verdict.Inconc
		res.Reason, res.Detail = pb.stopReason, pb.stopped
	}
	if res.Verdict == verdict.Fail {
		pb.guard(func() { res.Explanation = pb.explain() })
	}
	a.spent = pb.stopReason == verdict.Memory
	if res.Verdict != verdict.Inconc {
		a.results.Add(h, pb.key, res.Clone())
	}
	if pb.graph == nil {
		return res, nil
	}
	return res, &pb.graph.g
}

// search runs one search (see decide), which a limit may abandon.
func (pb *problem) search(kind searchKind) verdict.Verdict {
	v := verdict.Inconc
	pb.guard(func() { v = pb.decide(kind) })
	return v
}

func (pb *problem) resetExplanation() {
	pb.best, pb.bestPos, pb.bestTerms, pb.locFail, pb.foreignAt = -1, pb.bestPos[:0], pb.bestTerms[:0], -1, -1
}

// noSlice reports whether some component's trace alone shows that the
// multi-trace is no slice (see notSlice and foreignEvent), and blames it.
func (pb *problem) noSlice() bool {
	c := -1
	if pb.a.opts.LOC {
		pb.guard(func() { c = pb.notSlice() })
	}
	if c < 0 && pb.stopped == "" {
		c, pb.foreignAt = pb.foreignEvent()
		pb.locFail, pb.locTerm, pb.locSlice = c, pb.a.root, true
	}
	return c >= 0 || pb.stopped != ""
}

// hasSync reports whether t contains a sync operator.
func hasSync(st *interaction.Store, t interaction.Term) bool {
	switch op := st.Op(t); {
	case op == interaction.OpSync:
		return true
	case op == interaction.OpEmpty || op == interaction.OpAct:
		return false
	case op.IsLoop():
		return hasSync(st, st.Left(t))
	default:
		return hasSync(st, st.Left(t)) || hasSync(st, st.Right(t))
	}
}

// foreignEvent returns a component and the index of one of its events
// that is no part of any action of the interaction on the component (or
// -1, -1): then no explanation of any kind exists, and a slice search, which
// may end Inconc for lack of budget, is pointless.
func (pb *problem) foreignEvent() (int, int) {
	a := pb.a
	if a.hasSync {
		return -1, -1 // a sync joins actions into events that are no leaf
	}
	obs := a.observed(pb.p)
	for c, tr := range pb.traces {
		for i, e := range tr {
			if int(e)>>6 >= len(obs[c]) || obs[c][e>>6]&(1<<(e&63)) == 0 {
				return c, i
			}
		}
	}
	return -1, -1
}

// observed returns, for each component of p, the set of the ActIDs of the
// parts there of the interaction's actions, made once per partition: an
// event of another ActID is foreign (an ActID interned later is no part).
func (a *Analyzer) observed(p *located) [][]uint64 {
	if p.observed != nil {
		return p.observed
	}
	p.observed = make([][]uint64, len(p.lifelines))
	for _, m := range a.interactionActions() {
		for _, pt := range a.parts(p, a.st.ActID(m)) {
			set := p.observed[pt.c]
			for int(pt.act)>>6 >= len(set) {
				set = append(set, 0)
			}
			set[pt.act>>6] |= 1 << (pt.act & 63)
			p.observed[pt.c] = set
		}
	}
	return p.observed
}

// interactionActions returns every action of the interaction (its leaves),
// each once, in the order of a walk of the term (made once).
func (a *Analyzer) interactionActions() []interaction.MultiAction {
	if a.letters == nil {
		seen := map[interaction.ActID]bool{}
		var walk func(t interaction.Term)
		walk = func(t interaction.Term) {
			switch op := a.st.Op(t); {
			case op == interaction.OpAct:
				if id := a.st.ActID(a.st.Action(t)); !seen[id] {
					seen[id] = true
					a.letters = append(a.letters, a.st.Action(t))
				}
			case op.IsLoop():
				walk(a.st.Left(t))
			case op.IsBinary():
				walk(a.st.Left(t))
				walk(a.st.Right(t))
			}
		}
		walk(a.root)
	}
	return a.letters
}
