package nfa

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/ivc-project/ivc/internal/nfa/engine"
	"github.com/ivc-project/ivc/internal/testutil"
)

// The experiment of the automata paper's §5 (Table 1): for each of four
// AutomatArk NFAs, split its letters at random among 3 locations (one
// subsystem each) and check sets of multi-traces of length 200–250, one set
// per verdict kind, by AC (Algorithm 1) and AS (Algorithms 2–3).
//
// Benchmark one set at a time:
//
//	go test ./nfa -run '^$' -bench 'Table1' -benchtime 3x
//
// or print the table, our seconds per set beside the paper's:
//
//	go run ./internal/cmd/benchtable -table1

// paperTable1 are the paper's seconds per set (i7-13800H), AC and AS, with
// the set sizes it used. The paper prints NFA2's size as 35 states and
// NFA3's as 15: the files say the reverse.
var paperTable1 = map[string]map[string]struct {
	n      int
	ac, as float64
}{
	"nfa1": {
		"Pass": {1000, 0.1255524, 9.323158}, "LocalError": {196, 0.00071156, 0.00140382},
		"InterError": {2004, 0.00852422, 0.13879746}, "CentralError": {910, 1.33229162, 50.15003662},
		"AllTypes": {1000, 0.1127796, 7.99077106},
	},
	"nfa2": {
		"Pass": {1000, 0.0991647, 9.3375662}, "LocalError": {1339, 4.06846654, 0.16494372},
		"InterError": {1569, 0.00463964, 0.03992106}, "CentralError": {358, 0.22848372, 9.56081716},
		"AllTypes": {1000, 1.40773182, 4.801491},
	},
	"nfa3": {
		"Pass": {1000, 0.0991545, 9.1013433}, "LocalError": {2017, 0.16728364, 0.00017134},
		"InterError": {1569, 0.0117915, 0.01007384}, "CentralError": {1015, 0.00620678, 25.0345444},
		"AllTypes": {1000, 0.08015528, 2.69461402},
	},
	"nfa4": {
		"Pass": {1000, 0.5123971, 9.9814967}, "LocalError": {1971, 0.6600194, 0.31546424},
		"InterError": {949, 0.14561072, 0.0489298}, "CentralError": {1114, 0.2744528, 29.05818554},
		"AllTypes": {1000, 0.39412858, 3.02697582},
	},
}

// table1Seed fixes the letter partitions and the multi-traces.
const table1Seed = 2025

// table1Full asks loadTable1 for sets as large as the paper's.
const table1Full = 1 << 20

// table1Set is one set of multi-traces of one verdict kind.
type table1Set struct {
	kind string
	mts  [][][]Letter
}

func (s table1Set) events() int {
	n := 0
	for _, mt := range s.mts {
		for _, tr := range mt {
			n += len(tr)
		}
	}
	return n
}

type table1NFA struct {
	name string
	c    *Checker
	sets []table1Set
}

var (
	table1Mu   sync.Mutex
	table1Sets = map[int][]*table1NFA{} // by size
)

