package engine

import (
	"encoding/binary"
	"errors"
)

// LocalVerifier checks the trace of one location, online if need be: it
// walks the location's projection DFA, a table lookup per event (per word
// of up to four events when the trace comes in slices), without allocation,
// and remembers the transitions it took, whose labels make its Area, the
// summary the central check needs.
type LocalVerifier struct {
	off   []int32 // p.off, at hand for Step
	base  Action
	k     uint32
	q     int32 // the current state's row offset in p.off, -1 for none
	n     int32 // events read
	stuck int32 // events read before the walk got stuck, or -1
	m     marks
	p     *Proj
	tw    int
}

// marks remember the table entries a walk took, so that their labels are
// or-ed once each, afterwards: one bit per entry of the DFA's table and of
// its table of words, and the lists of the set bits. A list has room for
// every entry and one more: mark writes one past the last it lists.
type marks struct {
	vis, vis2   []uint64
	used, used2 []int32
}

// NewLocalVerifier returns a verifier for the trace of location loc. t must
// be prepared.
func (t *Tables) NewLocalVerifier(loc Location) *LocalVerifier {
	p := &t.Projs[loc]
	v := &LocalVerifier{off: p.off, base: p.Base, k: uint32(p.K), p: p, tw: t.tw, m: marks{
		vis: make([]uint64, nwords(len(p.off))), vis2: make([]uint64, nwords(len(p.wide))),
		used: make([]int32, 0, len(p.off)+1), used2: make([]int32, 0, len(p.wide)+1),
	}}
	v.Reset()
	return v
}

// Reset starts a new trace.
func (v *LocalVerifier) Reset() {
	m := &v.m
	for _, e := range m.used {
		m.vis[e>>6] = 0
	}
	for _, e := range m.used2 {
		m.vis2[e>>6] = 0
	}
	m.used, m.used2 = m.used[:0], m.used2[:0]
	v.n, v.stuck, v.q = 0, -1, -1
	if v.p.Start >= 0 {
		v.q = int32(v.p.Start) * int32(v.p.K)
	} else {
		v.stuck = 0 // no trace of the interaction at all
	}
}

// Step reads the next event of the trace and reports whether the trace is
// still a possible one (a prefix of a projection of an accepted trace).
// Once it has returned false, it does for every later event.
func (v *LocalVerifier) Step(a Action) bool {
	if v.stuck >= 0 {
		v.n++
		return false
	}
	x := uint32(a - v.base)
	if x >= v.k {
		v.stuck = v.n
		v.n++
		return false
	}
	i := uint32(v.q) + x
	r := v.off[i]
	if r < 0 {
		v.stuck = v.n
		v.n++
		return false
	}
	// One event at a time, an entry already taken is the common case: a
	// branch is cheaper than mark's unconditional stores.
	m := &v.m
	if w, b := m.vis[i>>6], uint64(1)<<(i&63); w&b == 0 {
		m.vis[i>>6] = w | b
		m.used = append(m.used, int32(i))
	}
	v.q = r
	v.n++
	return true
}

// StepAll reads the events of trace, as Step does for each, faster.
func (v *LocalVerifier) StepAll(trace []Action) bool {
	if len(trace) == 0 {
		return v.stuck < 0 // nothing to walk (a location not heard from)
	}
	if v.stuck >= 0 {
		v.n += int32(len(trace))
		return false
	}
	q, j := v.p.walk(trace, v.q, &v.m)
	v.q = q
	if j >= 0 {
		v.stuck = v.n + int32(j)
	}
	v.n += int32(len(trace))
	return j < 0
}

// OK reports whether the check has not got stuck.
func (v *LocalVerifier) OK() bool { return v.stuck < 0 }

// Len returns the number of events read.
func (v *LocalVerifier) Len() int { return int(v.n) }

// Stuck returns the number of events read before the check got stuck, or
// -1 when it has not.
func (v *LocalVerifier) Stuck() int { return int(v.stuck) }

// State returns the DFA state the walk is in (where it got stuck, if it
// did), or -1 when the location has no trace at all.
func (v *LocalVerifier) State() State {
	if v.q < 0 {
		return -1
	}
	if v.p.K == 0 {
		return v.p.Start
	}
	return State(v.q / int32(v.p.K))
}

// Final reports whether the trace read is exactly a projection of an
// accepted trace (not merely a prefix of one).
func (v *LocalVerifier) Final() bool { return v.stuck < 0 && v.p.IsFinal(v.State()) }

// Expected returns the actions the check could read next (at the point
// where it got stuck, if it did).
func (v *LocalVerifier) Expected() []Action { return v.p.expected(v.State()) }

