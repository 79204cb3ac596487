package synth

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
)

// DefaultMaxStates bounds the states of a synthesis when Options.MaxStates
// is 0.
const DefaultMaxStates = 1 << 20

// Options configure Synthesize and Compile. The zero value is usable.
type Options struct {
	// MaxStates bounds the number of derivative states (0 means
	// DefaultMaxStates). Exceeding it is an error, never a silent cut.
	MaxStates int
	// Deadline and MaxMemory bound the synthesis (and Compile's
	// reduction): the zero Time is no deadline; MaxMemory is in bytes, 0
	// for nfa.DefaultMaxMemory, negative for no bound. They count the
	// automaton under construction and the terms and caches the synthesis
	// adds to the Store. Past them, the synthesis fails with a
	// *nfa.LimitError.
	Deadline  time.Time
	MaxMemory int64
	// Labels labels each state with its term (Store.Format), for DOT export
	// and dumps. It costs a string per state.
	Labels bool
	// File and Syntax locate the interaction's source, so that a rejected
	// loop is reported at its file:line:col. Both are optional.
	File   string
	Syntax *interaction.Node

	// raw turns canonical rewriting off (tests compare with it).
	raw bool
}

func (o Options) maxStates() int {
	if o.MaxStates > 0 {
		return o.MaxStates
	}
	return DefaultMaxStates
}

// Automaton is the result of Synthesize: the derivative NFA of an
// interaction and what its states and symbols stand for.
type Automaton struct {
	// NFA has one state per canonical derivative term; state 0 is the
	// initial state, a state is final when its term accepts the empty trace,
	// and each transition executes one frontier element of its source term.
	NFA *nfa.NFA
	// Terms[q] is the canonical term of state q, in the Store given to
	// Synthesize.
	Terms []interaction.Term
	// Acts[x] is the multi-action of symbol x: the symbols are typed, their
	// names (MultiAction.Format) are for printing only.
	Acts []interaction.ActID
}

// Synthesize builds the NFA of root whose language is exactly the traces of
// root (a term of st), by derivatives: the canonical form of root is the
// initial state; for every state t and every frontier element of t,
// executing the element gives a transition labelled by its (multi-)action
// to the canonical form of the result. Canonical rewriting (see
// interaction.Store.Canonical) merges derivatives that differ only in shape,
// so the NFA is small without a minimization.
//
// Synthesize checks the sublanguage of the compiled path on the way (see
// LoopError): the derivatives of loopS are always finitely many, those of
// loopW, loopH and loopP only when their iterations cannot pile up without
// bound. A synthesis whose terms keep growing fails with a *LoopError naming
// the offending loop, one that exceeds Options.MaxStates with a
// *StateLimitError, and one that passes Options.Deadline or MaxMemory with a
// *nfa.LimitError: it never runs forever, nor out of memory.
func Synthesize(st *interaction.Store, root interaction.Term, opt Options) (*Automaton, error) {
	a, _, err := synthesize(st, root, opt)
	return a, err
}

// synthesize is Synthesize, and returns the budget of opt with what the
// synthesis used of it, for the stages after it.
func synthesize(st *interaction.Store, root interaction.Term, opt Options) (*Automaton, *nfa.Limiter, error) {
	s := newSynth(st, opt, root)
	s.limiter = nfa.NewLimiter("NFA synthesis", opt.Deadline, opt.MaxMemory)
	a, err := s.run(root)
	var le *nfa.LimitError
	switch {
	case err == nil:
		return a, s.limiter, nil
	case errors.As(err, &le):
		le.File = opt.File
	case isGrowth(err):
		return nil, nil, blame(st, root, opt)
	}
	return nil, nil, err
}

func isGrowth(err error) bool {
	_, grow := err.(*growthError)
	return grow
}

// Compile returns the reduced automaton of root: Synthesize, then
// nfa.Reduce (bisimulation quotients), within the same bounds. The
// reduction keeps the symbols, so Acts are the synthesis's; Terms is nil (a
// reduced state merges several derivatives). With opt.Labels, a state of
// the reduced NFA is labelled with the term of the first derivative state
// it merges.
func Compile(st *interaction.Store, root interaction.Term, opt Options) (*Automaton, error) {
	a, b, err := synthesize(st, root, opt)
	if err != nil {
		return nil, err
	}
	b.SetStage("NFA reduction")
	err = b.Alloc(a.NFA.ReduceBytes())
	if err == nil {
		err = b.Check()
	}
	if err != nil {
		err.(*nfa.LimitError).File = opt.File
		return nil, err
	}
	return &Automaton{NFA: a.NFA.Reduce(), Acts: a.Acts}, nil
}

