package gen

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/nfa"
)

// model is what the generated code is made of, derived from a Config: the
// actions laid out by location, and per location the dense DFA tables of
// its projection DFA (with areas and futures).
type model struct {
	cfg Config
	t   *nfa.Tables

	nloc       int
	stateWords int // words of a set of NFA states
	transWords int // words of a set of NFA transitions
	numLetters int // letters of all locations (global letters)

	// Actions, by id: those of location i are [locs[i].base, locs[i].end),
	// its letters first (letter x is action base+x), then the single
	// actions of its lifelines that no symbol shows.
	actions []action
	// sigAction[(l*M+m)*2+kind] is the id of the single action l!m (kind 0)
	// or l?m (kind 1).
	sigAction []int
	multi     []multiAction

	locs []*locModel

	// Go types of the generated tables, the smallest that fit.
	actionType, locationType, tableType, areaType string
}

// action is an event of a local trace that the verifier names.
type action struct {
	name     string
	loc      int
	lifeline int // for a single action; -1 for a multi-action
}

// multiAction is a letter made of several actions (a <synch> message seen
// by one location): its parts as ids of single actions, sorted.
type multiAction struct {
	parts []int
	id    int
}

// locModel is one location's tables.
type locModel struct {
	name      string
	lifelines []int
	base, end int // its actions
	k         int // its letters
	lbase     int // global letter of its letter 0
	shift     int // log2 of the row width: 1<<shift > k (column k: no letter)
	fwd       dfaModel
	areaOf    []int   // per table entry: its area, -1 for none
	areas     [][]int // transitions of each area
	init      []int
	back, any dfaModel // backward projections: from the final states, from every state
	futOf     []int    // per DFA state: its future
	futures   [][]int  // transitions reachable from a DFA state
}

// dfaModel is a DFA in row-offset form: states 0..n-1 and a dead state n,
// rows of 1<<shift entries, next[q<<shift+x] the row offset of the
// successor (the dead row when there is none; every column ≥ k leads
// there). subsets[q] are the NFA states of q.
type dfaModel struct {
	n       int
	start   int // row offset
	next    []int
	final   []int   // final states (forward DFAs only)
	subsets [][]int // the NFA states of each state
}

func newModel(cfg Config) (*model, error) {
	t := cfg.Tables
	if err := CheckPackageName(cfg.Package); err != nil {
		return nil, fmt.Errorf("gen: %w", err)
	}
	if t == nil {
		return nil, fmt.Errorf("gen: no tables")
	}
	if len(cfg.Lifelines) == 0 {
		return nil, fmt.Errorf("gen: no lifelines: the generated verifier reads .htf multi-traces, which need a signature")
	}
	if len(cfg.Groups) != len(t.Locations) || len(t.Locations) == 0 {
		return nil, fmt.Errorf("gen: %d groups of lifelines for %d locations", len(cfg.Groups), len(t.Locations))
	}
	m := &model{cfg: cfg, t: t, nloc: len(t.Locations)}
	m.stateWords = max(nwords(t.NumStates), 1)
	m.transWords = max(nwords(len(t.Trans)), 1)
	owner := make([]int, len(cfg.Lifelines))
	for i := range owner {
		owner[i] = -1
	}
	for i, g := range cfg.Groups {
		if len(g) == 0 {
			return nil, fmt.Errorf("gen: location %d has no lifeline", i)
		}
		for _, l := range g {
			if l < 0 || l >= len(owner) {
				return nil, fmt.Errorf("gen: location %d: lifeline %d out of range", i, l)
			}
			if owner[l] >= 0 {
				return nil, fmt.Errorf("gen: lifeline %s is in locations %d and %d", cfg.Lifelines[l], owner[l], i)
			}
			owner[l] = i
		}
	}
	for l, o := range owner {
		if o < 0 {
			return nil, fmt.Errorf("gen: lifeline %s is in no location", cfg.Lifelines[l])
		}
	}
	if err := m.layActions(owner); err != nil {
		return nil, err
	}
	maxTable, maxAreas := 0, 0
	for i, lm := range m.locs {
		lt := &t.Locations[i]
		lm.fwd = forwardDFA(lt, lm.k, lm.shift)
		lm.areaOf = make([]int, (lm.fwd.n+1)<<lm.shift)
		for e := range lm.areaOf {
			lm.areaOf[e] = -1
		}
		for q := range lt.NumStates {
			for x := range lm.k {
				lm.areaOf[q<<lm.shift+x] = int(lt.AreaOf[q*lm.k+x])
			}
		}
		for _, a := range lt.Areas {
			lm.areas = append(lm.areas, a.Elems())
		}
		lm.init = lt.Init.Elems()
		for q := range lt.NumStates {
			lm.futOf = append(lm.futOf, int(lt.FutureOf[q]))
		}
		for _, f := range lt.Futures {
			lm.futures = append(lm.futures, f.Elems())
		}
		var err error
		if lm.back, err = backwardDFA(t, i, lm.k, lm.shift, false, nfa.DefaultMaxProjStates); err != nil {
			return nil, err
		}
		if lm.any, err = backwardDFA(t, i, lm.k, lm.shift, true, nfa.DefaultMaxProjStates); err != nil {
			return nil, err
		}
		for _, d := range []dfaModel{lm.fwd, lm.back, lm.any} {
			maxTable = max(maxTable, (d.n+1)<<lm.shift)
		}
		maxAreas = max(maxAreas, len(lm.areas))
	}
	m.actionType = "uint16"
	if len(m.actions) >= 1<<16-1 {
		m.actionType = "uint32"
	}
	m.locationType = "uint8"
	if m.nloc >= 1<<8-1 {
		m.locationType = "uint16"
	}
	m.tableType = "uint16"
	if maxTable > 1<<16 {
		m.tableType = "uint32"
	}
	m.areaType = "uint16"
	if maxAreas >= 1<<16-1 {
		m.areaType = "uint32"
	}
	return m, nil
}