// expected lists the actions DFA state q can read.
func (p *Proj) expected(q State) []Action {
	if q < 0 {
		return nil
	}
	row := p.Next[int(q)*p.K : (int(q)+1)*p.K]
	n := 0
	for _, r := range row {
		if r >= 0 {
			n++
		}
	}
	out := make([]Action, 0, n)
	for x, r := range row {
		if r >= 0 {
			out = append(out, p.Base+Action(x))
		}
	}
	return out
}

// Area returns the summary of the trace read so far.
func (v *LocalVerifier) Area() Area {
	var a Area
	v.AreaInto(&a)
	return a
}

// AreaInto sets a to the summary of the trace read so far, reusing its
// sets: without allocation once a has held an area of these tables.
func (v *LocalVerifier) AreaInto(a *Area) { v.areaInto(a, true, false) }

// areaInto is AreaInto, without the future when future is false (the
// accept mode of Check does not need it), and clearing the marks on the way
// when done is true (Check is done with the walk: Reset then has nothing
// left to clear).
func (v *LocalVerifier) areaInto(a *Area, future, done bool) {
	v.areaHead(a)
	v.areaSets(a, future, done)
}

// areaSets is areaInto without areaHead: the sets of the area.
func (v *LocalVerifier) areaSets(a *Area, future, done bool) {
	p := v.p
	a.Exact, a.Future = resize(a.Exact, v.tw), resize(a.Future, v.tw)
	p.collect(a.Exact, &v.m, v.tw, done)
	if !future {
		return
	}
	copy(a.Future, a.Exact)
	if q := a.End; q >= 0 {
		x := int(p.FutureOf[q]) * v.tw
		orInto(a.Future, p.Futures[x:x+v.tw])
	}
}

// areaHead sets the area's fields but its sets: what the walk read, and
// where it ended.
func (v *LocalVerifier) areaHead(a *Area) {
	a.Len, a.Stuck, a.End, a.Final = v.n, v.stuck, v.State(), v.Final()
}

// collect sets area to init or-ed with the labels of the entries m marked:
// Area(trace) of Definition 8. An entry of the table of words has the label
// of its whole word. With clear, it also clears the marks.
func (p *Proj) collect(area []uint64, m *marks, tw int, clear bool) {
	copy(area, p.Init)
	labels := p.labels
	for _, i := range m.used {
		x := int(p.AreaOf[i]) * tw
		orInto(area, labels[x:x+tw])
		if clear {
			m.vis[i>>6] = 0
		}
	}
	for _, i := range m.used2 {
		x := int(p.labelOf[i]) * tw
		orInto(area, labels[x:x+tw])
		if clear {
			m.vis2[i>>6] = 0
		}
	}
	if clear {
		m.used, m.used2 = m.used[:0], m.used2[:0]
	}
}

// walk reads trace from the state of row offset q (-1: none) and returns
// the row offset of the state reached (where it got stuck, if it did) and
// the number of events read before it got stuck, or -1. It is the local
// check's hot loop: one table lookup per word of w events (Proj.wide) and
// per event left, and one bit per table entry to remember the transitions
// taken.
func (p *Proj) walk(trace []Action, q int32, m *marks) (int32, int) {
	if q < 0 {
		if len(trace) > 0 {
			return q, 0
		}
		return q, -1
	}
	k := uint32(p.K)
	j := 0
	if p.wide != nil {
		q, j = p.walkWide(trace, q, m)
	}
	base, off, vis := p.Base, p.off, m.vis
	used := m.used[:cap(m.used)]
	n := len(m.used)
	if len(trace)-j > 4*len(off) {
		// A trace much longer than the table takes the same entries
		// over and over: a predictable branch beats mark's stores.
		for ; j < len(trace); j++ {
			x := uint32(trace[j] - base)
			if x >= k {
				break
			}
			i := uint32(q) + x
			r := off[i]
			if r < 0 {
				break
			}
			if w, b := vis[i>>6], uint64(1)<<(i&63); w&b == 0 {
				vis[i>>6] = w | b
				used[n] = int32(i)
				n++
			}
			q = r
		}
	} else {
		for ; j < len(trace); j++ {
			x := uint32(trace[j] - base)
			if x >= k {
				break
			}
			i := uint32(q) + x
			r := off[i]
			if r < 0 {
				break
			}
			n = mark(vis, used, n, i)
			q = r
		}
	}
	m.used = used[:n]
	if j < len(trace) {
		return q, j
	}
	return q, -1
}

// mark sets bit i of vis and lists i at used[n] if the bit was clear; it
// returns the new length of the list. It has no branch: a walk's first
// visits are too irregular to predict. used must have room at n.
func mark(vis []uint64, used []int32, n int, i uint32) int {
	x := vis[i>>6]
	vis[i>>6] = x | 1<<(i&63)
	used[n] = int32(i)
	return n + int(^x>>(i&63)&1)
}

