package interaction

import (
	"slices"
	"strings"

	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/internal/hashslots"
)

// Op is the operator at the root of a term.
type Op uint8

const (
	OpEmpty  Op = iota // ∅
	OpAct              // a (multi-)action
	OpStrict           // strict(i1,i2): strict sequencing
	OpSeq              // seq(i1,i2): weak sequencing
	OpPar              // par(i1,i2): interleaving
	OpAlt              // alt(i1,i2): choice
	OpCoreg            // coreg(L)(i1,i2): par on L, seq elsewhere
	OpSync             // sync(A)(i1,i2): par that synchronizes the actions of A
	OpLoopS            // loopS(i): Kleene closure of strict
	OpLoopH            // loopH(i): loopW whose first action comes from the first iteration
	OpLoopW            // loopW(i): Kleene closure of seq
	OpLoopP            // loopP(i): Kleene closure of par
)

// opNames are the operators as .hif files write them: not stringer's
// identifiers.
var opNames = enum.New("Op", map[Op]string{OpEmpty: "∅", OpAct: "act", OpStrict: "strict", OpSeq: "seq", OpPar: "par",
	OpAlt: "alt", OpCoreg: "coreg", OpSync: "sync", OpLoopS: "loopS", OpLoopH: "loopH",
	OpLoopW: "loopW", OpLoopP: "loopP"})

func (o Op) String() string { return opNames.Name(o) }

// IsLoop reports whether o is one of the four loops.
func (o Op) IsLoop() bool { return o >= OpLoopS && o <= OpLoopP }

// IsBinary reports whether o has two operands.
func (o Op) IsBinary() bool { return o >= OpStrict && o <= OpSync }

// Term is an interaction term, interned in a Store: two terms of one store
// are equal if and only if their ids are equal. Term 0 is ∅.
type Term uint32

// Empty is the empty interaction ∅, the same id in every store.
const Empty Term = 0

type node struct {
	op          Op
	left, right Term
	aux         uint32 // OpAct: multi-action id; OpCoreg: lifeline-set id; OpSync: action-set id
}

// props are the facts about a term computed once, when it is interned.
type props struct {
	occ     Lifelines // lifelines some action of the term occurs on
	must    Lifelines // lifelines every trace of the term has an action on (i ⊗ l)
	actions int32     // number of action leaves, saturating
	eta     int32     // η: actions outside loops (see Eta), saturating at maxEta
	// loopDepth is β, the loop depth (see LoopDepth), up to maxLoopDepth.
	loopDepth uint16
	nullable  bool // i↓: the term accepts the empty trace
	// weak: the term has a weak sequencing (seq, coreg, loopW, loopH) or a
	// sync, the only operators through which removal may need ghosts.
	weak bool
	// tied: the term has a multi-action on several lifelines, a coreg or a
	// sync, without which removal needs no ghosts either (see needsGhosts).
	tied bool
	// sorted (alt and par): the chain of operands along the right spine is
	// sorted as canonical rewriting keeps it (see canonAC).
	sorted bool
	// weakLoop: the term has a loopW, loopH or loopP.
	weakLoop bool
	// canon: the term is known to be canonical (see Canonical): it is ∅,
	// an action, or canonical rewriting built it from canonical operands.
	canon bool
}

// A Store interns terms (hash-consing): each distinct term is built once and
// named by a small integer, so equality, memoization and automaton-state
// merging are integer operations. A Store also caches the semantic functions
// (frontier, execution, pruning, removal) of its terms. It is not safe for
// concurrent use: give each goroutine its own (see Import).
type Store struct {
	sig   *Signature
	nodes []node
	props []props
	// index is the hash-consing table: open addressing with linear probing
	// over a power-of-two number of slots, each 0 (free) or a term in its
	// low 32 bits and the top 32 bits of its node's hash in its high ones;
	// a term lies at the slot of its hash's top bits (indexShift says how
	// many are left out), or after it. ∅, the zero node, is not in it. The
	// hash bits spare a probe that meets another term the read of its
	// node, far out of the cache in a large store, and let the table grow
	// without reading the nodes.
	index      []uint64
	indexShift uint8

	acts     []MultiAction
	actLls   []Lifelines // θ of each multi-action of acts
	actSet   []uint32    // the interned set id of each of actLls
	actIndex map[string]uint32
	sets     []Lifelines
	setIndex map[Lifelines]uint32

	sem semCaches
	raw bool // no canonical rewriting (see SetCanonical)

	lifelineBytes int64  // the bytes of the lifeline sets of props
	onGrowth      func() // see OnGrowth
}

