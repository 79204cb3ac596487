package synth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
)

// The sublanguage of the compiled path.
//
// loopS(i) is a Kleene star: its derivatives are strict(i′, loopS(i)) for
// derivatives i′ of i, finitely many. loopW, loopH and loopP let an
// iteration begin before the previous ones are over, and then the number of
// pending iterations may be unbounded: loopW(a -- m -> b) is the language
// of words over {a!m, b?m} in which b never received more than a sent, a
// Dyck language, which no finite automaton recognizes. Whether such a loop
// has finitely many derivatives depends on its body (loopW(seq(a!m, a!n))
// is (a!m.a!n)*), so the check is the synthesis itself: when it terminates,
// the finitely many derivatives it found are the proof. Unbounded overlap
// shows as derivative terms that grow (one more pending iteration per
// unfolding); the synthesis gives up when a term outgrows a bound
// proportional to the interaction, or holds more copies of one operand than
// the interaction explains (see copies), and blames the innermost weak loop
// whose own synthesis does the same. The check is sound, not complete: a few
// regular loops have infinitely many derivatives all the same, e.g.
// loopP(alt(strict(a!m,a!n), alt(a!m,a!n))), every word over {a!m, a!n};
// they are rejected too, and the runtime engine handles them.

// LoopError rejects an interaction whose loop is outside the sublanguage of
// the compiled path.
type LoopError struct {
	File      string // the interaction's file, when known
	Line, Col int    // the loop's position in File; 0 when unknown
	Path      string // the loop's position in the term: "" the root, then 1 (left operand or loop body) or 2 (right operand) per level
	Op        interaction.Op
	Loop      string // the loop in operator form, shortened
}

func (e *LoopError) Error() string {
	var b strings.Builder
	switch {
	case e.Line > 0:
		file := e.File
		if file == "" {
			file = "<input>"
		}
		fmt.Fprintf(&b, "%s:%d:%d: ", file, e.Line, e.Col)
	case e.File != "":
		fmt.Fprintf(&b, "%s: ", e.File)
	}
	fmt.Fprintf(&b, "%s is outside the compilable sublanguage: its iterations can overlap without bound, "+
		"so it has infinitely many derivatives (its traces are usually not a regular language): %s", e.Op, e.Loop)
	if e.Line == 0 {
		path := e.Path
		if path == "" {
			path = "ε"
		}
		fmt.Fprintf(&b, " at term position %s", path)
	}
	b.WriteString("; use 'ivc analyze' (the runtime engine) for this interaction")
	return b.String()
}

func isWeakLoop(op interaction.Op) bool {
	return op == interaction.OpLoopW || op == interaction.OpLoopH || op == interaction.OpLoopP
}

type loopAt struct {
	t         interaction.Term
	path      string
	underSync bool // some occurrence is inside a sync
}

// weakLoops returns the distinct loopW/loopH/loopP subterms of t with the
// position of their first occurrence, inner loops before the loops around
// them.
func weakLoops(st *interaction.Store, t interaction.Term) []loopAt {
	var out []loopAt
	index := map[interaction.Term]int{} // loop -> its index in out
	type visit struct {
		t    interaction.Term
		sync bool
	}
	seen := map[visit]bool{}
	var walk func(t interaction.Term, path []byte, sync bool)
	walk = func(t interaction.Term, path []byte, sync bool) {
		if seen[visit{t, sync}] {
			return
		}
		seen[visit{t, sync}] = true
		op := st.Op(t)
		switch {
		case op.IsLoop():
			walk(st.Left(t), append(path, '1'), sync)
			if isWeakLoop(op) {
				if i, ok := index[t]; ok {
					out[i].underSync = out[i].underSync || sync
				} else {
					index[t] = len(out)
					out = append(out, loopAt{t, string(path), sync})
				}
			}
		case op.IsBinary():
			sync = sync || op == interaction.OpSync
			walk(st.Left(t), append(path, '1'), sync)
			walk(st.Right(t), append(path, '2'), sync)
		}
	}
	walk(t, nil, false)
	return out
}

// precheckStates is the number of states after which a synthesis with
// weak loops checks them alone, and the state budget of each such check.
const precheckStates = 4096

