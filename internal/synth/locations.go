package synth

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
)

// The locations of multi-actions.
//
// A multi-trace's locations are its components, in order: groups of
// lifelines that share a clock. A symbol of the automaton is a
// multi-action; its part at a location is its restriction to the
// lifelines of that location (a <synch> message {a!m,b?m} with a and b
// apart shows a!m at a's location and b?m at b's), which is exactly what
// the location's log records. The letters of a location are the distinct
// restrictions; an event of a log that is no restriction of any symbol is
// no letter, and its location's local check gets stuck on it. This is the
// one split of an automaton's symbols into locations: the automata engine
// checks with it, and the code generator and ivc dot build their checkers
// with it (Automaton.Checker).

// Checker returns the checker of a (compiled from a term of st) for the
// locations locs: nfa.NewChecker on the alphabets of Alphabets. Its errors
// are NewChecker's (a *nfa.LimitError past opt's limits).
func (a *Automaton) Checker(st *interaction.Store, locs interaction.Locations, opt nfa.CheckerOptions) (*nfa.Checker, error) {
	alph, _ := Alphabets(st.Signature(), a.MultiActions(st), locs)
	return nfa.NewChecker(a.NFA, alph, opt)
}

// MultiActions returns the multi-action of each symbol of a, from st.
func (a *Automaton) MultiActions(st *interaction.Store) []interaction.MultiAction {
	acts := make([]interaction.MultiAction, len(a.Acts))
	for x, id := range a.Acts {
		acts[x] = st.MultiAction(id)
	}
	return acts
}

// Alphabets returns the alphabets of the symbols acts (the multi-actions
// of an automaton's symbols) at the locations locs, and the index of each
// location's letters, by which a check finds the letter of an event: a
// symbol's part at a location is its restriction to the location's
// lifelines (MultiAction.Restrict), a letter made of those actions, named by
// MultiAction.Format for printing, and given as nfa's typed actions
// (nfa.Action) for the code generator.
func Alphabets(sig *interaction.Signature, acts []interaction.MultiAction, locs interaction.Locations) (*nfa.Alphabets, []LetterIndex) {
	names := make([]string, len(locs))
	index := make([]LetterIndex, len(locs))
	for i, g := range locs {
		names[i] = "[" + g.Format(sig) + "]"
	}
	alph := nfa.NewAlphabets(names...)
	for x, m := range acts {
		for i, g := range locs {
			part := m.Restrict(g)
			if len(part) == 0 {
				continue
			}
			letter, ok := index[i].Lookup(part)
			if !ok {
				letter = alph.AddLetter(i, part.Format(sig), nfaActions(part))
				index[i].add(part, letter)
			}
			alph.See(nfa.Symbol(x), i, letter)
		}
	}
	return alph, index
}

// LetterIndex finds the letter of an event at one location: by the action
// for a one-action event (Single, a look-up per event), among the few
// multi-action letters (the <synch> messages the location sees whole) for
// the others (LookupMulti).
type LetterIndex struct {
	Single interaction.ActionTable[nfa.Letter]
	multi  []multiLetter
}

type multiLetter struct {
	m interaction.MultiAction
	x nfa.Letter
}

// Lookup returns the letter of the event ev, and false when ev is no
// letter of the location.
func (ix *LetterIndex) Lookup(ev interaction.MultiAction) (nfa.Letter, bool) {
	if len(ev) == 1 {
		return ix.Single.Get(ev[0])
	}
	return ix.LookupMulti(ev)
}

// LookupMulti is Lookup for an event of several actions.
func (ix *LetterIndex) LookupMulti(ev interaction.MultiAction) (nfa.Letter, bool) {
	for _, ml := range ix.multi {
		if slices.Equal(ml.m, ev) {
			return ml.x, true
		}
	}
	return 0, false
}

func (ix *LetterIndex) add(m interaction.MultiAction, x nfa.Letter) {
	if len(m) == 1 {
		ix.Single.Set(m[0], x)
		return
	}
	ix.multi = append(ix.multi, multiLetter{m, x})
}

// nfaActions returns the actions of m as nfa's typed actions: nfa, which
// imports nothing of ivc, has its own Action for interaction.Action, and
// this is the one place that maps the one onto the other.
func nfaActions(m interaction.MultiAction) []nfa.Action {
	out := make([]nfa.Action, len(m))
	for k, a := range m {
		out[k] = nfa.Action{Lifeline: int(a.Lifeline()), Message: int(a.Message()), Receive: a.Kind() == interaction.Reception}
	}
	return out
}