// NewStore returns an empty store for terms over sig.
func NewStore(sig *Signature) *Store {
	s := &Store{sig: sig, index: make([]uint64, 64), indexShift: 64 - 6, actIndex: map[string]uint32{}, setIndex: map[Lifelines]uint32{}}
	s.nodes = append(s.nodes, node{op: OpEmpty})
	s.props = append(s.props, props{nullable: true, canon: true})
	return s
}

// Signature returns the signature the store's terms are written over.
func (s *Store) Signature() *Signature { return s.sig }

// Len returns the number of distinct terms interned so far.
func (s *Store) Len() int { return len(s.nodes) }

// Op returns the operator at the root of t.
func (s *Store) Op(t Term) Op { return s.nodes[t].op }

// Left returns the first operand of a binary term, or the body of a loop.
func (s *Store) Left(t Term) Term { return s.nodes[t].left }

// Right returns the second operand of a binary term.
func (s *Store) Right(t Term) Term { return s.nodes[t].right }

// Action returns the multi-action of an OpAct term.
func (s *Store) Action(t Term) MultiAction { return s.acts[s.nodes[t].aux] }

// CoregLifelines returns the lifeline set L of a coreg(L) term.
func (s *Store) CoregLifelines(t Term) Lifelines { return s.sets[s.nodes[t].aux] }

// SyncActions returns the synchronized action set of a sync term.
func (s *Store) SyncActions(t Term) MultiAction { return s.acts[s.nodes[t].aux] }

// Nullable reports i↓: whether t accepts the empty trace.
func (s *Store) Nullable(t Term) bool { return s.props[t].nullable }

// Occurring returns the lifelines t has actions on.
func (s *Store) Occurring(t Term) Lifelines { return s.props[t].occ }

// Collides reports i ⊗ l: every trace of t has an action on l, so t cannot
// be pruned of l.
func (s *Store) Collides(t Term, l LifelineID) bool { return s.props[t].must.Has(l) }

// HasWeakLoop reports whether t has a loopW, loopH or loopP.
func (s *Store) HasWeakLoop(t Term) bool { return s.props[t].weakLoop }

// NumActions returns the number of action leaves of t (saturating at 2^31-1).
func (s *Store) NumActions(t Term) int { return int(s.props[t].actions) }

func (s *Store) internActs(m MultiAction) uint32 {
	var buf [64]byte
	k := m.appendKey(buf[:0])
	if id, ok := s.actIndex[string(k)]; ok { // no allocation for the lookup
		return id
	}
	id := uint32(len(s.acts))
	s.acts = append(s.acts, slices.Clone(m))
	ls := m.Lifelines()
	s.actLls = append(s.actLls, ls)
	s.actSet = append(s.actSet, s.internSet(ls))
	s.actIndex[string(k)] = id
	return id
}

func (s *Store) internSet(ls Lifelines) uint32 {
	if id, ok := s.setIndex[ls]; ok {
		return id
	}
	id := uint32(len(s.sets))
	s.sets = append(s.sets, ls)
	s.setIndex[ls] = id
	return id
}

// hash mixes the fields of n (the finalizer of SplitMix64), for the
// hash-consing table.
func (n node) hash() uint64 {
	h := (uint64(n.left)<<32 | uint64(n.right)) ^ (uint64(n.aux)<<8|uint64(n.op))*0x9e3779b97f4a7c15
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

// intern returns the term of n, adding it to the store when it is new.
func (s *Store) intern(n node) Term {
	if n == (node{}) {
		return Empty
	}
	h := n.hash()
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(s.index) - 1)
	i := h >> s.indexShift
	for ; s.index[i] != 0; i = (i + 1) & mask {
		if e := s.index[i]; e&^(1<<32-1) == tag && s.nodes[Term(e)] == n {
			return Term(e)
		}
	}
	t := Term(len(s.nodes))
	if len(s.nodes) == cap(s.nodes) {
		// Double the tables (append grows large slices more slowly, with
		// more copies).
		s.nodes = slices.Grow(s.nodes, len(s.nodes))
		s.props = slices.Grow(s.props, len(s.props))
	}
	s.nodes = append(s.nodes, n)
	s.props = append(s.props, props{})
	s.setProps(&s.props[t], n)
	s.lifelineBytes += int64(len(s.props[t].occ) + len(s.props[t].must))
	s.index[i] = tag | uint64(t)
	if 2*len(s.nodes) > len(s.index) { // keep the load under 1/2
		s.growIndex()
	}
	return t
}

