package interaction

// Metrics measure an interaction term as written: n-ary operators count as
// the right-nested binary operators they stand for and message arrows as the
// actions they desugar into (as HIBOU's get_metrics INT counts them), with
// no ∅-simplification.
type Metrics struct {
	// Lifelines, Messages and Gates are declared by the signature;
	// UsedLifelines is the number of lifelines the interaction has actions on
	// (HIBOU's "number of lifelines").
	Lifelines     int `json:"lifelines"`
	UsedLifelines int `json:"used_lifelines"`
	Messages      int `json:"messages"`
	Gates         int `json:"gates"`

	// Actions counts the action leaves of the term (a <synch> multi-action
	// is one leaf); AtomicActions counts the actions l!m and l?m inside them.
	Actions       int64 `json:"actions"`
	AtomicActions int64 `json:"atomic_actions"`
	// Symbols counts every node of the term: leaves and operators.
	Symbols int64 `json:"symbols"`
	// Operators counts the nodes of each operator, by its .hif name.
	Operators OperatorCounts `json:"operators"`

	// Depth is the height of the term (0 for a single leaf); LoopDepth the
	// largest number of loops nested along a path.
	Depth     int `json:"depth"`
	LoopDepth int `json:"loop_depth"`
}

// OperatorCounts counts the nodes of a term per operator.
type OperatorCounts struct {
	Empty  int64 `json:"empty"`
	Strict int64 `json:"strict"`
	Seq    int64 `json:"seq"`
	Par    int64 `json:"par"`
	Alt    int64 `json:"alt"`
	Coreg  int64 `json:"coreg"`
	Sync   int64 `json:"sync"`
	LoopS  int64 `json:"loopS"`
	LoopH  int64 `json:"loopH"`
	LoopW  int64 `json:"loopW"`
	LoopP  int64 `json:"loopP"`
}

// Named returns the counts with their .hif names, in a fixed order.
func (c *OperatorCounts) Named() []NamedCount {
	return []NamedCount{
		{"strict", c.Strict}, {"seq", c.Seq}, {"par", c.Par}, {"alt", c.Alt},
		{"coreg", c.Coreg}, {"sync", c.Sync},
		{"loopS", c.LoopS}, {"loopH", c.LoopH}, {"loopW", c.LoopW}, {"loopP", c.LoopP},
		{"empty", c.Empty},
	}
}

// NamedCount is one operator count.
type NamedCount struct {
	Name  string
	Count int64
}

// Measure returns the metrics of t, a term of st.
func Measure(st *Store, t Term) Metrics {
	sig := st.Signature()
	m := Metrics{
		Lifelines:     len(sig.Lifelines),
		UsedLifelines: st.Occurring(t).Len(),
		Messages:      len(sig.Messages),
		Gates:         len(sig.Gates),
	}
	mm := measurer{st: st, memo: map[Term]*tally{}}
	tl := mm.measure(t)
	m.Actions, m.AtomicActions, m.Symbols = tl.actions, tl.atomic, tl.symbols
	m.Operators = tl.counts()
	m.Depth, m.LoopDepth = tl.depth, tl.loopDepth
	return m
}

// tally is the metrics of one subterm. Terms are hash-consed, so a subterm
// written several times is one Term: tallies are memoized per Term and added
// once per occurrence, which keeps the walk linear in the number of distinct
// subterms while counting the tree as written.
type tally struct {
	actions, atomic, symbols int64
	ops                      [OpLoopP + 1]int64 // indexed by Op
	depth, loopDepth         int
}

func (tl *tally) counts() OperatorCounts {
	o := &tl.ops
	return OperatorCounts{
		Empty: o[OpEmpty], Strict: o[OpStrict], Seq: o[OpSeq],
		Par: o[OpPar], Alt: o[OpAlt], Coreg: o[OpCoreg],
		Sync: o[OpSync], LoopS: o[OpLoopS], LoopH: o[OpLoopH],
		LoopW: o[OpLoopW], LoopP: o[OpLoopP],
	}
}

type measurer struct {
	st   *Store
	memo map[Term]*tally
}

func (m *measurer) measure(t Term) *tally {
	if tl, ok := m.memo[t]; ok {
		return tl
	}
	st := m.st
	op := st.Op(t)
	tl := &tally{symbols: 1}
	switch {
	case op == OpAct:
		tl.actions = 1
		tl.atomic = int64(len(st.Action(t)))
	case op.IsLoop():
		body := m.measure(st.Left(t))
		tl.add(body)
		tl.depth = body.depth + 1
		tl.loopDepth = body.loopDepth + 1
	case op.IsBinary():
		l, r := m.measure(st.Left(t)), m.measure(st.Right(t))
		tl.add(l)
		tl.add(r)
		tl.depth = 1 + max(l.depth, r.depth)
		tl.loopDepth = max(l.loopDepth, r.loopDepth)
	}
	if op != OpAct {
		tl.ops[op] = sat(tl.ops[op], 1)
	}
	m.memo[t] = tl
	return tl
}

func (tl *tally) add(o *tally) {
	tl.actions = sat(tl.actions, o.actions)
	tl.atomic = sat(tl.atomic, o.atomic)
	tl.symbols = sat(tl.symbols, o.symbols)
	for i := range tl.ops {
		tl.ops[i] = sat(tl.ops[i], o.ops[i])
	}
}

// sat adds two non-negative counts, saturating at the largest int64: a term
// of a few thousand distinct nodes with shared subterms may stand for a tree
// of astronomically many.
func sat(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return 1<<63 - 1
}
