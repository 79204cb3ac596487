package infer

import (
	"slices"
	"strconv"
	"strings"
)

// A unit is a letter of the words that sessions become: an item, or a
// loop over a word of units (found in a session's word by folding).
type unit struct {
	item item
	body []int // a loop's, nil for an item
}

// alphabet interns the units of a run, so that words compare as integers.
type alphabet struct {
	units []unit
	index map[string]int
}

func newAlphabet() *alphabet { return &alphabet{index: map[string]int{}} }

func (a *alphabet) intern(key string, u unit) int {
	if id, ok := a.index[key]; ok {
		return id
	}
	a.units = append(a.units, u)
	a.index[key] = len(a.units) - 1
	return len(a.units) - 1
}

// itemUnit returns the unit of it.
func (a *alphabet) itemUnit(it item) int {
	return a.intern("i"+strconv.Itoa(it.from)+","+strconv.Itoa(it.to)+","+strconv.Itoa(int(it.msg)), unit{item: it})
}

// loopUnit returns the unit of a loop over body; a loop over one loop is
// that loop.
func (a *alphabet) loopUnit(body []int) int {
	if len(body) == 1 && a.units[body[0]].body != nil {
		return body[0]
	}
	return a.intern("l"+wordKey(body), unit{body: slices.Clone(body)})
}

func wordKey(w []int) string {
	var b strings.Builder
	for _, u := range w {
		b.WriteString(strconv.Itoa(u))
		b.WriteByte(' ')
	}
	return b.String()
}

// maxPeriod bounds the length of the blocks folded into loops: the folding
// costs a session's length times its square.
const maxPeriod = 32

// fold returns w with each block repeated back to back (u u ... u, twice or
// more) replaced by a loop over it, the shortest blocks first, again until
// none is left (a loop's iterations may themselves repeat, making nested
// loops).
func (a *alphabet) fold(w []int) []int {
	for changed := true; changed; {
		changed = false
		for p := 1; p <= maxPeriod && 2*p <= len(w); p++ {
			out := w[:0:0]
			for i := 0; i < len(w); {
				k := 1
				for i+(k+1)*p <= len(w) && slices.Equal(w[i:i+p], w[i+k*p:i+(k+1)*p]) {
					k++
				}
				if k == 1 {
					out = append(out, w[i])
					i++
					continue
				}
				out = append(out, a.loopUnit(w[i:i+p]))
				i += k * p
				changed = true
			}
			w = out
		}
	}
	return w
}

// generalize replaces, in w, the blocks that are the body of a loop of the
// alphabet (found in any session) by that loop, and a loop next to itself
// by one loop: a session of one iteration then has the shape of those of
// several.
func (a *alphabet) generalize(w []int) []int {
	var loops []int
	for id, u := range a.units {
		if u.body != nil {
			loops = append(loops, id)
		}
	}
	// Longer bodies first: a loop over a block holds the loops of its
	// parts.
	slices.SortStableFunc(loops, func(x, y int) int { return len(a.units[y].body) - len(a.units[x].body) })
	for _, l := range loops {
		body := a.units[l].body
		out := w[:0:0]
		for i := 0; i < len(w); {
			switch {
			case i+len(body) <= len(w) && slices.Equal(w[i:i+len(body)], body):
				i += len(body)
			case w[i] == l:
				i++
			default:
				out = append(out, w[i])
				i++
				continue
			}
			if len(out) == 0 || out[len(out)-1] != l {
				out = append(out, l)
			}
		}
		w = out
	}
	return w
}

// expr is the draft as it is built: a unit, or a seq, alt or loop of
// exprs; a nil expr is ∅.
type expr struct {
	unit int  // a unit's, when args is nil and loop is false
	alt  bool // alt of args, else seq of args
	loop bool // a loop over args[0]
	args []*expr
}

// merger merges the words of the sessions into one expr.
type merger struct {
	a *alphabet
	// maxBranches bounds the branches of one alt; past it, the words
	// become a loop over the alt of their units (Widened counts it).
	maxBranches int
	widened     int
}