// growIndex doubles the hash-consing table (package hashslots).
func (s *Store) growIndex() { s.index, s.indexShift = hashslots.Grow(s.index, s.indexShift) }

// The bounds of props.eta and props.loopDepth.
const (
	maxEta       = 1 << 30
	maxLoopDepth = 1<<16 - 1
)

func satAdd(a, b int32) int32 {
	if c := int64(a) + int64(b); c < 1<<31-1 {
		return int32(c)
	}
	return 1<<31 - 1
}

// setProps computes the props of the new node n into p, from those of its
// operands (in place: props are not small).
func (s *Store) setProps(p *props, n node) {
	switch {
	case n.op == OpEmpty:
		*p = props{nullable: true, canon: true}
		return
	case n.op == OpAct:
		ls := s.actLls[n.aux]
		*p = props{occ: ls, must: ls, actions: 1, eta: 1, canon: true, tied: ls.Len() > 1}
		return
	case n.op.IsLoop():
		b := &s.props[n.left]
		*p = props{nullable: true, occ: b.occ, actions: b.actions, weakLoop: n.op != OpLoopS || b.weakLoop,
			weak: n.op == OpLoopW || n.op == OpLoopH || b.weak, tied: b.tied, loopDepth: min(b.loopDepth, maxLoopDepth-1) + 1}
		return
	}
	l, r := &s.props[n.left], &s.props[n.right]
	p.occ = l.occ.Union(r.occ)
	p.actions = satAdd(l.actions, r.actions)
	p.loopDepth = max(l.loopDepth, r.loopDepth)
	if n.op == OpAlt {
		p.nullable = l.nullable || r.nullable
		p.must = l.must.Intersect(r.must)
		p.eta = max(l.eta, r.eta)
	} else { // strict, seq, par, coreg, sync
		p.nullable = l.nullable && r.nullable
		p.must = l.must.Union(r.must)
		p.eta = int32(min(int64(l.eta)+int64(r.eta), maxEta))
	}
	p.weak = n.op == OpSeq || n.op == OpCoreg || n.op == OpSync || l.weak || r.weak
	p.tied = n.op == OpCoreg || n.op == OpSync || l.tied || r.tied
	p.weakLoop = l.weakLoop || r.weakLoop
	if n.op == OpAlt || n.op == OpPar {
		idem := n.op == OpAlt
		next := n.right
		if r := s.nodes[n.right]; r.op == n.op {
			next = r.left
		}
		p.sorted = (n.left > next || !idem && n.left == next) &&
			(s.nodes[n.right].op != n.op || s.props[n.right].sorted)
	}
}

// Act returns the term of a (multi-)action. acts must be non-empty.
func (s *Store) Act(acts ...Action) Term {
	if len(acts) == 0 {
		panic("interaction: Act of no action")
	}
	return s.intern(node{op: OpAct, aux: s.internActs(NewMultiAction(acts...))})
}

// Binary returns op(l, r) for a binary operator other than coreg and sync,
// exactly as given (no simplification).
func (s *Store) Binary(op Op, l, r Term) Term {
	if !op.IsBinary() || op == OpCoreg || op == OpSync {
		panic("interaction: Binary of " + op.String())
	}
	return s.intern(node{op: op, left: l, right: r})
}

// Strict returns strict(l, r).
func (s *Store) Strict(l, r Term) Term { return s.Binary(OpStrict, l, r) }

// Seq returns seq(l, r).
func (s *Store) Seq(l, r Term) Term { return s.Binary(OpSeq, l, r) }

// Par returns par(l, r).
func (s *Store) Par(l, r Term) Term { return s.Binary(OpPar, l, r) }

// Alt returns alt(l, r).
func (s *Store) Alt(l, r Term) Term { return s.Binary(OpAlt, l, r) }

// Coreg returns coreg(ls)(l, r).
func (s *Store) Coreg(ls Lifelines, l, r Term) Term {
	return s.intern(node{op: OpCoreg, left: l, right: r, aux: s.internSet(ls)})
}

// Sync returns sync(acts)(l, r).
func (s *Store) Sync(acts MultiAction, l, r Term) Term {
	return s.intern(node{op: OpSync, left: l, right: r, aux: s.internActs(NewMultiAction(acts...))})
}

// Loop returns loopK(body) for a loop operator op.
func (s *Store) Loop(op Op, body Term) Term {
	if !op.IsLoop() {
		panic("interaction: Loop of " + op.String())
	}
	return s.intern(node{op: op, left: body})
}