func nwords(n int) int { return (n + 63) >> 6 }

// layActions numbers the actions location by location: the letters of the
// location (its parts of the symbols), then the single actions of its
// lifelines that are no letter, by lifeline, message and kind.
func (m *model) layActions(owner []int) error {
	cfg, t := m.cfg, m.t
	nm := len(cfg.Messages)
	m.sigAction = make([]int, len(cfg.Lifelines)*nm*2)
	for i := range m.sigAction {
		m.sigAction[i] = -1
	}
	lifelineIndex := map[string]int{}
	for i, n := range cfg.Lifelines {
		lifelineIndex[n] = i
	}
	messageIndex := map[string]int{}
	for i, n := range cfg.Messages {
		messageIndex[n] = i
	}
	// single parses "l!m" or "l?m" into its code (l*M+m)*2+kind.
	single := func(s string) (code, l int, err error) {
		k := strings.IndexAny(s, "!?")
		if k < 0 {
			return 0, 0, fmt.Errorf("%q is not an action l!m or l?m", s)
		}
		l, ok := lifelineIndex[s[:k]]
		if !ok {
			return 0, 0, fmt.Errorf("action %q: lifeline %q is not in the signature", s, s[:k])
		}
		msg, ok := messageIndex[s[k+1:]]
		if !ok {
			return 0, 0, fmt.Errorf("action %q: message %q is not in the signature", s, s[k+1:])
		}
		kind := 0
		if s[k] == '?' {
			kind = 1
		}
		return (l*nm+msg)*2 + kind, l, nil
	}
	type pendingMulti struct {
		codes []int
		id    int
	}
	var pending []pendingMulti
	lbase := 0
	for i, lt := range t.Locations {
		lm := &locModel{name: lt.Name, lifelines: slices.Clone(cfg.Groups[i]), base: len(m.actions), k: len(lt.Letters), lbase: lbase}
		slices.Sort(lm.lifelines)
		lbase += lm.k
		for 1<<lm.shift <= lm.k {
			lm.shift++
		}
		for _, name := range lt.Letters {
			id := len(m.actions)
			if strings.HasPrefix(name, "{") && strings.HasSuffix(name, "}") {
				var codes []int
				for _, part := range strings.Split(name[1:len(name)-1], ",") {
					code, l, err := single(part)
					if err != nil {
						return fmt.Errorf("gen: location %s: letter %s: %v", lt.Name, name, err)
					}
					if owner[l] != i {
						return fmt.Errorf("gen: location %s: letter %s is on lifeline %s of another location", lt.Name, name, cfg.Lifelines[l])
					}
					codes = append(codes, code)
				}
				pending = append(pending, pendingMulti{codes, id})
				m.actions = append(m.actions, action{name: name, loc: i, lifeline: -1})
				continue
			}
			code, l, err := single(name)
			if err != nil {
				return fmt.Errorf("gen: location %s: letter %s: %v", lt.Name, name, err)
			}
			if owner[l] != i {
				return fmt.Errorf("gen: location %s: letter %s is on lifeline %s of another location", lt.Name, name, cfg.Lifelines[l])
			}
			if m.sigAction[code] >= 0 {
				return fmt.Errorf("gen: location %s: letter %s twice", lt.Name, name)
			}
			m.sigAction[code] = id
			m.actions = append(m.actions, action{name: name, loc: i, lifeline: l})
		}
		for _, l := range lm.lifelines {
			for msg := range nm {
				for kind, op := range "!?" {
					code := (l*nm+msg)*2 + kind
					if m.sigAction[code] >= 0 {
						continue
					}
					m.sigAction[code] = len(m.actions)
					m.actions = append(m.actions, action{name: cfg.Lifelines[l] + string(op) + cfg.Messages[msg], loc: i, lifeline: l})
				}
			}
		}
		lm.end = len(m.actions)
		m.locs = append(m.locs, lm)
	}
	m.numLetters = lbase
	for _, p := range pending {
		var parts []int
		for _, c := range p.codes {
			parts = append(parts, m.sigAction[c])
		}
		slices.Sort(parts)
		if len(slices.Compact(slices.Clone(parts))) != len(parts) {
			return fmt.Errorf("gen: letter %s repeats an action", m.actions[p.id].name)
		}
		m.multi = append(m.multi, multiAction{parts: parts, id: p.id})
	}
	for x, ps := range t.Parts {
		for _, p := range ps {
			if p.Loc < 0 || p.Loc >= m.nloc || p.Letter < 0 || int(p.Letter) >= m.locs[p.Loc].k {
				return fmt.Errorf("gen: symbol %s: part %v out of range", t.Symbols[x], p)
			}
		}
	}
	return nil
}