// merge returns an expr that accepts every word of words (distinct): the
// words' common prefix, then an alt of their middles, grouped by their
// first unit (each group merged again: its own common prefix), one
// branch ∅ when a word is the prefix and suffix alone, then their common
// suffix.
func (m *merger) merge(words [][]int) *expr {
	switch len(words) {
	case 0:
		return nil
	case 1:
		return m.seq(words[0], nil, nil)
	}
	shortest := len(words[0])
	for _, w := range words {
		shortest = min(shortest, len(w))
	}
	p := 0
	for p < shortest && all(words, func(w []int) bool { return w[p] == words[0][p] }) {
		p++
	}
	s := 0
	last := func(w []int) int { return w[len(w)-1-s] }
	for p+s < shortest && all(words, func(w []int) bool { return last(w) == last(words[0]) }) {
		s++
	}
	var groups [][][]int
	first := map[int]int{} // unit → its group
	empty := false
	for _, w := range words {
		mid := w[p : len(w)-s]
		if len(mid) == 0 {
			empty = true
			continue
		}
		g, ok := first[mid[0]]
		if !ok {
			g = len(groups)
			first[mid[0]] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], mid)
	}
	var middle *expr
	if len(groups) > m.maxBranches {
		middle = m.widen(groups)
	} else {
		alt := &expr{alt: true}
		for _, g := range groups {
			alt.args = append(alt.args, m.merge(g))
		}
		switch {
		case empty && len(alt.args) == 1 && alt.args[0].loop:
			middle = alt.args[0] // a loop has no iteration too
		case empty:
			alt.args = append(alt.args, nil)
			middle = alt
		case len(alt.args) == 1:
			middle = alt.args[0]
		default:
			middle = alt
		}
	}
	w := words[0]
	return m.seq(w[:p], middle, w[len(w)-s:])
}

// widen returns a loop over the alt of the units of the words of groups:
// it accepts them all, and more, in a size bounded by their units.
func (m *merger) widen(groups [][][]int) *expr {
	var units []int
	for _, g := range groups {
		for _, w := range g {
			units = append(units, w...)
		}
	}
	return m.loopOver(units)
}

// loopOver returns a loop over the alt of the distinct items of units
// (those of the loops among them included), and counts a widening.
func (m *merger) loopOver(units []int) *expr {
	m.widened++
	alt := &expr{alt: true}
	seen := map[int]bool{}
	var add func(u int)
	add = func(u int) {
		if body := m.a.units[u].body; body != nil {
			for _, v := range body {
				add(v)
			}
			return
		}
		if !seen[u] {
			seen[u] = true
			alt.args = append(alt.args, &expr{unit: u})
		}
	}
	for _, u := range units {
		add(u)
	}
	if len(alt.args) == 1 {
		return &expr{loop: true, args: alt.args}
	}
	return &expr{loop: true, args: []*expr{alt}}
}

// arrows counts the items of e: the size of the draft.
func arrows(e *expr) int {
	if e == nil {
		return 0
	}
	if e.args == nil {
		return 1
	}
	n := 0
	for _, x := range e.args {
		n += arrows(x)
	}
	return n
}

// shrink widens the largest alts of e, each into a loop over its items,
// until e has at most max arrows (or no alt but alts of single arrows is
// left), and returns it.
func (m *merger) shrink(e *expr, max int) *expr {
	for arrows(e) > max {
		var biggest **expr
		size := 0
		var find func(p **expr)
		find = func(p **expr) {
			x := *p
			if x == nil || x.args == nil {
				return
			}
			if x.alt && !leaves(x) {
				if n := arrows(x); n > size {
					biggest, size = p, n
				}
			}
			for i := range x.args {
				find(&x.args[i])
			}
		}
		find(&e)
		if biggest == nil {
			return e
		}
		*biggest = m.loopOver(m.items(*biggest, nil))
	}
	return e
}

// leaves reports whether the operands of e are all items: an alt of
// arrows, which widening would not make smaller.
func leaves(e *expr) bool {
	for _, x := range e.args {
		if x == nil || x.args != nil {
			return false
		}
	}
	return true
}

// items appends the units of the items of e to us.
func (m *merger) items(e *expr, us []int) []int {
	switch {
	case e == nil:
	case e.args == nil:
		us = append(us, e.unit)
	default:
		for _, x := range e.args {
			us = m.items(x, us)
		}
	}
	return us
}

// seq returns the seq of the units of prefix, then middle (nil: none),
// then the units of suffix, flattened.
func (m *merger) seq(prefix []int, middle *expr, suffix []int) *expr {
	s := &expr{}
	for _, u := range prefix {
		s.args = append(s.args, m.unit(u))
	}
	if middle != nil {
		if !middle.alt && !middle.loop && middle.args != nil {
			s.args = append(s.args, middle.args...)
		} else {
			s.args = append(s.args, middle)
		}
	}
	for _, u := range suffix {
		s.args = append(s.args, m.unit(u))
	}
	switch len(s.args) {
	case 0:
		return nil
	case 1:
		return s.args[0]
	}
	return s
}

// unit returns the expr of the unit u: an item, or a loop over its body.
func (m *merger) unit(u int) *expr {
	body := m.a.units[u].body
	if body == nil {
		return &expr{unit: u}
	}
	b := m.seq(body, nil, nil)
	return &expr{loop: true, args: []*expr{b}}
}

func all(words [][]int, f func([]int) bool) bool {
	for _, w := range words {
		if !f(w) {
			return false
		}
	}
	return true
}
