package hcf

// Readers of the option values, one per option of declOrder.

import "github.com/ivc-project/ivc/internal/scan"

func (p *parser) strategy(o *Options, k Kind) error {
	const want = "a strategy (BFS, DFS or HCS)"
	t := p.s.Next()
	if t.Kind != scan.Ident {
		return p.s.Unexpected(t, want)
	}
	var err error
	switch t.Text {
	case "BFS", "BreadthFS":
		o.Strategy = BFS
	case "DFS", "DepthFS":
		o.Strategy = DFS
	case "HCS", "HighCoverageS":
		o.Strategy = HCS
	case "Breadth":
		o.Strategy, err = BFS, p.words("Breadth", "First", "Search")
	case "Depth":
		o.Strategy, err = DFS, p.words("Depth", "First", "Search")
	case "High":
		o.Strategy, err = HCS, p.words("High", "Coverage", "Search")
	case "GreedyBestFS":
		if k == Canonize {
			return p.s.Errorf(t.Pos, "strategy GreedyBestFS (HIBOU ≤ 0.7) does not apply to @canonize_option (expected BFS, DFS or HCS)")
		}
		o.Strategy = GreedyBestFS
		o.GreedyPriorities = Priorities{}
		o.GreedyPriorities.Level[Step] = 1
		if p.s.Peek().Is("[") {
			err = p.priorityList(&o.GreedyPriorities, analyzePriorities, false, "GreedyBestFS[...]")
		}
	default:
		return p.s.Unexpected(t, want)
	}
	o.Set |= KeyStrategy
	return err
}

func (p *parser) goal(o *Options, _ Kind) error {
	t := p.s.Next()
	switch {
	case t.IsIdent("Pass"):
		o.Goal = GoalPass
	case t.IsIdent("WeakPass"):
		o.Goal = GoalWeakPass
	case isNone(t):
		o.Goal = GoalNone
	default:
		return p.s.Unexpected(t, "a goal (Pass, WeakPass or None)")
	}
	o.Set |= KeyGoal
	return nil
}

func (p *parser) analysisKind(o *Options, _ Kind) error {
	t := p.s.Next()
	switch {
	case t.IsIdent("accept"):
		o.Analysis = Analysis{Kind: Accept}
	case t.IsIdent("prefix"):
		o.Analysis = Analysis{Kind: Prefix}
	case t.IsIdent("eliminate"), t.IsIdent("hide"): // hide: HIBOU ≤ 0.8.2
		o.Analysis = Analysis{Kind: Eliminate}
	case t.IsIdent("simulate"):
		o.Analysis = Analysis{Kind: Simulate, Simulate: HibouSimulation{
			Loop: HibouBudget{Kind: BudgetMaxDepth},
			Act:  HibouBudget{Kind: BudgetNone},
		}}
		if p.s.Peek().Is("[") {
			if err := p.simulation(&o.Analysis.Simulate); err != nil {
				return err
			}
		}
	default:
		return p.s.Unexpected(t, "an analysis kind (accept, prefix, eliminate or simulate[...])")
	}
	o.Set |= KeyAnalysisKind
	return nil
}

func (p *parser) simulation(sim *HibouSimulation) error {
	given := once{}
	return p.list("simulate[...]", func() error {
		t := p.s.Next()
		if t.Kind != scan.Ident {
			return p.s.Unexpected(t, "a simulate parameter (slice, reset, multiply, loop or act)")
		}
		var err error
		switch t.Text {
		case "slice", "before", "preamble": // alone (HIBOU 0.8.0-0.8.2): slice = true
			err = given.add(p, "slice", t)
			sim.Slice = true
			if err == nil && p.s.Peek().Is("=") {
				p.s.Next()
				sim.Slice, err = p.boolean(t.Text)
			}
		case "multi": // simulate[multi-prefix], simulate[multi-slice] in HIBOU ≤ 0.7
			if err = given.add(p, "slice", t); err != nil {
				return err
			}
			if _, err = p.s.Expect("-", "in multi-prefix or multi-slice"); err != nil {
				return err
			}
			switch u := p.s.Next(); {
			case u.IsIdent("prefix"):
				sim.Slice = false
			case u.IsIdent("slice"):
				sim.Slice = true
			default:
				err = p.s.Unexpected(u, "prefix or slice after multi-")
			}
		case "multiply", "resized", "dependent":
			err = p.boolParam(given, "multiply", t, &sim.Multiply)
		case "reset", "reinitialize":
			err = p.boolParam(given, "reset", t, &sim.Reset)
		case "loop":
			if err = given.add(p, "loop", t); err == nil {
				sim.Loop, err = p.budget(true)
			}
		case "act":
			if err = given.add(p, "act", t); err == nil {
				sim.Act, err = p.budget(false)
			}
		default:
			return p.s.Unexpected(t, "a simulate parameter (slice, reset, multiply, loop or act)")
		}
		return err
	})
}