// precheck synthesizes each weak loop of root alone (inner loops first),
// with its own growth bounds and a budget of precheckStates, and rejects
// root as soon as one of them grows without bound. The whole synthesis
// calls it once it has passed precheckStates states: when pending
// iterations of several kinds multiply the states of a derivative term
// before it grows large, a loop alone shows its growth much sooner. A
// loop's derivatives are among those of the interaction around it when the
// loop is reached at all and no sync blocks its actions, so loops inside a
// sync are left to the whole synthesis. The bounds are those the loop
// would have as an interaction of its own (a regular loop's derivatives
// stay within them, as any interaction's): root's, larger, let a loop
// that grows pile up its pending iterations through the whole budget
// unseen, and the whole synthesis then run on to root's bounds (one
// interaction of the lifeline-removal corpus: 11,542 states and 14 ms
// rather than 4,096 and 5 ms).
func (s *synth) precheck(root interaction.Term) error {
	for _, l := range weakLoops(s.st, root) {
		if l.underSync || l.t == root {
			continue
		}
		p := &synth{st: s.st, opt: Options{MaxStates: precheckStates}, pileMemo: s.pileMemo, limiter: s.limiter}
		p.boundBy(l.t)
		_, err := p.run(l.t)
		p.release()
		var le *nfa.LimitError
		switch {
		case errors.As(err, &le):
			return err
		case err != nil:
			if _, grow := err.(*growthError); grow {
				return s.loopError(l)
			}
		}
	}
	return nil
}

// pile measures how pending iterations pile up in a term: copies is the
// largest number of times one operand occurs in a flattened strict, seq or
// par, and width the largest number of operands of one.
type pile struct{ copies, width int32 }

// pile returns the pile of t. Pending iterations of a weak loop whose
// derivatives are infinitely many pile up as operands of a strict, seq or
// par (seq(b?m, seq(b?m, loopW(a -- m -> b))) after a!m.a!m), while the
// derivatives of the regular loops seen in practice hold a few more than
// the interaction has: more copies or operands than the interaction has,
// with a margin, is taken as unbounded growth long before the size bound.
func (s *synth) pile(t interaction.Term) pile {
	if int(t) < len(s.pileMemo) && s.pileMemo[t].copies != 0 {
		return s.pileMemo[t]
	}
	st := s.st
	op := st.Op(t)
	m := pile{1, 1}
	switch {
	case op.IsLoop():
		m = s.pile(st.Left(t))
	case op == interaction.OpStrict || op == interaction.OpSeq || op == interaction.OpPar:
		if p, ok := s.chainPile(op, t); ok {
			m = p
			break
		}
		var buf [16]interaction.Term
		xs := operands(st, op, t, buf[:0])
		m.width = int32(len(xs))
		for i, x := range xs {
			n := int32(0)
			for _, y := range xs[:i+1] {
				if y == x {
					n++
				}
			}
			sub := s.pile(x)
			m = pile{max(m.copies, n, sub.copies), max(m.width, sub.width)}
		}
	case op.IsBinary():
		l, r := s.pile(st.Left(t)), s.pile(st.Right(t))
		m = pile{max(l.copies, r.copies), max(l.width, r.width)}
	}
	if int(t) >= len(s.pileMemo) {
		s.pileMemo = append(s.pileMemo, make([]pile, max(int(t)+1, 2*len(s.pileMemo), 64)-len(s.pileMemo))...)
	}
	s.pileMemo[t] = m
	return m
}

// operands appends to dst the operands of the tree of op at t (nested either
// way), t itself when its root is another operator.
func operands(st *interaction.Store, op interaction.Op, t interaction.Term, dst []interaction.Term) []interaction.Term {
	if st.Op(t) != op {
		return append(dst, t)
	}
	dst = operands(st, op, st.Left(t), dst)
	return operands(st, op, st.Right(t), dst)
}