// Word maps a global trace (a sequence of multi-actions of st) to the
// symbols of the automaton; ok is false when an event is no symbol of it
// (no trace of the interaction has it).
func (a *Automaton) Word(st *interaction.Store, trace []interaction.MultiAction) (word []nfa.Symbol, ok bool) {
	word = make([]nfa.Symbol, len(trace))
	for i, ev := range trace {
		x := slices.IndexFunc(a.Acts, func(id interaction.ActID) bool { return slices.Equal(st.MultiAction(id), ev) })
		if x < 0 {
			return nil, false
		}
		word[i] = nfa.Symbol(x)
	}
	return word, true
}

// StateLimitError reports a synthesis stopped by Options.MaxStates.
type StateLimitError struct {
	Max int
}

func (e *StateLimitError) Error() string {
	return fmt.Sprintf("NFA synthesis stopped at %d states (raise it with --max-states, or use the runtime engine: ivc analyze --engine runtime)", e.Max)
}

// growthError is the internal signal that derivative terms grew past the
// size bound of a weak loop; Synthesize turns it into a *LoopError.
type growthError struct{}

func (e *growthError) Error() string { return "derivative terms grow without bound" }

// synth is one synthesis run.
type synth struct {
	st  *interaction.Store
	opt Options

	// bound is the size (in action leaves) past which a derivative is taken
	// as the sign of an unbounded loop, and maxPile the most pending
	// iterations a derivative may hold (see pile); 0 when root has no weak
	// loop.
	bound    int
	maxPile  pile
	pileMemo []pile // by Term: its pile, {0, 0} until computed
	// precheckAt is the number of states at which the synthesis of root
	// pauses to check its weak loops alone (see precheck); 0 for never.
	precheckAt int

	// budget bounds the time and memory of the synthesis; accounted is
	// what the synthesis reported to it so far, and bytes0 the
	// Store's footprint when it started.
	limiter   *nfa.Limiter
	accounted int64
	bytes0    int64

	// The automaton under construction (see run).
	root    interaction.Term
	b       *nfa.Builder
	terms   []interaction.Term  // the term of each state
	ntrans  int                 // the transitions added to b
	row     []nfa.Transition    // the transitions of the state being explored
	acts    []interaction.ActID // the multi-action of each symbol
	stateOf []int32             // by Term: state+1, 0 when none
	symOf   []int32             // by ActID: symbol+1, 0 when none
	// names holds the latest names of symbols one after the other: each
	// name is a substring of it (see name).
	names strings.Builder
}

// newSynth prepares the synthesis of root: with weak loops, the growth
// bounds come from root.
func newSynth(st *interaction.Store, opt Options, root interaction.Term) *synth {
	s := &synth{st: st, opt: opt}
	if st.HasWeakLoop(root) {
		s.boundBy(root)
		s.precheckAt = precheckStates
	}
	return s
}

// boundBy sets the growth bounds of a synthesis of t (see grows).
func (s *synth) boundBy(t interaction.Term) {
	s.bound = growthBound(s.st, t)
	p := s.pile(s.st.Canonical(t))
	s.maxPile = pile{2*p.copies + 6, 2*p.width + 8}
}

// run explores the derivatives of root, the term of the initial state: the
// states are numbered in the order they are found, and state i's
// transitions are added when i is explored, in frontier order.
func (s *synth) run(root interaction.Term) (*Automaton, error) {
	st := s.st
	s.root = root
	s.bytes0 = st.Bytes()
	// About a state per term of the interaction, to start with.
	n := st.Len()
	s.b = nfa.NewBuilder()
	s.b.Grow(n, 2*n)
	s.terms = make([]interaction.Term, 0, n)
	s.acts = make([]interaction.ActID, 0, 16)
	nstate, nsym := termRoom(n), st.NumActIDs()+8
	ids := make([]int32, nstate+nsym)
	s.stateOf, s.symOf = ids[:nstate:nstate], ids[nstate:]

	if s.opt.raw {
		root = st.Simplify(root)
	}
	q0, err := s.state(s.canon(root))
	if err != nil {
		return nil, err
	}
	s.b.Initial(q0)
	for i := 0; i < len(s.terms); i++ {
		t := s.terms[i]
		// The transitions of state i, without duplicates: several
		// frontier elements often execute the same action into the same
		// term (the copies of a message in a par).
		s.row = s.row[:0]
		for k, n := 0, st.NumFrontier(t); k < n; k++ {
			if err := s.limiter.Tick(); err != nil {
				return nil, err
			}
			act, next := st.Successor(t, k)
			x := s.symbol(act)
			q, err := s.state(s.canon(next))
			if err != nil {
				return nil, err
			}
			s.row = append(s.row, nfa.Transition{Src: nfa.State(i), Sym: x, Dst: q})
		}
		if len(s.row) > 1 {
			slices.SortFunc(s.row, func(a, b nfa.Transition) int {
				return cmp.Or(cmp.Compare(a.Sym, b.Sym), cmp.Compare(a.Dst, b.Dst))
			})
			s.row = slices.Compact(s.row)
		}
		for _, tr := range s.row {
			s.b.Transition(tr.Src, tr.Sym, tr.Dst)
		}
		s.ntrans += len(s.row)
	}
	if err := s.account(); err != nil {
		return nil, err
	}
	return &Automaton{NFA: s.b.Build(), Terms: s.terms, Acts: s.acts}, nil
}