// boolParam reads "= B" after a list parameter such as reset.
func (p *parser) boolParam(given once, param string, t scan.Token, dst *bool) error {
	if err := given.add(p, param, t); err != nil {
		return err
	}
	if _, err := p.s.Expect("=", "after "+t.Text); err != nil {
		return err
	}
	b, err := p.boolean(t.Text)
	*dst = b
	return err
}

func (p *parser) budget(loop bool) (HibouBudget, error) {
	want := "num=N, max_num or none after act"
	if loop {
		want = "num=N, max_num, max_depth or none after loop"
	}
	t := p.s.Next()
	text := t.Text
	if t.IsIdent("max") { // "max num", "max depth"
		if u := p.s.Next(); u.IsIdent("num") || u.IsIdent("depth") {
			text = "max_" + u.Text
		} else {
			return HibouBudget{}, p.s.Unexpected(u, "num or depth after max")
		}
	}
	switch {
	case t.Kind != scan.Ident:
	case isNone(t):
		return HibouBudget{Kind: BudgetNone}, nil
	case text == "num":
		if _, err := p.s.Expect("=", "after num"); err != nil {
			return HibouBudget{}, err
		}
		n, err := p.count("num")
		return HibouBudget{Kind: BudgetNum, N: n}, err
	case text == "max_num", text == "maxnum":
		return HibouBudget{Kind: BudgetMaxNum}, nil
	case loop && (text == "max_depth" || text == "maxdepth"):
		return HibouBudget{Kind: BudgetMaxDepth}, nil
	}
	return HibouBudget{}, p.s.Unexpected(t, want)
}

func (p *parser) localAnalysis(o *Options, _ Kind) error {
	t := p.s.Peek()
	switch {
	case isNone(t):
		p.s.Next()
		o.LocalAnalysis = LocalAnalysis{}
	case t.Is("["):
		la := DefaultLocalAnalysis
		if err := p.localParams(&la); err != nil {
			return err
		}
		o.LocalAnalysis = la
	case isBool(t): // HIBOU 0.8.0-0.8.5 local_analysis, ≤ 0.7 use_locfront
		on, _ := p.boolean("")
		o.LocalAnalysis = LocalAnalysis{}
		if on {
			o.LocalAnalysis = DefaultLocalAnalysis
		}
	default:
		return p.s.Unexpected(p.s.Next(), "none or [select=..., max_look_ahead_depth=..., modulo=...] for local_analysis")
	}
	o.Set |= KeyLocalAnalysis
	return nil
}

func (p *parser) localParams(la *LocalAnalysis) error {
	const want = "a local analysis parameter (select, max_look_ahead_depth or modulo)"
	given := once{}
	return p.list("local_analysis = [...]", func() error {
		t := p.s.Next()
		if t.Kind != scan.Ident {
			return p.s.Unexpected(t, want)
		}
		param := t.Text
		switch t.Text {
		case "select":
		case "max_look_ahead_depth", "max_depth", "lookahead", "lookup":
			param = "max_look_ahead_depth"
		case "max": // "max depth"
			if err := p.words("max", "depth"); err != nil {
				return err
			}
			param = "max_look_ahead_depth"
		case "modulo", "modulo_each_X_steps":
			param = "modulo"
		default:
			return p.s.Unexpected(t, want)
		}
		if err := given.add(p, param, t); err != nil {
			return err
		}
		if _, err := p.s.Expect("=", "after "+t.Text); err != nil {
			return err
		}
		v := p.s.Peek()
		switch {
		case param == "modulo":
			n, err := p.count(t.Text)
			la.Modulo = n
			return err
		case param == "max_look_ahead_depth" && isNone(v):
			p.s.Next()
			la.MaxLookAhead = Unbounded
		case param == "max_look_ahead_depth" && v.Kind == scan.Number:
			n, err := p.count(t.Text)
			la.MaxLookAhead = n
			return err
		case param == "max_look_ahead_depth":
			return p.s.Unexpected(p.s.Next(), "none or a non-negative integer for "+t.Text)
		case v.IsIdent("all"), v.IsIdent("All"), v.IsIdent("ALL"):
			p.s.Next()
			la.Select = SelectAll
		case v.IsIdent("dirty"), v.IsIdent("Dirty"), v.IsIdent("DIRTY"):
			p.s.Next()
			la.Select = SelectDirty
		default:
			return p.s.Unexpected(p.s.Next(), "all or dirty for select")
		}
		return nil
	})
}

func (p *parser) partialOrderReduction(o *Options, _ Kind) error {
	b, err := p.boolean("partial_order_reduction")
	o.PartialOrderReduction = b
	o.Set |= KeyPartialOrderReduction
	return err
}

func (p *parser) memoize(o *Options, _ Kind) error {
	b, err := p.boolean("memoize")
	o.Memoize = b
	o.Set |= KeyMemoize
	return err
}

func (p *parser) searchAll(o *Options, _ Kind) error {
	o.SearchAll = true
	o.Set |= KeySearchAll
	if !p.s.Peek().Is("=") {
		return nil
	}
	p.s.Next()
	b, err := p.boolean("search_all")
	o.SearchAll = b
	return err
}