// forwardDFA lays out the projection DFA of a location in row-offset form.
func forwardDFA(lt *nfa.LocationTables, k, shift int) dfaModel {
	n := lt.NumStates
	d := dfaModel{n: n, start: n << shift, next: make([]int, (n+1)<<shift)}
	if lt.Start >= 0 {
		d.start = int(lt.Start) << shift
	}
	for e := range d.next {
		d.next[e] = n << shift
	}
	for q := range n {
		for x := range k {
			if r := lt.Next[q*k+x]; r >= 0 {
				d.next[q<<shift+x] = int(r) << shift
			}
		}
		if lt.Final.Has(q) {
			d.final = append(d.final, q)
		}
		d.subsets = append(d.subsets, lt.Subset[q].Elems())
	}
	return d
}

// backwardDFA builds the subset DFA of location loc on the reversed NFA,
// the transitions whose symbol the location does not observe being ε,
// started from the final states (or from every state, with anyEnd): after
// reading the reverse of a word u, its state holds the NFA states from
// which some path whose projection is u reaches a final state (any state).
// The central search prunes with it, as package nfa's does.
func backwardDFA(t *nfa.Tables, loc, k, shift int, anyEnd bool, maxStates int) (dfaModel, error) {
	n := t.NumStates
	letterOf := make([]int, len(t.Symbols))
	for x, ps := range t.Parts {
		letterOf[x] = -1
		for _, p := range ps {
			if p.Loc == loc {
				letterOf[x] = int(p.Letter)
			}
		}
	}
	in := make([][]int, n) // the transitions entering each state
	for i, tr := range t.Trans {
		in[tr.Dst] = append(in[tr.Dst], i)
	}
	// closure adds to list (and set) the states that reach one of list by
	// unobserved transitions, and sorts it.
	closure := func(set []bool, list []int) []int {
		for h := 0; h < len(list); h++ {
			for _, i := range in[list[h]] {
				tr := t.Trans[i]
				if letterOf[tr.Sym] < 0 && !set[tr.Src] {
					set[tr.Src] = true
					list = append(list, int(tr.Src))
				}
			}
		}
		slices.Sort(list)
		return list
	}
	index := map[string]int{}
	var subsets [][]int
	state := func(list []int) (int, error) {
		b := make([]byte, 0, 4*len(list))
		for _, q := range list {
			b = binary.AppendUvarint(b, uint64(q))
		}
		if q, ok := index[string(b)]; ok {
			return q, nil
		}
		if len(subsets) >= maxStates {
			return 0, fmt.Errorf("gen: location %s: backward projection: more than %d DFA states", t.Locations[loc].Name, maxStates)
		}
		index[string(b)] = len(subsets)
		subsets = append(subsets, list)
		return len(subsets) - 1, nil
	}
	var start []int
	set := make([]bool, n)
	for q := range n {
		if anyEnd || t.Final.Has(q) {
			set[q] = true
			start = append(start, q)
		}
	}
	if len(start) > 0 {
		if _, err := state(closure(set, start)); err != nil {
			return dfaModel{}, err
		}
	}
	var rows [][]int // per state, per letter: successor or -1
	for q := 0; q < len(subsets); q++ {
		targets := make([][]int, k)
		marks := make([][]bool, k)
		for _, s := range subsets[q] {
			for _, i := range in[s] {
				tr := t.Trans[i]
				x := letterOf[tr.Sym]
				if x < 0 {
					continue
				}
				if marks[x] == nil {
					marks[x] = make([]bool, n)
				}
				if !marks[x][tr.Src] {
					marks[x][tr.Src] = true
					targets[x] = append(targets[x], int(tr.Src))
				}
			}
		}
		row := make([]int, k)
		for x := range k {
			row[x] = -1
			if len(targets[x]) > 0 {
				r, err := state(closure(marks[x], targets[x]))
				if err != nil {
					return dfaModel{}, err
				}
				row[x] = r
			}
		}
		rows = append(rows, row)
	}
	nq := len(subsets)
	d := dfaModel{n: nq, start: nq << shift, next: make([]int, (nq+1)<<shift), subsets: subsets}
	if nq > 0 {
		d.start = 0
	}
	for e := range d.next {
		d.next[e] = nq << shift
	}
	for q, row := range rows {
		for x, r := range row {
			if r >= 0 {
				d.next[q<<shift+x] = r << shift
			}
		}
	}
	return d, nil
}