// with returns a term with the operator and auxiliary data of t (its coreg
// set or sync set) and the operands l and r, ∅-simplified (see mkNode).
func (s *Store) with(t Term, l, r Term) Term {
	n := s.nodes[t]
	if n.op == OpEmpty || n.op == OpAct {
		return t
	}
	n.left, n.right = l, r
	return s.mkNode(n)
}

// mk builds op(l, r), ∅-simplified, for an operator without auxiliary data.
func (s *Store) mk(op Op, l, r Term) Term { return s.mkNode(node{op: op, left: l, right: r}) }

// mkNode interns n after the ∅-simplifications of the semantics:
// f(∅,i) = f(i,∅) = i for every binary f but alt, alt(∅,∅) = ∅, loop(∅) = ∅.
func (s *Store) mkNode(n node) Term {
	switch {
	case n.op == OpAlt:
		if n.left == Empty && n.right == Empty {
			return Empty
		}
	case n.op.IsLoop():
		if n.left == Empty {
			return Empty
		}
		n.right = 0
	case n.op == OpSync:
		// An operand may stand alone only if it has nothing to synchronize:
		// sync(A)(i,∅) blocks the actions of A in i. With no action of A left
		// on either side, the sync is a par.
		l, r := s.mentions(n.left, n.aux), s.mentions(n.right, n.aux)
		switch {
		case n.left == Empty && !r:
			return n.right
		case n.right == Empty && !l:
			return n.left
		case !l && !r:
			return s.mk(OpPar, n.left, n.right)
		}
	case n.op.IsBinary():
		if n.left == Empty {
			return n.right
		}
		if n.right == Empty {
			return n.left
		}
	}
	if !s.raw && n.op != OpAct && n.op != OpEmpty {
		return s.canon(n)
	}
	return s.intern(n)
}

// mentions reports whether some action of t belongs to the action set acts
// (an interned multi-action id).
func (s *Store) mentions(t Term, acts uint32) bool {
	set := s.acts[acts]
	if !s.props[t].occ.Meets(s.actLifelines(acts)) {
		return false
	}
	c := &s.sem
	if c.mentions == nil {
		c.mentions = map[setKey]bool{}
	}
	key := setKey{t, acts}
	if r, ok := c.mentions[key]; ok {
		return r
	}
	n := s.nodes[t]
	var r bool
	switch {
	case n.op == OpAct:
		for _, a := range s.acts[n.aux] {
			if slices.Contains(set, a) {
				r = true
			}
		}
	case n.op.IsLoop():
		r = s.mentions(n.left, acts)
	case n.op.IsBinary():
		r = s.mentions(n.left, acts) || s.mentions(n.right, acts)
	}
	c.mentions[key] = r
	return r
}

// Simplify applies the ∅-simplifications everywhere in t:
// f(∅,i) → i and f(i,∅) → i for f ∈ {strict, seq, par, coreg},
// alt(∅,∅) → ∅ and loop(∅) → ∅; a sync operand stands alone beside ∅ only
// if it has no synchronized action, and a sync with no synchronized action
// left is a par. They preserve the semantics. Unless canonical rewriting is
// off, it returns the canonical form of t (see Canonical).
//
// Its cost is linear in the size of t (as a tree): a chain of one operator,
// however it is nested, is simplified as a list of operands and rebuilt once,
// so that neither right-nesting a deep left-nested chain nor inserting the
// operands of a long par or alt into canonical order one by one (both
// quadratic) takes place.
func (s *Store) Simplify(t Term) Term {
	if !s.raw {
		return s.canonical(t)
	}
	memo := map[Term]Term{}
	var rec func(Term) Term
	rec = func(t Term) Term {
		n := s.nodes[t]
		if n.op == OpEmpty || n.op == OpAct {
			return t
		}
		if r, ok := memo[t]; ok {
			return r
		}
		var res Term
		if n.op.IsLoop() {
			res = s.with(t, rec(n.left), Empty)
		} else {
			res = s.with(t, rec(n.left), rec(n.right))
		}
		memo[t] = res
		return res
	}
	return rec(t)
}

