package nfa

// Tables are a checker's compiled tables, plainly, for code generation:
// what a standalone verifier needs to run the local checks and the central
// check without package nfa.
type Tables struct {
	// The NFA (trimmed) the areas refer to: states 0..NumStates-1.
	NumStates int
	Initial   []State
	Final     Bits         // over states
	Symbols   []string     // symbol names
	Trans     []Transition // sorted by (Src, Sym, Dst); transition k is bit k of an area
	// Parts[x] is what each location observes of symbol x.
	Parts [][]Part
	// Locations holds one projection per location.
	Locations []LocationTables
}

// LocationTables are the tables of one location's projection Proj(A, Σi).
type LocationTables struct {
	Name    string
	Letters []string // the local alphabet: letter x is Letters[x]
	// The DFA: NumStates states, start Start (-1: no state), Next[q*K+x]
	// the successor of q by letter x or -1, with K = len(Letters).
	NumStates int
	Start     State
	Final     Bits // over DFA states
	Next      []State
	// Subset[q] is the set of NFA states of DFA state q.
	Subset []Bits
	// AreaOf[q*K+x] indexes Areas: area(q –x→) (Def. 6), or -1 when Next
	// is -1. Init is init (Def. 7). All are bitsets over Trans.
	AreaOf []int32
	Areas  []Bits
	Init   Bits
	// FutureOf[q] indexes Futures: the transitions reachable from DFA state
	// q, which a multi-prefix ending in q may still use.
	FutureOf []int32
	Futures  []Bits
}

// Tables returns the checker's tables. They share memory with the checker:
// do not modify them.
func (c *Checker) Tables() *Tables {
	a := c.a
	t := &Tables{NumStates: a.n, Initial: a.initial, Final: a.final, Symbols: a.syms.Names(), Trans: a.trans}
	for x := range a.syms.Len() {
		t.Parts = append(t.Parts, c.locs.Parts(Symbol(x)))
	}
	for i, p := range c.projs {
		d := p.dfa
		t.Locations = append(t.Locations, LocationTables{
			Name: c.locs.Name(i), Letters: c.locs.Letters(i),
			NumStates: d.n, Start: d.start, Final: d.final, Next: d.next, Subset: p.subset,
			AreaOf: p.areaOf, Areas: p.areas, Init: p.init, FutureOf: p.futOf, Futures: p.fut,
		})
	}
	return t
}
