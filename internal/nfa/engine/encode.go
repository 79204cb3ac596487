package engine

import (
	"math/bits"
	"strings"
)

// The tables of a generated verifier are written into its source as string
// literals of a compact printable encoding, decoded once when the package
// is initialized: a number is written low 5-bit group first, one character
// per group from encodeAlphabet, the 32 bit of the character's index set
// when another group follows (numbers below 32 take one character). A value
// that may be -1 is written plus one. A set is its number of runs of
// consecutive elements, then per run the gap from the end of the previous
// run and the run's length minus one: sparse and dense sets both stay short.

// encodeAlphabet is the URL-safe base64 alphabet: no character needs
// escaping in a Go string literal.
const encodeAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// Encode returns the tables in the encoding DecodeTables reads. Only the
// data fields count (not what Prepare adds).
func (t *Tables) Encode() string {
	var e encoder
	e.num(EngineVersion)
	e.num(t.NumStates)
	e.num(len(t.Initial))
	for _, q := range t.Initial {
		e.num(int(q))
	}
	e.set(t.Final)
	e.num(len(t.Trans))
	src := 0
	for _, tr := range t.Trans {
		e.num(int(tr.Src) - src)
		e.num(int(tr.Sym))
		e.num(int(tr.Dst))
		src = int(tr.Src)
	}
	e.num(len(t.Parts))
	for _, ps := range t.Parts {
		e.num(len(ps))
		for _, p := range ps {
			e.num(p.Loc)
			e.num(int(p.Action))
		}
	}
	sw, tw := nwords(t.NumStates), nwords(len(t.Trans))
	e.num(len(t.Projs))
	for i := range t.Projs {
		p := &t.Projs[i]
		e.num(len(p.Name))
		for j := range len(p.Name) {
			e.num(int(p.Name[j]))
		}
		e.num(int(p.Base))
		e.num(p.K)
		e.dfa(&p.DFA, sw, true)
		for _, x := range p.AreaOf {
			e.num(int(x) + 1)
		}
		e.rows(p.Areas, tw)
		e.set(p.Init)
		for _, x := range p.FutureOf {
			e.num(int(x))
		}
		e.rows(p.Futures, tw)
		if p.Back == nil {
			e.num(0)
			continue
		}
		e.num(1)
		e.dfa(p.Back, sw, false)
		e.dfa(p.BackAny, sw, false)
	}
	return e.b.String()
}

