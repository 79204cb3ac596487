package synth

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// nfaWords returns the words of length at most k accepted by a, formatted
// as the reference package formats traces ("a!m.{b?m,c?m}", "ε"), sorted.
func nfaWords(a *nfa.NFA, k int) []string {
	seen := map[string]bool{}
	var word []string
	var rec func(set []nfa.State)
	rec = func(set []nfa.State) {
		for _, q := range set {
			if a.IsFinal(q) {
				w := strings.Join(word, ".")
				if w == "" {
					w = "ε"
				}
				seen[w] = true
				break
			}
		}
		if len(word) == k {
			return
		}
		next := map[nfa.Symbol][]nfa.State{}
		for _, q := range set {
			for _, t := range a.Out(q) {
				next[t.Sym] = append(next[t.Sym], t.Dst)
			}
		}
		syms := make([]nfa.Symbol, 0, len(next))
		for x := range next {
			syms = append(syms, x)
		}
		slices.Sort(syms)
		for _, x := range syms {
			s := next[x]
			slices.Sort(s)
			word = append(word, a.Symbols().Name(x))
			rec(slices.Compact(s))
			word = word[:len(word)-1]
		}
	}
	rec(a.Initial())
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// nfaPrefixes calls f with every word of length at most k that leads
// somewhere in a (a prefix of an accepted word when a is trimmed), with the
// set of states it leads to, in depth-first order; f returns false to stop.
func nfaPrefixes(a *nfa.NFA, k int, f func(word []nfa.Symbol, set []nfa.State) bool) {
	var word []nfa.Symbol
	var rec func(set []nfa.State) bool
	rec = func(set []nfa.State) bool {
		if !f(word, set) {
			return false
		}
		if len(word) == k {
			return true
		}
		next := map[nfa.Symbol][]nfa.State{}
		for _, q := range set {
			for _, t := range a.Out(q) {
				next[t.Sym] = append(next[t.Sym], t.Dst)
			}
		}
		syms := make([]nfa.Symbol, 0, len(next))
		for x := range next {
			syms = append(syms, x)
		}
		slices.Sort(syms)
		for _, x := range syms {
			s := next[x]
			slices.Sort(s)
			word = append(word, x)
			ok := rec(slices.Compact(s))
			word = word[:len(word)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	if len(a.Initial()) > 0 {
		rec(a.Initial())
	}
}

// semanticsWords returns the traces of length at most k of t by the
// operational semantics alone (Frontier and Step, no automaton), formatted
// and sorted as nfaWords.
func semanticsWords(st *interaction.Store, t interaction.Term, k int) []string {
	seen := map[string]bool{}
	var word []string
	var rec func(t interaction.Term)
	rec = func(t interaction.Term) {
		if st.Nullable(t) {
			w := strings.Join(word, ".")
			if w == "" {
				w = "ε"
			}
			seen[w] = true
		}
		if len(word) == k {
			return
		}
		for i, n := 0, st.NumFrontier(t); i < n; i++ {
			word = append(word, st.MultiAction(st.FrontierAct(t, i)).Format(st.Signature()))
			rec(st.Step(t, i))
			word = word[:len(word)-1]
		}
	}
	rec(t)
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// randomWord draws a random word of a from a random walk that stops in a
// final state with probability stop (or when it cannot go on), or returns
// nil if the walk reaches maxLen, or a dead end, first.
func randomWord(a *nfa.NFA, rng *rand.Rand, maxLen int, stop float64) []nfa.Symbol {
	init := a.Initial()
	if len(init) == 0 {
		return nil
	}
	q := init[rng.IntN(len(init))]
	word := []nfa.Symbol{}
	for {
		out := a.Out(q)
		if a.IsFinal(q) && (len(out) == 0 || rng.Float64() < stop) {
			return word
		}
		if len(out) == 0 || len(word) == maxLen {
			return nil
		}
		t := out[rng.IntN(len(out))]
		word = append(word, t.Sym)
		q = t.Dst
	}
}

// events maps a word of a back to multi-actions of st (the symbols' typed
// Acts).
func events(st *interaction.Store, a *Automaton, word []nfa.Symbol) []interaction.MultiAction {
	out := make([]interaction.MultiAction, len(word))
	for i, x := range word {
		out[i] = st.MultiAction(a.Acts[x])
	}
	return out
}

// acceptor runs the runtime engine in accept mode on global traces: one
// [#all] component holding every lifeline.
type acceptor struct {
	a   *rewrite.Analyzer
	all interaction.Lifelines
}

func newAcceptor(st *interaction.Store, root interaction.Term) *acceptor {
	return &acceptor{a: rewrite.New(st, root, rewrite.Options{Mode: verdict.Accept}), all: st.Signature().AllLifelines()}
}

func (ac *acceptor) accepts(tr []interaction.MultiAction) (bool, verdict.Result) {
	mt := multitrace.MultiTrace{Components: []multitrace.Component{{Lifelines: ac.all, Trace: tr}}}
	r := ac.a.Check(&mt)
	return r.Verdict == verdict.Pass, r
}

// diff returns the elements of a missing from b (both sorted), marked.
func diff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, "only in first: "+x)
		}
	}
	return out
}

// compileNFA is Compile's reduced NFA.
func compileNFA(st *interaction.Store, root interaction.Term, opt Options) (*nfa.NFA, error) {
	a, err := Compile(st, root, opt)
	if err != nil {
		return nil, err
	}
	return a.NFA, nil
}
