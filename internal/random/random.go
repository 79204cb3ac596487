// Package random generates random interaction terms for tests and
// benchmarks, in the manner of HIBOU's rng_gen_interactions: draw an
// operator by weight, recurse into its operands, and stop on a constant (∅
// or a message) or at the maximum depth. Generation is deterministic for a
// seed: every draw comes from the given *rand.Rand (math/rand/v2, PCG).
//
//	sig := random.Signature(3, 2) // lifelines l1..l3, messages m1, m2
//	st := interaction.NewStore(sig)
//	rng := random.New(42)
//	t := random.Interaction(st, rng, random.Params{MaxDepth: 4, MinActions: 5})
//	fmt.Println(st.Format(t))
//
// The lifelines and messages come from the store's signature. Params chooses
// the depth, the minimum number of actions, the operator weights (by default
// HIBOU's "conservative" mix: mostly messages, seq, strict and alt, some
// loops and par, no sync), the kinds of messages (asynchronous passings
// strict(a!m,b?m), emissions to and receptions from the environment,
// <synch> multi-actions {a!m,b?m}, broadcasts), and whether to stay in the
// sublanguage of the compiled path (Compilable: loopS only).
package random

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ivc-project/ivc/interaction"
)

// New returns a PCG-backed generator for seed.
func New(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Signature returns a signature with lifelines l1..ln and messages m1..mk.
func Signature(nLifelines, nMessages int) *interaction.Signature {
	ls := make([]string, nLifelines)
	for i := range ls {
		ls[i] = fmt.Sprintf("l%d", i+1)
	}
	ms := make([]string, nMessages)
	for i := range ms {
		ms[i] = fmt.Sprintf("m%d", i+1)
	}
	sig, err := interaction.NewSignature(ls, ms, nil)
	if err != nil {
		panic(err) // the names are distinct by construction
	}
	return sig
}

// Weights are the relative weights of the symbols drawn at each node of a
// generated term. A zero weight excludes the symbol.
type Weights struct {
	Empty   int // ∅
	Message int // a message leaf (see MessageKinds)
	Strict  int
	Seq     int
	Par     int
	Alt     int
	Coreg   int // coreg(L) over a random non-empty set L of lifelines
	Sync    int // sync(A) over one or two actions of its operands
	LoopS   int
	LoopH   int
	LoopW   int
	LoopP   int
}

// Conservative returns weights like HIBOU's "conservative" profile: mostly
// messages, seq, strict and alt; some loops and par; a little coreg; no sync.
func Conservative() Weights {
	return Weights{Empty: 1, Message: 13, Strict: 4, Seq: 12, Par: 2, Alt: 6, Coreg: 1,
		LoopS: 2, LoopH: 1, LoopW: 3, LoopP: 1}
}

// All returns weights under which every operator, sync included, occurs.
func All() Weights {
	return Weights{Empty: 1, Message: 12, Strict: 4, Seq: 6, Par: 3, Alt: 4, Coreg: 2, Sync: 2,
		LoopS: 1, LoopH: 1, LoopW: 1, LoopP: 1}
}

func (w Weights) isZero() bool { return w == Weights{} }

// MessageKinds are the relative weights of the kinds of message leaves.
type MessageKinds struct {
	Passing   int // strict(a!m, b?m), a ≠ b when there are two lifelines or more
	Emission  int // a!m, to the environment
	Reception int // b?m, from the environment
	Synch     int // {a!m, b?m}: a <synch> message, one multi-action
	Broadcast int // strict(a!m, seq(b?m, c?m)), needs three lifelines
}

// DefaultMessages returns mostly asynchronous passings, some emissions and
// receptions from or to the environment.
func DefaultMessages() MessageKinds {
	return MessageKinds{Passing: 4, Emission: 1, Reception: 1}
}

func (k MessageKinds) isZero() bool { return k == MessageKinds{} }

// Params configure Interaction. Zero fields take the defaults given.
type Params struct {
	MaxDepth   int          // operators nest at most this deep (default 4); leaves below are messages
	MinActions int          // retry, then grow, until the term has at least this many actions
	Weights    Weights      // default Conservative()
	Messages   MessageKinds // default DefaultMessages()
	// Compilable restricts loops to loopS, the loop of the compiled path's
	// sublanguage: the weights of loopH, loopW and loopP go to loopS.
	Compilable bool
	// KeepEmpty returns the term as generated, with its ∅ operands; by
	// default the term is simplified (f(∅,i) → i, loop(∅) → ∅, ...).
	KeepEmpty bool
}

// maxRetries is how many fresh terms Interaction draws before it grows the
// last one to reach MinActions.
const maxRetries = 64

// Interaction returns a random term over the store's signature. The
// signature must have at least one lifeline and one message.
func Interaction(st *interaction.Store, rng *rand.Rand, p Params) interaction.Term {
	g := newGen(st, rng, p)
	var t interaction.Term
	for range maxRetries {
		t = g.finish(g.term(0))
		if st.NumActions(t) >= p.MinActions {
			return t
		}
	}
	// Grow: weak-sequence messages after the last draw until big enough.
	for st.NumActions(t) < p.MinActions {
		t = g.finish(st.Seq(t, g.message()))
	}
	return t
}

type gen struct {
	st   *interaction.Store
	sig  *interaction.Signature
	rng  *rand.Rand
	p    Params
	syms []symbol
	wts  []int
	msgs []int // weights of the message kinds, in MessageKinds order
}

type symbol uint8

const (
	symEmpty symbol = iota
	symMessage
	symStrict
	symSeq
	symPar
	symAlt
	symCoreg
	symSync
	symLoopS
	symLoopH
	symLoopW
	symLoopP
)

var loopOps = [...]interaction.Op{interaction.OpLoopS, interaction.OpLoopH, interaction.OpLoopW, interaction.OpLoopP}

func newGen(st *interaction.Store, rng *rand.Rand, p Params) *gen {
	sig := st.Signature()
	if len(sig.Lifelines) == 0 || len(sig.Messages) == 0 {
		panic("random: the signature needs a lifeline and a message")
	}
	if p.MaxDepth <= 0 {
		p.MaxDepth = 4
	}
	w := p.Weights
	if w.isZero() {
		w = Conservative()
	}
	if p.Compilable {
		w.LoopS += w.LoopH + w.LoopW + w.LoopP
		w.LoopH, w.LoopW, w.LoopP = 0, 0, 0
	}
	mk := p.Messages
	if mk.isZero() {
		mk = DefaultMessages()
	}
	if len(sig.Lifelines) < 3 {
		mk.Broadcast = 0
	}
	if mk.isZero() {
		mk.Passing = 1
	}
	g := &gen{st: st, sig: sig, rng: rng, p: p,
		msgs: []int{mk.Passing, mk.Emission, mk.Reception, mk.Synch, mk.Broadcast}}
	for s, wt := range []int{w.Empty, w.Message, w.Strict, w.Seq, w.Par, w.Alt, w.Coreg, w.Sync,
		w.LoopS, w.LoopH, w.LoopW, w.LoopP} {
		if wt < 0 {
			panic("random: negative weight")
		}
		if wt > 0 {
			g.syms = append(g.syms, symbol(s))
			g.wts = append(g.wts, wt)
		}
	}
	if len(g.syms) == 0 {
		g.syms, g.wts = []symbol{symMessage}, []int{1}
	}
	return g
}

func (g *gen) finish(t interaction.Term) interaction.Term {
	if g.p.KeepEmpty {
		return t
	}
	return g.st.Simplify(t)
}

// pick returns an index drawn with the given weights (not all zero).
func pick(rng *rand.Rand, wts []int) int {
	total := 0
	for _, w := range wts {
		total += w
	}
	r := rng.IntN(total)
	for i, w := range wts {
		if r < w {
			return i
		}
		r -= w
	}
	panic("unreachable")
}

func (g *gen) term(depth int) interaction.Term {
	if depth >= g.p.MaxDepth {
		return g.message()
	}
	st := g.st
	switch s := g.syms[pick(g.rng, g.wts)]; s {
	case symEmpty:
		return interaction.Empty
	case symMessage:
		return g.message()
	case symLoopS, symLoopH, symLoopW, symLoopP:
		return st.Loop(loopOps[s-symLoopS], g.term(depth+1))
	default:
		l := g.term(depth + 1)
		r := g.term(depth + 1)
		switch s {
		case symStrict:
			return st.Strict(l, r)
		case symSeq:
			return st.Seq(l, r)
		case symPar:
			return st.Par(l, r)
		case symAlt:
			return st.Alt(l, r)
		case symCoreg:
			return st.Coreg(g.lifelineSet(), l, r)
		default: // symSync
			return st.Sync(g.syncSet(l, r), l, r)
		}
	}
}

func (g *gen) lifeline() interaction.LifelineID {
	return interaction.LifelineID(g.rng.IntN(len(g.sig.Lifelines)))
}

func (g *gen) messageID() interaction.MessageID {
	return interaction.MessageID(g.rng.IntN(len(g.sig.Messages)))
}

// others returns n distinct lifelines different from a where possible.
func (g *gen) others(a interaction.LifelineID, n int) []interaction.LifelineID {
	var cand []interaction.LifelineID
	for l := range len(g.sig.Lifelines) {
		if interaction.LifelineID(l) != a {
			cand = append(cand, interaction.LifelineID(l))
		}
	}
	if len(cand) == 0 {
		cand = []interaction.LifelineID{a}
	}
	g.rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	return cand[:min(n, len(cand))]
}

// message returns a message leaf of a random kind.
func (g *gen) message() interaction.Term {
	st := g.st
	a, m := g.lifeline(), g.messageID()
	emit := interaction.MakeAction(a, interaction.Emission, m)
	switch pick(g.rng, g.msgs) {
	case 0: // passing
		b := g.others(a, 1)[0]
		return st.Strict(st.Act(emit), st.Act(interaction.MakeAction(b, interaction.Reception, m)))
	case 1: // emission
		return st.Act(emit)
	case 2: // reception
		return st.Act(interaction.MakeAction(a, interaction.Reception, m))
	case 3: // synch
		b := g.others(a, 1)[0]
		return st.Act(emit, interaction.MakeAction(b, interaction.Reception, m))
	default: // broadcast
		bc := g.others(a, 2)
		return st.Strict(st.Act(emit), st.Seq(st.Act(interaction.MakeAction(bc[0], interaction.Reception, m)),
			st.Act(interaction.MakeAction(bc[1], interaction.Reception, m))))
	}
}

// lifelineSet returns a random non-empty set of lifelines.
func (g *gen) lifelineSet() interaction.Lifelines {
	var ls interaction.Lifelines
	for l := range len(g.sig.Lifelines) {
		if g.rng.IntN(2) == 0 {
			ls = ls.Add(interaction.LifelineID(l))
		}
	}
	if ls.IsEmpty() {
		ls = ls.Add(g.lifeline())
	}
	return ls
}

// syncSet returns one or two actions to synchronize, drawn from the actions
// of the operands (so that the synchronization matters), or a random action
// when they have none.
func (g *gen) syncSet(l, r interaction.Term) interaction.MultiAction {
	var acts []interaction.Action
	g.collect(l, &acts)
	g.collect(r, &acts)
	slices.Sort(acts)
	acts = slices.Compact(acts)
	if len(acts) == 0 {
		return interaction.MultiAction{interaction.MakeAction(g.lifeline(), interaction.Kind(g.rng.IntN(2)), g.messageID())}
	}
	n := 1
	if len(acts) > 1 && g.rng.IntN(4) == 0 {
		n = 2
	}
	g.rng.Shuffle(len(acts), func(i, j int) { acts[i], acts[j] = acts[j], acts[i] })
	return interaction.NewMultiAction(acts[:n]...)
}

func (g *gen) collect(t interaction.Term, acts *[]interaction.Action) {
	st := g.st
	switch op := st.Op(t); {
	case op == interaction.OpEmpty:
	case op == interaction.OpAct:
		*acts = append(*acts, st.Action(t)...)
	case op.IsLoop():
		g.collect(st.Left(t), acts)
	default:
		g.collect(st.Left(t), acts)
		g.collect(st.Right(t), acts)
	}
}
