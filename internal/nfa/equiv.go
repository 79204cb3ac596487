package nfa

import (
	"encoding/binary"
	"slices"
)

// Equivalent reports whether a and b accept the same words, comparing
// symbols by name (their symbol tables may differ). When they do not, it
// returns a shortest word (as symbol names) accepted by exactly one of them.
// It explores the product of their subset constructions, so it may take
// time exponential in the sizes of the automata; it is meant for tests and
// for checking transformations.
func Equivalent(a, b *NFA) (bool, []string) {
	// The union of the alphabets, with each name's symbol in a and in b.
	var names []string
	symA, symB := map[string]Symbol{}, map[string]Symbol{}
	for x, n := range a.syms.names {
		symA[n] = Symbol(x)
		names = append(names, n)
	}
	for x, n := range b.syms.names {
		symB[n] = Symbol(x)
		if _, ok := symA[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	type pair struct {
		sa, sb []State
		parent int32
		via    int32 // index in names
	}
	var pairs []pair
	index := map[string]int32{}
	var key []byte
	visit := func(sa, sb []State, parent, via int32) {
		key = key[:0]
		key = binary.LittleEndian.AppendUint32(key, uint32(len(sa)))
		for _, q := range sa {
			key = binary.LittleEndian.AppendUint32(key, uint32(q))
		}
		for _, q := range sb {
			key = binary.LittleEndian.AppendUint32(key, uint32(q))
		}
		if _, ok := index[string(key)]; ok {
			return
		}
		index[string(key)] = int32(len(pairs))
		pairs = append(pairs, pair{sa, sb, parent, via})
	}
	visit(a.initial, b.initial, -1, -1)
	anyFinal := func(n *NFA, s []State) bool {
		for _, q := range s {
			if n.IsFinal(q) {
				return true
			}
		}
		return false
	}
	step := func(n *NFA, s []State, x Symbol, ok bool) []State {
		if !ok {
			return nil
		}
		var out []State
		for _, q := range s {
			for _, t := range n.Out(q) {
				if t.Sym == x {
					out = append(out, t.Dst)
				}
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for i := 0; i < len(pairs); i++ {
		p := pairs[i]
		if anyFinal(a, p.sa) != anyFinal(b, p.sb) {
			var word []string
			for j := int32(i); pairs[j].parent >= 0; j = pairs[j].parent {
				word = append(word, names[pairs[j].via])
			}
			slices.Reverse(word)
			return false, word
		}
		for k, n := range names {
			xa, okA := symA[n]
			xb, okB := symB[n]
			sa, sb := step(a, p.sa, xa, okA), step(b, p.sb, xb, okB)
			if len(sa) > 0 || len(sb) > 0 {
				visit(sa, sb, int32(i), int32(k))
			}
		}
	}
	return true, nil
}