// walkWide reads the longest prefix of trace it can in words of w letters
// on Proj.wide, from the state of row offset q in off, marking the entries
// it takes in m.vis2 and m.used2, and returns the row offset in off of the
// state reached and the number of letters read.
func (p *Proj) walkWide(trace []Action, q int32, m *marks) (int32, int) {
	wide, w, k := p.wide, p.w, uint32(p.K)
	kw := uint32(len(wide) / p.NumStates)
	o := q / int32(k) * int32(kw) // the current state's row offset in wide
	base, vis := p.Base, m.vis2
	used := m.used2[:cap(m.used2)]
	n, j := len(m.used2), 0
	// The steps for w = 2, 3 and 4 differ only in how they read the word.
	switch w {
	case 2:
		for ; j+2 <= len(trace); j += 2 {
			a, b := uint32(trace[j]-base), uint32(trace[j+1]-base)
			if a >= k || b >= k {
				break
			}
			i := uint32(o) + a*k + b
			r := wide[i]
			if r < 0 {
				break
			}
			n = mark(vis, used, n, i)
			o = r
		}
	case 3:
		for ; j+3 <= len(trace); j += 3 {
			a, b, c := uint32(trace[j]-base), uint32(trace[j+1]-base), uint32(trace[j+2]-base)
			if a >= k || b >= k || c >= k {
				break
			}
			i := uint32(o) + (a*k+b)*k + c
			r := wide[i]
			if r < 0 {
				break
			}
			n = mark(vis, used, n, i)
			o = r
		}
	case 4:
		for ; j+4 <= len(trace); j += 4 {
			a, b, c, d := uint32(trace[j]-base), uint32(trace[j+1]-base), uint32(trace[j+2]-base), uint32(trace[j+3]-base)
			if a >= k || b >= k || c >= k || d >= k {
				break
			}
			i := uint32(o) + ((a*k+b)*k+c)*k + d
			r := wide[i]
			if r < 0 {
				break
			}
			n = mark(vis, used, n, i)
			o = r
		}
	}
	m.used2 = used[:n]
	return o / int32(kw/k), j
}

// Area is what a location's local check tells the central check: how far it
// read, whether it got stuck, where it ended, and its areas (the transitions
// of the NFA its trace may use). It is a few words, which a machine can ship
// to a central checker (MarshalBinary).
type Area struct {
	// Exact is Area(μi) of the paper: the init label and the labels of the
	// DFA transitions taken.
	Exact []uint64
	// Future is Exact with the transitions reachable from the state the
	// walk ended in: what a multi-prefix may still use (Prefix mode).
	Future []uint64
	// Len is the number of events read, Stuck the number read before the
	// check got stuck (-1 if it did not).
	Len, Stuck int32
	// End is the DFA state the walk ended in (where it got stuck, if it
	// did), -1 for none.
	End State
	// Final tells whether the walk ended in a final state of the DFA.
	Final bool
}

// MarshalBinary encodes the area: Len, Stuck, End, Final, the number of
// words of each set, then the sets.
func (a *Area) MarshalBinary() ([]byte, error) {
	if len(a.Exact) != len(a.Future) {
		return nil, errors.New("area: sets of different sizes")
	}
	b := make([]byte, 0, 17+16*len(a.Exact))
	b = binary.LittleEndian.AppendUint32(b, uint32(a.Len))
	b = binary.LittleEndian.AppendUint32(b, uint32(a.Stuck))
	b = binary.LittleEndian.AppendUint32(b, uint32(a.End))
	if a.Final {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(a.Exact)))
	for _, w := range a.Exact {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	for _, w := range a.Future {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b, nil
}

// UnmarshalBinary decodes an area encoded by MarshalBinary.
func (a *Area) UnmarshalBinary(b []byte) error {
	if len(b) < 17 || b[12] > 1 {
		return errors.New("area: bad encoding")
	}
	w := binary.LittleEndian.Uint32(b[13:])
	if uint64(len(b)) != 17+16*uint64(w) {
		return errors.New("area: bad encoding")
	}
	a.Len = int32(binary.LittleEndian.Uint32(b))
	a.Stuck = int32(binary.LittleEndian.Uint32(b[4:]))
	a.End = State(binary.LittleEndian.Uint32(b[8:]))
	a.Final = b[12] == 1
	a.Exact, a.Future = resize(a.Exact, int(w)), resize(a.Future, int(w))
	for k := range a.Exact {
		a.Exact[k] = binary.LittleEndian.Uint64(b[17+8*k:])
		a.Future[k] = binary.LittleEndian.Uint64(b[17+8*(int(w)+k):])
	}
	return nil
}