// stateBytes is about what a state of the automaton under construction
// costs the synthesis besides its term: its finality, its term, its entry in
// the table of states by term, and its slot in the built NFA's tables.
const stateBytes = 1 + 4 + 8 + 8

// account reports to the budget the memory the synthesis holds now: its
// automaton, and what it added to the Store.
func (s *synth) account() error {
	b := s.st.Bytes() - s.bytes0 + int64(len(s.terms))*stateBytes + int64(s.ntrans)*12 +
		4*int64(len(s.stateOf)+len(s.symOf))
	if s.opt.Labels {
		b += int64(len(s.terms)) * 64 // a term's label: a string of a few dozen bytes
	}
	err := s.limiter.Alloc(b - s.accounted)
	s.accounted = b
	return err
}

// release returns what the synthesis reported to its limiter: a synthesis
// of a loop alone (see precheck) shares the budget of the whole one.
func (s *synth) release() {
	s.limiter.Free(s.accounted)
	s.accounted = 0
}

// canon returns the canonical form of t (t itself without canonical
// rewriting).
func (s *synth) canon(t interaction.Term) interaction.Term {
	if s.opt.raw {
		return t
	}
	return s.st.Canonical(t)
}

// termRoom is the initial size of a table indexed by the terms of a store
// of n terms, before the synthesis adds its own: twice n, and n again up to
// 64 more (the tables grow when they must).
func termRoom(n int) int { return 2*n + min(n, 64) }

// accountEvery is the number of states between two reports of the
// synthesis's memory to its budget.
const accountEvery = 16

// state returns the state of the canonical term t, adding it when t is new
// (after the checks of the sublanguage and of the state limit).
func (s *synth) state(t interaction.Term) (nfa.State, error) {
	if int(t) < len(s.stateOf) && s.stateOf[t] != 0 {
		return nfa.State(s.stateOf[t] - 1), nil
	}
	maxStates := s.opt.maxStates()
	if len(s.terms) >= maxStates {
		return 0, &StateLimitError{Max: maxStates}
	}
	if len(s.terms)%accountEvery == 0 {
		if err := s.account(); err != nil {
			return 0, err
		}
	}
	if s.precheckAt > 0 && len(s.terms) == s.precheckAt {
		if err := s.precheck(s.root); err != nil {
			return 0, err
		}
	}
	if s.bound > 0 && s.grows(t) {
		return 0, &growthError{}
	}
	st := s.st
	q := s.b.State(st.Nullable(t))
	if s.opt.Labels {
		s.b.SetLabel(q, st.Format(t))
	}
	s.terms = append(s.terms, t)
	if int(t) >= len(s.stateOf) {
		s.stateOf = append(s.stateOf, make([]int32, max(int(t)+1, 2*len(s.stateOf))-len(s.stateOf))...)
	}
	s.stateOf[t] = int32(q) + 1
	return q, nil
}

// symbol returns the symbol of the multi-action id: symbols are found by
// id, and named by MultiAction.Format for printing.
func (s *synth) symbol(id interaction.ActID) nfa.Symbol {
	if int(id) < len(s.symOf) && s.symOf[id] != 0 {
		return nfa.Symbol(s.symOf[id] - 1)
	}
	var buf [64]byte
	x := s.b.AddSymbol(s.name(s.st.MultiAction(id).AppendFormat(buf[:0], s.st.Signature())))
	if int(id) >= len(s.symOf) {
		s.symOf = append(s.symOf, make([]int32, int(id)+1-len(s.symOf))...)
	}
	s.symOf[id] = int32(x) + 1
	s.acts = append(s.acts, id) // symbol x: distinct ids are distinct multi-actions
	return x
}

// name returns the string of the symbol name b, a substring of s.names, so
// that a name costs no allocation of its own. When s.names is full, a new
// builder takes over, twice as large: the names given so far keep the old
// one's bytes, which nothing writes again (a strings.Builder never changes
// the bytes it has written).
func (s *synth) name(b []byte) string {
	if s.names.Cap()-s.names.Len() < len(b) {
		size := 12*s.st.NumActIDs() + 16 // the first one: names are about that long
		if c := s.names.Cap(); c > 0 {
			size = 2 * c
		}
		s.names = strings.Builder{}
		s.names.Grow(max(size, len(b)))
	}
	start := s.names.Len()
	s.names.Write(b)
	return s.names.String()[start:]
}