// simplifyChain simplifies the binary term t: it collects, left to right,
// the operands of the region of t made of t's operator (with t's coreg or
// sync set), simplifies them with rec, and builds the canonical term of
// the operator over them. Region nodes met twice (shared subterms) are
// simplified by rec as operands, so that a shared region is not expanded
// again and again.
func (s *Store) simplifyChain(t Term, rec func(Term) Term) Term {
	root := s.nodes[t]
	var ops []Term
	seen := map[Term]bool{t: true}
	stack := []Term{root.right, root.left} // operands still to visit, last first
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n := s.nodes[x]; n.op == root.op && n.aux == root.aux && !seen[x] {
			seen[x] = true
			stack = append(stack, n.right, n.left)
			continue
		}
		ops = append(ops, rec(x))
	}
	if root.op == OpAlt || root.op == OpPar {
		return s.acChain(root.op, ops)
	}
	acc, i := ops[len(ops)-1], len(ops)-2
	if root.op == OpSync {
		// Operands with no synchronized action compose as a par (see
		// mkNode): build the longest suffix of them as one par chain.
		j := len(ops)
		for j > 0 && !s.mentions(ops[j-1], root.aux) {
			j--
		}
		if len(ops)-j >= 2 {
			acc, i = s.acChain(OpPar, ops[j:]), j-1
		}
	}
	for ; i >= 0; i-- {
		acc = s.mkNode(node{op: root.op, left: ops[i], right: acc, aux: root.aux})
	}
	return acc
}

// acChain returns the canonical alt or par of the terms ops, after the
// ∅-simplifications: par(∅, i) = i, alt(∅, ∅) = ∅. Operands that are
// themselves chains of op are spliced in. The operands are inserted in
// increasing order, each in front of the chain built so far, which takes
// constant time.
func (s *Store) acChain(op Op, ops []Term) Term {
	var flat []Term
	for _, x := range ops {
		for s.nodes[x].op == op {
			flat = append(flat, s.nodes[x].left)
			x = s.nodes[x].right
		}
		if op == OpPar && x == Empty {
			continue
		}
		flat = append(flat, x)
	}
	if len(flat) == 0 {
		return Empty
	}
	slices.Sort(flat)
	acc := flat[0]
	for _, x := range flat[1:] {
		acc = s.insertAC(op, x, acc)
	}
	return acc
}

// Format returns the one-line operator form of t, e.g.
// "seq(strict(a!m,b?m),loopW(∅))": every operator binary, actions as l!m and
// multi-actions as {a!m,b?m}. Dumps in tests and state labels use it.
func (s *Store) Format(t Term) string {
	var b strings.Builder
	s.format(&b, t)
	return b.String()
}

func (s *Store) format(b *strings.Builder, t Term) {
	n := s.nodes[t]
	switch {
	case n.op == OpEmpty:
		b.WriteString("∅")
	case n.op == OpAct:
		s.acts[n.aux].writeTo(b, s.sig)
	case n.op.IsLoop():
		b.WriteString(n.op.String())
		b.WriteByte('(')
		s.format(b, n.left)
		b.WriteByte(')')
	default:
		b.WriteString(n.op.String())
		switch n.op {
		case OpCoreg:
			b.WriteByte('(')
			b.WriteString(s.sets[n.aux].Format(s.sig))
			b.WriteByte(')')
		case OpSync:
			b.WriteByte('(')
			for i, a := range s.acts[n.aux] {
				if i > 0 {
					b.WriteByte(',')
				}
				a.writeTo(b, s.sig)
			}
			b.WriteByte(')')
		}
		b.WriteByte('(')
		s.format(b, n.left)
		b.WriteByte(',')
		s.format(b, n.right)
		b.WriteByte(')')
	}
}

// Import copies term t of store src into s (which must have the same
// signature) and returns its id in s. Workers use it to get a private copy of
// a specification's term.
func (s *Store) Import(src *Store, t Term) Term {
	memo := map[Term]Term{}
	var rec func(Term) Term
	rec = func(t Term) Term {
		if r, ok := memo[t]; ok {
			return r
		}
		n := src.nodes[t]
		var r Term
		switch {
		case n.op == OpEmpty:
			r = Empty
		case n.op == OpAct:
			r = s.Act(src.acts[n.aux]...)
		case n.op.IsLoop():
			r = s.Loop(n.op, rec(n.left))
		case n.op == OpCoreg:
			r = s.Coreg(src.sets[n.aux], rec(n.left), rec(n.right))
		case n.op == OpSync:
			r = s.Sync(src.acts[n.aux], rec(n.left), rec(n.right))
		default:
			r = s.Binary(n.op, rec(n.left), rec(n.right))
		}
		memo[t] = r
		return r
	}
	return rec(t)
}