// chainPile is the pile of a chain t of op (strict, seq or par) nested to
// the right, as canonical terms are, from the pile of the rest of the chain:
// the chain is its head x and the rest's operands, so that x's copies are
// one more than in the rest, and the other operands' copies are counted in
// the rest's pile. It is false when t is not nested so (its head is an op
// or the rest's operands have op heads): pile flattens it then.
func (s *synth) chainPile(op interaction.Op, t interaction.Term) (pile, bool) {
	st := s.st
	x, rest := st.Left(t), st.Right(t)
	if st.Op(x) == op {
		return pile{}, false
	}
	copies, width := int32(1), int32(1)
	r := rest
	for ; st.Op(r) == op; r = st.Right(r) {
		y := st.Left(r)
		if st.Op(y) == op {
			return pile{}, false
		}
		if y == x {
			copies++
		}
		width++
	}
	if r == x {
		copies++
	}
	width++
	pr, px := s.pile(rest), s.pile(x)
	return pile{max(copies, pr.copies, px.copies), max(width, pr.width, px.width)}, true
}

// grows reports whether the derivative t is taken as the sign of an
// unbounded loop.
func (s *synth) grows(t interaction.Term) bool {
	if s.st.NumActions(t) > s.bound {
		return true
	}
	p := s.pile(t)
	return p.copies > s.maxPile.copies || p.width > s.maxPile.width
}

// growthBound is the size, in action leaves, past which a derivative of t is
// taken as growing without bound. A derivative of a regular weak loop holds
// at most a few copies of each loop around it (the loop, its pruned copy and
// the unfolded iteration), so its size is within a small factor of t's per
// level of loop nesting.
func growthBound(st *interaction.Store, t interaction.Term) int {
	return 32 + 4*st.NumActions(t)*(1+loopDepth(st, t))
}

// loopDepth returns the largest number of loops nested in t.
func loopDepth(st *interaction.Store, t interaction.Term) int {
	return loopDepthIn(st, t, make([]int32, st.Len()))
}

// loopDepthIn is loopDepth with the results memoized in memo (by term:
// depth+1, 0 when unknown).
func loopDepthIn(st *interaction.Store, t interaction.Term, memo []int32) int {
	if d := memo[t]; d != 0 {
		return int(d - 1)
	}
	op := st.Op(t)
	d := 0
	switch {
	case op.IsLoop():
		d = 1 + loopDepthIn(st, st.Left(t), memo)
	case op.IsBinary():
		d = max(loopDepthIn(st, st.Left(t), memo), loopDepthIn(st, st.Right(t), memo))
	}
	memo[t] = int32(d + 1)
	return d
}

// blameStates bounds the synthesis of each loop alone when looking for the
// culprit of a failed synthesis.
const blameStates = 20_000

// blame returns the LoopError of a synthesis of root that grew without
// bound: the first weak loop (inner loops first) whose own synthesis grows
// too, or else the outermost weak loop.
func blame(st *interaction.Store, root interaction.Term, opt Options) error {
	loops := weakLoops(st, root)
	culprit := loops[len(loops)-1]
	for _, l := range loops {
		s := newSynth(st, Options{MaxStates: min(opt.maxStates(), blameStates)}, l.t)
		// Past the budget of the whole synthesis, a loop is not blamed.
		s.limiter = nfa.NewLimiter("NFA synthesis", opt.Deadline, opt.MaxMemory)
		if _, err := s.run(l.t); err != nil {
			if _, grow := err.(*growthError); grow {
				culprit = l
				break
			}
		}
	}
	return (&synth{st: st, opt: opt}).loopError(culprit)
}

// loopError returns the LoopError of the loop l, located in the source
// when the options give the syntax tree.
func (s *synth) loopError(l loopAt) error {
	st := s.st
	e := &LoopError{File: s.opt.File, Path: l.path, Op: st.Op(l.t), Loop: shorten(st.Format(l.t), 80)}
	if s.opt.Syntax != nil {
		if n := findLoop(st, s.opt.File, s.opt.Syntax, l.t); n != nil {
			e.Line, e.Col = n.Pos.Line, n.Pos.Col
		}
	}
	return e
}

// findLoop returns the first loop node of the syntax tree n (in source
// order) that resolves to the term loop: terms are hash-consed, so
// resolving a node again gives the id the whole interaction used.
func findLoop(st *interaction.Store, file string, n *interaction.Node, loop interaction.Term) *interaction.Node {
	if n.Kind == interaction.NodeLoop && n.Op == st.Op(loop) {
		if t, err := st.Resolve(file, n); err == nil && (t == loop || st.Simplify(t) == st.Simplify(loop)) {
			return n
		}
	}
	for _, a := range n.Args {
		if r := findLoop(st, file, a, loop); r != nil {
			return r
		}
	}
	return nil
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