// DecodeTables reads tables written by Encode, the parts of the string one
// after the other (a generated source splits it into lines), and prepares
// them.
func DecodeTables(parts ...string) (*Tables, error) {
	d := decoder{s: strings.Join(parts, "")}
	if v := d.num(); v != EngineVersion && d.err == nil {
		return nil, tablesErr("tables of engine version %d, want %d", v, EngineVersion)
	}
	t := &Tables{}
	t.NumStates = d.count(1 << 26)
	sw := nwords(t.NumStates)
	t.Initial = make([]State, d.count(t.NumStates))
	for i := range t.Initial {
		t.Initial[i] = State(d.num())
	}
	t.Final = d.set(sw)
	t.Trans = make([]Transition, d.count(d.left()))
	src := 0
	for i := range t.Trans {
		src += d.num()
		t.Trans[i] = Transition{Src: State(src), Sym: Symbol(d.num()), Dst: State(d.num())}
	}
	tw := nwords(len(t.Trans))
	t.Parts = make([][]Part, d.count(d.left()))
	for x := range t.Parts {
		ps := make([]Part, d.count(d.left()))
		for j := range ps {
			ps[j] = Part{Loc: d.num(), Action: Action(d.num())}
		}
		t.Parts[x] = ps
	}
	t.Projs = make([]Proj, d.count(d.left()))
	for i := range t.Projs {
		p := &t.Projs[i]
		name := make([]byte, d.count(d.left()))
		for j := range name {
			name[j] = byte(d.num())
		}
		p.Name = string(name)
		p.Base = Action(d.num())
		p.K = d.count(1 << 20)
		p.DFA = d.dfa(p.K, sw, true)
		p.AreaOf = make([]int32, len(p.Next))
		for e := range p.AreaOf {
			p.AreaOf[e] = int32(d.num() - 1)
		}
		p.Areas = d.rows(tw)
		p.Init = d.set(tw)
		p.FutureOf = make([]int32, p.NumStates)
		for q := range p.FutureOf {
			p.FutureOf[q] = int32(d.num())
		}
		p.Futures = d.rows(tw)
		if d.num() == 1 {
			b, a := d.dfa(p.K, sw, false), d.dfa(p.K, sw, false)
			p.Back, p.BackAny = &b, &a
		}
		if d.err != nil {
			break
		}
	}
	if d.err == nil && d.left() > 0 {
		d.err = tablesErr("%d characters after the tables", d.left())
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := t.Prepare(); err != nil {
		return nil, err
	}
	return t, nil
}

// MustDecodeTables is DecodeTables for the tables a generated verifier was
// generated with: it panics on an error, which would be a bug of the
// generator.
func MustDecodeTables(parts ...string) *Tables {
	t, err := DecodeTables(parts...)
	if err != nil {
		panic(err)
	}
	return t
}

// encoder accumulates encoded numbers.
type encoder struct{ b strings.Builder }

func (e *encoder) num(v int) {
	if v < 0 {
		panic("engine: negative number in a table")
	}
	for v >= 32 {
		e.b.WriteByte(encodeAlphabet[32|v&31])
		v >>= 5
	}
	e.b.WriteByte(encodeAlphabet[v])
}

// set encodes a bitset as runs.
func (e *encoder) set(s []uint64) {
	type run struct{ start, n int }
	var runs []run
	for k, w := range s {
		for w != 0 {
			x := k<<6 + bits.TrailingZeros64(w)
			w &= w - 1
			if n := len(runs); n > 0 && runs[n-1].start+runs[n-1].n == x {
				runs[n-1].n++
				continue
			}
			runs = append(runs, run{x, 1})
		}
	}
	e.num(len(runs))
	end := 0
	for _, r := range runs {
		e.num(r.start - end)
		e.num(r.n - 1)
		end = r.start + r.n
	}
}

// rows encodes rows of w words: their number, then each as a set.
func (e *encoder) rows(rows []uint64, w int) {
	if w == 0 {
		e.num(0)
		return
	}
	e.num(len(rows) / w)
	for r := 0; r < len(rows); r += w {
		e.set(rows[r : r+w])
	}
}

func (e *encoder) dfa(d *DFA, sw int, final bool) {
	e.num(d.NumStates)
	e.num(int(d.Start) + 1)
	for _, r := range d.Next {
		e.num(int(r) + 1)
	}
	if final {
		e.set(d.Final)
	}
	e.rows(d.Subsets, sw)
}

// decoder reads what encoder wrote; the first error sticks, and then every
// number reads as 0.
type decoder struct {
	s   string
	i   int
	err error
}

func (d *decoder) left() int { return len(d.s) - d.i }

func (d *decoder) num() int {
	v, shift := 0, 0
	for d.err == nil {
		if d.i >= len(d.s) {
			d.err = tablesErr("truncated")
			break
		}
		c := strings.IndexByte(encodeAlphabet, d.s[d.i])
		d.i++
		if c < 0 || shift > 40 {
			d.err = tablesErr("bad character at %d", d.i-1)
			break
		}
		v |= (c & 31) << shift
		shift += 5
		if c < 32 {
			return v
		}
	}
	return 0
}

// count reads a number of things, which must be at most limit.
func (d *decoder) count(limit int) int {
	n := d.num()
	if n > limit && d.err == nil {
		d.err = tablesErr("count %d past %d", n, limit)
	}
	if d.err != nil {
		return 0
	}
	return n
}

// set reads a set into w words.
func (d *decoder) set(w int) []uint64 {
	s := make([]uint64, w)
	runs := d.count(d.left())
	end := 0
	for range runs {
		start := end + d.num()
		n := d.num() + 1
		if d.err != nil {
			break
		}
		if start+n > 64*w {
			d.err = tablesErr("set element %d past %d", start+n-1, 64*w-1)
			break
		}
		for x := start; x < start+n; x++ {
			s[x>>6] |= 1 << (x & 63)
		}
		end = start + n
	}
	return s
}

func (d *decoder) rows(w int) []uint64 {
	n := d.count(d.left())
	if w == 0 {
		return nil
	}
	if n*w > 1<<28 {
		d.err = tablesErr("%d rows of %d words", n, w)
		return nil
	}
	rows := make([]uint64, 0, n*w)
	for range n {
		rows = append(rows, d.set(w)...)
	}
	return rows
}

func (d *decoder) dfa(k, sw int, final bool) DFA {
	var a DFA
	a.NumStates = d.count(d.left())
	a.Start = State(d.num() - 1)
	if int64(a.NumStates)*int64(k) > int64(d.left()) {
		d.err = tablesErr("a DFA of %d states and %d letters", a.NumStates, k)
		return a
	}
	a.Next = make([]State, a.NumStates*k)
	for e := range a.Next {
		a.Next[e] = State(d.num() - 1)
	}
	if final {
		a.Final = d.set(nwords(a.NumStates))
	}
	a.Subsets = d.rows(sw)
	if d.err == nil && len(a.Subsets) != a.NumStates*sw {
		d.err = tablesErr("a DFA of %d states with %d subsets", a.NumStates, len(a.Subsets)/max(sw, 1))
	}
	return a
}