// loadTable1 reads nfa1..4.timbuk and generates their sets (once per size
// and test binary): as many multi-traces per kind as the paper's Table 1
// has, or at most size.
func loadTable1(t testing.TB, size int) []*table1NFA {
	dir := filepath.Join(testutil.Shared(t), "benchmarks", "automatark")
	table1Mu.Lock()
	defer table1Mu.Unlock()
	if data, ok := table1Sets[size]; ok {
		return data
	}
	var data []*table1NFA
	for k, name := range []string{"nfa1", "nfa2", "nfa3", "nfa4"} {
		src, err := os.ReadFile(filepath.Join(dir, name+".timbuk"))
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseTimbuk(name+".timbuk", src)
		if err != nil {
			t.Fatal(err)
		}
		locs := RandomAlphabets(a.Symbols(), 3, table1Seed+uint64(k))
		c, err := NewChecker(a, locs, CheckerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g := newGenerator(c, rand.New(rand.NewPCG(table1Seed, uint64(k))))
		sizes := map[string]int{}
		for kind, p := range paperTable1[name] {
			sizes[kind] = min(p.n, size)
		}
		data = append(data, &table1NFA{name: name, c: c, sets: g.sets(sizes)})
	}
	table1Sets[size] = data
	return data
}

// generator draws multi-traces as §5 describes: Pass from random accepting
// words of A projected on the locations; LocalError by mutating letters of
// a correct multi-trace; InterError by mixing the local traces of several
// correct ones; CentralError from a correct word with a cycle iterated a
// different number of times for each location. Every multi-trace is kept
// only if its length is in [200, 250] and AS gives it the set's verdict.
type generator struct {
	c   *Checker
	rng *rand.Rand
	// canEnd[r] holds the states with an accepting path of exactly r
	// transitions.
	canEnd []Bits
}

const minLen, maxLen = 200, 250

func newGenerator(c *Checker, rng *rand.Rand) *generator {
	a := c.a
	g := &generator{c: c, rng: rng}
	end := make(Bits, nwords(a.n))
	for q := range State(a.n) {
		if a.IsFinal(q) {
			end.set(int(q))
		}
	}
	g.canEnd = append(g.canEnd, end)
	for r := 1; r <= maxLen+8; r++ {
		prev, cur := g.canEnd[r-1], make(Bits, nwords(a.n))
		for _, t := range a.trans {
			if prev.Has(int(t.Dst)) {
				cur.set(int(t.Src))
			}
		}
		g.canEnd = append(g.canEnd, cur)
	}
	return g
}

// word returns a random accepting path of exactly n transitions (as
// transition indices), or nil.
func (g *generator) word(n int) []int32 {
	a := g.c.a
	var starts []State
	for _, q := range a.initial {
		if g.canEnd[n].Has(int(q)) {
			starts = append(starts, q)
		}
	}
	if len(starts) == 0 {
		return nil
	}
	q := starts[g.rng.IntN(len(starts))]
	path := make([]int32, 0, n)
	var choice []int32
	for r := n; r > 0; r-- {
		choice = choice[:0]
		for t := a.out[q]; t < a.out[q+1]; t++ {
			if g.canEnd[r-1].Has(int(a.trans[t].Dst)) {
				choice = append(choice, t)
			}
		}
		t := choice[g.rng.IntN(len(choice))]
		path = append(path, t)
		q = a.trans[t].Dst
	}
	return path
}

// project splits a path into its multi-trace.
func (g *generator) project(path []int32) [][]Letter {
	mt := make([][]Letter, g.c.locs.Num())
	for _, t := range path {
		for _, p := range g.c.locs.Parts(g.c.a.trans[t].Sym) {
			mt[p.Loc] = append(mt[p.Loc], p.Letter)
		}
	}
	return mt
}

func mtLen(mt [][]Letter) int {
	n := 0
	for _, tr := range mt {
		n += len(tr)
	}
	return n
}

func (g *generator) correct() [][]Letter {
	for range 1000 {
		if p := g.word(minLen + g.rng.IntN(maxLen-minLen+1)); p != nil {
			return g.project(p)
		}
	}
	return nil
}

func cloneMT(mt [][]Letter) [][]Letter {
	out := make([][]Letter, len(mt))
	for i, tr := range mt {
		out[i] = slices.Clone(tr)
	}
	return out
}

// localError mutates a correct multi-trace: one to three letters of one
// location replaced by random letters of that location.
func (g *generator) localError() [][]Letter {
	mt := g.correct()
	if mt == nil {
		return nil
	}
	mt = cloneMT(mt)
	i := g.rng.IntN(len(mt))
	k := len(g.c.locs.Letters(i))
	if len(mt[i]) == 0 || k < 2 {
		return nil
	}
	for range 1 + g.rng.IntN(3) {
		j := g.rng.IntN(len(mt[i]))
		mt[i][j] = Letter(g.rng.IntN(k))
	}
	return mt
}

// interError takes each location's trace from a different correct
// multi-trace.
func (g *generator) interError(pool [][][]Letter) [][]Letter {
	mt := make([][]Letter, g.c.locs.Num())
	for i := range mt {
		mt[i] = pool[g.rng.IntN(len(pool))][i]
	}
	return mt
}

// centralError finds a cycle in a correct word and iterates it a different
// number of times for each location.
func (g *generator) centralError() [][]Letter {
	a := g.c.a
	p := g.word(minLen - 20 + g.rng.IntN(maxLen-minLen))
	if p == nil {
		return nil
	}
	// A cycle: positions i < j where the path visits the same state.
	at := func(k int) State {
		if k == 0 {
			return a.trans[p[0]].Src
		}
		return a.trans[p[k-1]].Dst
	}
	var cycles [][2]int
	last := map[State]int{}
	for k := 0; k <= len(p); k++ {
		if i, ok := last[at(k)]; ok && k-i <= 12 {
			cycles = append(cycles, [2]int{i, k})
		}
		last[at(k)] = k
	}
	if len(cycles) == 0 {
		return nil
	}
	cy := cycles[g.rng.IntN(len(cycles))]
	u, v, z := p[:cy[0]], p[cy[0]:cy[1]], p[cy[1]:]
	mt := make([][]Letter, g.c.locs.Num())
	base := 1 + g.rng.IntN(3)
	for i := range mt {
		k := base + g.rng.IntN(3) - 1
		w := slices.Clone(u)
		for range k {
			w = append(w, v...)
		}
		w = append(w, z...)
		mt[i] = g.project(w)[i]
	}
	return mt
}

// sets draws the five sets, of sizes[kind] multi-traces each (fewer when a
// kind is too rare: the attempts are bounded).
func (g *generator) sets(sizes map[string]int) []table1Set {
	var pass [][][]Letter
	for len(pass) < sizes["Pass"] {
		if mt := g.correct(); mt != nil {
			pass = append(pass, mt)
		} else {
			break
		}
	}
	keep := func(kind Reason, draw func() [][]Letter) [][][]Letter {
		size := sizes[kind.String()]
		var out [][][]Letter
		for try := 0; len(out) < size && try < 40*size; try++ {
			mt := draw()
			if mt == nil || mtLen(mt) < minLen || mtLen(mt) > maxLen {
				continue
			}
			if r := g.c.CheckAS(mt, Accept); r.Verdict == Fail && r.Reason == kind {
				out = append(out, mt)
			}
		}
		return out
	}
	local := keep(LocalError, g.localError)
	inter := keep(InterError, func() [][]Letter { return g.interError(pass) })
	// The paper's cycle iteration gives no CentralError on these NFAs (none
	// in about 1,200 draws on each): their cycles are self-loops, or loops
	// of a state that reads a whole sub-alphabet in any order, which accept
	// any counts. Half the draws mix local traces instead (AS tells which
	// mixes are central errors). So our CentralError sets are not the
	// paper's: on nfa3, AC takes 1.4 ms per multi-trace on ours, 6 µs on
	// the paper's.
	central := keep(CentralError, func() [][]Letter {
		if g.rng.IntN(2) == 0 {
			return g.centralError()
		}
		return g.interError(pass)
	})
	var all [][][]Letter
	kinds := [][][][]Letter{pass, local, inter, central}
	for len(all) < sizes["AllTypes"] {
		k := kinds[g.rng.IntN(len(kinds))]
		if len(k) > 0 {
			all = append(all, k[g.rng.IntN(len(k))])
		}
	}
	return []table1Set{{"Pass", pass}, {"LocalError", local}, {"InterError", inter}, {"CentralError", central}, {"AllTypes", all}}
}

// TestTable1Verdicts checks the generated sets: AS gives each multi-trace
// its set's verdict, and AC agrees on Pass against Fail (a sample of them
// without -tags sweep: 60 per set, and of the LocalError and AllTypes sets
// one in ten for AC, which explores up to 500,000 interleavings on a local
// error of nfa1).
func TestTable1Verdicts(t *testing.T) {
	t.Parallel()
	size := 10 // multi-traces per set; the sweep checks all 1000
	if testutil.Sweep() {
		size = 1000
	}
	for _, d := range loadTable1(t, size) {
		for _, s := range d.sets {
			for k, mt := range s.mts {
				as := d.c.CheckAS(mt, Accept)
				if s.kind != "AllTypes" && (s.kind == "Pass") != (as.Verdict == Pass) || s.kind != "Pass" && s.kind != "AllTypes" && as.Reason.String() != s.kind {
					t.Errorf("%s %s #%d: AS %s", d.name, s.kind, k, as)
				}
				slowAC := s.kind == "LocalError" || s.kind == "AllTypes"
				if !slowAC || k%10 == 0 || testutil.Sweep() {
					if ac := d.c.CheckAC(mt, Accept); (as.Verdict == Pass) != (ac.Verdict == Pass) {
						t.Errorf("%s %s #%d: AS %s, AC %s\n%s", d.name, s.kind, k, as, ac, FormatLetterTraces(d.c.locs, mt))
					}
				}
				if np := d.c.withoutPruning(t).CheckAS(mt, Accept); np.String() != as.String() {
					t.Errorf("%s %s #%d: AS %s, without pruning %s", d.name, s.kind, k, as, np)
				}
				// Stopping at the first failing location: the same verdict,
				// and one of the failing locations.
				fe := d.c.stopAtFirstLocalError(t).CheckAS(mt, Accept)
				if fe.Verdict != as.Verdict || fe.Reason != as.Reason ||
					as.Reason == LocalError && (len(fe.Locals) != 1 || !slices.ContainsFunc(as.Locals, func(f LocalFailure) bool { return f.Loc == fe.Locals[0].Loc && f.Pos == fe.Locals[0].Pos })) {
					t.Errorf("%s %s #%d: AS %s, stopping at the first local error %s", d.name, s.kind, k, as, fe)
				}
			}
		}
	}
}

var noPruning sync.Map // *Checker -> *Checker

func (c *Checker) withoutPruning(t testing.TB) *Checker {
	if np, ok := noPruning.Load(c); ok {
		return np.(*Checker)
	}
	np, err := NewChecker(c.a, c.locs, CheckerOptions{NoPruning: true})
	if err != nil {
		t.Fatal(err)
	}
	noPruning.Store(c, np)
	return np
}

var firstError sync.Map // *Checker -> *Checker

// stopAtFirstLocalError returns c with FirstLocalError: AS as Algorithm 2
// runs it, returning at the first failing location.
func (c *Checker) stopAtFirstLocalError(t testing.TB) *Checker {
	if fe, ok := firstError.Load(c); ok {
		return fe.(*Checker)
	}
	fe, err := NewChecker(c.a, c.locs, CheckerOptions{FirstLocalError: true})
	if err != nil {
		t.Fatal(err)
	}
	firstError.Store(c, fe)
	return fe
}

// BenchmarkTable1 checks each set by AC and by AS (stopping at the first
// failing location, as Algorithm 2 does); one op is one whole set.
// It reports seconds per set (s/set), events/s, and the paper's better time
// for that set divided by ours (×paper).
func BenchmarkTable1(b *testing.B) {
	for _, d := range loadTable1(b, table1Full) {
		for _, s := range d.sets {
			for _, proc := range []string{"AC", "AS"} {
				b.Run(fmt.Sprintf("%s/%s/%s", d.name, s.kind, proc), func(b *testing.B) {
					check := d.c.stopAtFirstLocalError(b).CheckAS
					if proc == "AC" {
						check = d.c.CheckAC
					}
					for b.Loop() {
						for _, mt := range s.mts {
							check(mt, Accept)
						}
					}
					sec := b.Elapsed().Seconds() / float64(b.N)
					paper := paperTable1[d.name][s.kind]
					b.ReportMetric(sec, "s/set")
					b.ReportMetric(float64(s.events())/sec, "events/s")
					b.ReportMetric(min(paper.ac, paper.as)/sec, "×paper")
					b.ReportMetric(float64(len(s.mts)), "MTs")
				})
			}
		}
	}
}

// BenchmarkLocalCheck measures the local checks alone (Algorithm 2: the
// walk on each location's projection DFA and its area) on the Pass sets.
func BenchmarkLocalCheck(b *testing.B) {
	for _, d := range loadTable1(b, table1Full) {
		set := d.sets[0]
		b.Run(d.name, func(b *testing.B) {
			tb := d.c.Tables()
			vs := make([]*engine.LocalVerifier, tb.NumLocations())
			areas := make([]engine.Area, len(vs))
			for i := range vs {
				vs[i] = tb.NewLocalVerifier(engine.Location(i))
			}
			for b.Loop() {
				for _, mt := range set.mts {
					for i, v := range vs {
						v.Reset()
						v.StepAll(mt[i])
						v.AreaInto(&areas[i])
					}
				}
			}
			b.ReportMetric(float64(set.events())*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