func (p *parser) filters(o *Options, k Kind) error {
	want := "a filter (max_depth, max_loop_depth or max_node_number)"
	if k == Canonize {
		want = "a filter (max_depth or max_node_number)"
	}
	return p.list("filters = [...]", func() error {
		t := p.s.Next()
		if t.Kind != scan.Ident {
			return p.s.Unexpected(t, want)
		}
		var key Key
		var dst *int
		switch t.Text {
		case "max_depth":
			key, dst = KeyMaxDepth, &o.Filters.MaxDepth
		case "max_loop_depth":
			key, dst = KeyMaxLoopDepth, &o.Filters.MaxLoopDepth
		case "max_node_number":
			key, dst = KeyMaxNodeNumber, &o.Filters.MaxNodeNumber
		case "max": // "max depth", "max loop depth", "max node number"
			switch u := p.s.Next(); {
			case u.IsIdent("depth"):
				key, dst = KeyMaxDepth, &o.Filters.MaxDepth
			case u.IsIdent("loop"):
				key, dst = KeyMaxLoopDepth, &o.Filters.MaxLoopDepth
				if v := p.s.Next(); !v.IsIdent("depth") {
					return p.s.Unexpected(v, "depth after max loop")
				}
			case u.IsIdent("node"):
				key, dst = KeyMaxNodeNumber, &o.Filters.MaxNodeNumber
				if v := p.s.Next(); !v.IsIdent("number") {
					return p.s.Unexpected(v, "number after max node")
				}
			default:
				return p.s.Unexpected(u, "depth, loop depth or node number after max")
			}
		default:
			return p.s.Unexpected(t, want)
		}
		if key == KeyMaxLoopDepth && k == Canonize {
			return p.s.Errorf(t.Pos, "filter max_loop_depth does not apply to @canonize_option (expected max_depth or max_node_number)")
		}
		if o.Has(key) {
			return p.s.Errorf(t.Pos, "filter %s given twice", key)
		}
		if _, err := p.s.Expect("=", "after "+key.String()); err != nil {
			return err
		}
		n, err := p.count(key.String())
		*dst = n
		o.Set |= key
		return err
	})
}

// Priority kinds per section, as bit sets over Priority. Step is legacy
// (HIBOU ≤ 0.8.2) and not advertised in messages.
const (
	explorePriorities  = 1<<Emission | 1<<Reception | 1<<InLoop | 1<<MultiRdv | 1<<Step
	analyzePriorities  = explorePriorities | 1<<Elim | 1<<Simu
	canonizePriorities = 1<<Simpl | 1<<Flush | 1<<Invert | 1<<Deduplicate | 1<<Factorize | 1<<Defactorize
)

var sectionPriorities = [...]uint32{Analyze: analyzePriorities, Explore: explorePriorities, Canonize: canonizePriorities}

func (p *parser) priorities(o *Options, k Kind) error {
	o.Priorities = Priorities{}
	if t := p.s.Peek(); t.IsIdent("random") || t.IsIdent("rand") { // HIBOU ≤ 0.8.2
		p.s.Next()
		o.Priorities.Randomize = true
	} else if !t.Is("[") {
		return p.s.Unexpected(p.s.Next(), "[kind=level, ..., randomize=B] for priorities")
	} else if err := p.priorityList(&o.Priorities, sectionPriorities[k], true, "@"+k.String()); err != nil {
		return err
	}
	o.Set |= KeyPriorities
	return nil
}

// priorityList reads [kind=level, ..., randomize=B] into pr, accepting the
// kinds in the bit set allowed; where names the context in messages.
func (p *parser) priorityList(pr *Priorities, allowed uint32, randomize bool, where string) error {
	var names []string
	for q := Priority(0); q < numPriorities; q++ {
		if allowed&(1<<q) != 0 && q != Step {
			names = append(names, q.String())
		}
	}
	if randomize {
		names = append(names, "randomize")
	}
	want := "a priority (" + orList(names) + ")"
	given := once{}
	return p.list("the priorities of "+where, func() error {
		t := p.s.Next()
		if t.Kind != scan.Ident {
			return p.s.Unexpected(t, want)
		}
		if t.Text == "randomize" && randomize {
			return p.boolParam(given, "randomize", t, &pr.Randomize)
		}
		q := Priority(0)
		for q < numPriorities && q.String() != t.Text {
			q++
		}
		if t.Text == "hide" { // HIBOU ≤ 0.8.2
			q = Elim
		}
		if q == numPriorities {
			return p.s.Unexpected(t, want)
		}
		if allowed&(1<<q) == 0 {
			return p.s.Errorf(t.Pos, "priority %s does not apply to %s (expected %s)", t.Text, where, orList(names))
		}
		if err := given.add(p, q.String(), t); err != nil {
			return err
		}
		if _, err := p.s.Expect("=", "after "+t.Text); err != nil {
			return err
		}
		n, err := p.level(t.Text)
		pr.Level[q] = n
		return err
	})
}
