package rewrite

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// arrows is the interaction par(a1 -- m -> b1, par(a2 -- m -> b2, ...)) of n
// independent messages, right-nested, and the multi-trace where each
// lifeline is a component that logs its action, b_n twice (a Fail, which a
// search without partial order reduction finds by exploring all 3^n
// interleavings).
func arrows(t testing.TB, n int) (*interaction.Store, interaction.Term, *multitrace.MultiTrace) {
	t.Helper()
	var ls, comps []string
	for i := 1; i <= n; i++ {
		ls = append(ls, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i))
		comps = append(comps, fmt.Sprintf("[a%d] a%d!m", i, i), fmt.Sprintf("[b%d] b%d?m", i, i))
	}
	comps[len(comps)-1] += fmt.Sprintf(".b%d?m", n)
	st := storeOf(t, strings.Join(ls, ","), "m")
	u := st.Strict(st.MustParseTerm(fmt.Sprintf("a%d!m", n)), st.MustParseTerm(fmt.Sprintf("b%d?m", n)))
	for i := n - 1; i >= 1; i-- {
		u = st.Par(st.Strict(st.MustParseTerm(fmt.Sprintf("a%d!m", i)), st.MustParseTerm(fmt.Sprintf("b%d?m", i))), u)
	}
	return st, st.Simplify(u), mtOf(t, st.Signature(), strings.Join(comps, "; "))
}

// TestMemoryLimit: the memory budget stops a search that the node budget
// would let grow for long, with Inconc and a reason that
// names the limit and how to raise it; a budget large enough changes
// nothing.
func TestMemoryLimit(t *testing.T) {
	st, u, mt := arrows(t, 11)
	opts := Options{MaxMemory: 8 << 20}
	res := New(st, u, opts).Check(mt)
	if res.Verdict != verdict.Inconc || res.Reason != verdict.Memory ||
		!strings.Contains(res.Detail, "8 MiB") || !strings.Contains(res.Detail, "--max-memory") {
		t.Fatalf("par of 11 arrows, 8 MiB: %s (%s: %s), want Inconc at the memory limit", res.Verdict, res.Reason, res.Detail)
	}
	if res.Text() != res.Detail || res.Reason.String() != "MemoryLimit" || !res.Reason.Limit() {
		t.Errorf("Text %q, reason %q", res.Text(), res.Reason)
	}
	st, u, mt = arrows(t, 7)
	for _, max := range []int64{0, 1 << 30} {
		if res := New(st, u, Options{MaxMemory: max}).Check(mt); res.Verdict != verdict.Fail || res.Nodes != 3*3*3*3*3*3*3 {
			t.Errorf("par of 7 arrows, MaxMemory %d: %s (%s) after %d vertices, want Fail after 3^7", max, res.Verdict, res.Text(), res.Nodes)
		}
	}
}

// TestMemoryLimitRenews: an analyzer stopped at its memory budget goes on
// with a fresh store, and answers the next multi-traces as before.
func TestMemoryLimitRenews(t *testing.T) {
	st, u, mt := arrows(t, 10)
	small := mtOf(t, st.Signature(), "[a1] a1!m; [b1] b1?m")
	a := New(st, u, Options{MaxMemory: 4 << 20})
	if res := a.Check(mt); res.Reason != verdict.Memory {
		t.Fatalf("%s (%s), want Inconc at the memory limit", res.Verdict, res.Text())
	}
	for range 3 {
		if res := a.Check(small); res.Verdict != verdict.WeakPass {
			t.Errorf("then a multi-prefix: %s (%s)", res.Verdict, res.Text())
		}
		if a.st == st || a.st.Bytes() > 1<<20 {
			t.Errorf("after the memory limit, the analyzer keeps a store of %d bytes", a.st.Bytes())
		}
	}
}

// TestWideParLimits: a very wide par makes each
// frontier quadratic: the memory and time budgets stop its computation.
func TestWideParLimits(t *testing.T) {
	t.Parallel()
	n, budget := 1500, int64(8<<20) // the sweep: 3000 arrows, 32 MiB
	if testutil.Sweep() {
		n, budget = 3000, 32<<20
	}
	st, u, mt := arrows(t, n)
	a := New(st, u, Options{POR: true, LOC: true, MaxMemory: budget})
	base := a.st.Bytes()
	res := a.Check(mt)
	if res.Verdict != verdict.Inconc || res.Reason != verdict.Memory || res.Nodes > 1 {
		t.Errorf("par of %d arrows, %d bytes: %s (%s) after %d vertices", n, budget, res.Verdict, res.Text(), res.Nodes)
	}
	// The frontiers computed for the root alone take n²/2 elements of 16
	// bytes (18 MB at 1500, 72 MB at 3000): the budget stops their
	// computation.
	if grown := a.st.Bytes() - base; grown > budget+budget/8 {
		t.Errorf("par of %d arrows, %d bytes: the store grew by %d bytes", n, budget, grown)
	}
	// The time budget is checked there too: a search whose deadline has
	// passed before the root's frontiers are computed stops computing them
	// (at the first chunk of frontier elements), whatever the load of the
	// machine.
	st, u, mt = arrows(t, n)
	a = New(st, u, Options{POR: true, LOC: true, Timeout: time.Nanosecond})
	base = a.st.Bytes()
	res = a.Check(mt)
	if res.Verdict != verdict.Inconc || res.Reason != verdict.Timeout || res.Nodes > 1 {
		t.Errorf("par of %d arrows, 1 ns: %s (%s) after %d vertices", n, res.Verdict, res.Text(), res.Nodes)
	}
	if grown := a.st.Bytes() - base; grown > 4<<20 {
		t.Errorf("par of %d arrows, 1 ns: the store grew by %d bytes", n, grown)
	}
}

// TestNodeCounts: a search stopped at its node budget explored exactly the
// budget, and says how many vertices were the search's and how many its
// local analyses' (it said "1 nodes" with local analyses
// on, and counted one vertex more than the budget otherwise).
func TestNodeCounts(t *testing.T) {
	sp, err := spec.Load("../../../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	// The first 40 events of trace1, one component per lifeline.
	text := "[S] S?d.S!d_zero.S?one.S!d_zero.S?ce.S!d_zero.S?zero.S?d.S!d_one; " +
		"[K] K?d_zero.K!ce.K?d_zero.K!d_zero.K?d_zero.K!d_zero.K?d_one.K!ce; " +
		"[L] L?one.L!one.L?zero.L?zero.L!zero.L?zero; [R] R?ce.R!one.R?d_zero.R!d.R!zero.R!ce.R?d_zero.R!zero.R?ce"
	mt := mtOf(t, sp.Sig, text)
	for _, cfg := range configs {
		for _, max := range []int{1, 10, 30} {
			res := New(sp.Store, sp.Root, Options{POR: cfg.por, LOC: cfg.loc, MaxNodes: max}).Check(mt)
			if res.Verdict != verdict.Inconc || res.Reason != verdict.NodeLimit || res.Nodes+res.LocalNodes != max {
				t.Errorf("%s, %d: %s (%s) after %d + %d vertices, want Inconc after %d", cfg.name, max, res.Verdict, res.Text(), res.Nodes, res.LocalNodes, max)
				continue
			}
			want := fmt.Sprintf("node limit reached (%d vertices)", max)
			if res.LocalNodes > 0 {
				want = fmt.Sprintf("node limit reached (%d vertices: %d of the search, %d of local analyses)", max, res.Nodes, res.LocalNodes)
			}
			if res.Detail != want || cfg.loc && max > 1 && res.LocalNodes == 0 {
				t.Errorf("%s, %d: %q, want %q", cfg.name, max, res.Detail, want)
			}
		}
	}
}

// TestSliceBlame: in slice mode, the local failure an explanation names is
// checked as a slice: K!d_one alone is a slice of abp
// (K's log starts late), L!d_zero is no action of L at all.
func TestSliceBlame(t *testing.T) {
	sp, err := spec.Load("../../../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, loc := range []bool{true, false} {
		a := New(sp.Store, sp.Root, Options{Mode: verdict.Slice, POR: true, LOC: loc, Simulation: DefaultSimulation()})
		res := a.Check(mtOf(t, sp.Sig, "[S] S?d; [K] K!d_one; [L] L!d_zero; [R]"))
		if res.Verdict != verdict.Fail || res.Explanation.LocalFailure != "L" {
			t.Errorf("LOC %v: %s, blaming %q; want Fail blaming [L]", loc, res.Verdict, res.Explanation.LocalFailure)
		}
		if res := a.Check(mtOf(t, sp.Sig, "[K] K!d_one")); res.Verdict != verdict.WeakPass {
			t.Errorf("LOC %v: [K] K!d_one alone: %s, want WeakPass", loc, res.Verdict)
		}
	}
	// A component whose trace is made of actions of the interaction, but in
	// an order no slice has: R receives d_zero twice in a row only after
	// sending ce in between.
	a := New(sp.Store, sp.Root, Options{Mode: verdict.Slice, POR: true, LOC: true, Simulation: DefaultSimulation()})
	res := a.Check(mtOf(t, sp.Sig, "[S] S!d_zero; [R] R!d.R!d"))
	if res.Verdict != verdict.Fail || res.Explanation.LocalFailure != "R" {
		t.Fatalf("R!d.R!d: %s, blaming %q; want Fail blaming [R]", res.Verdict, res.Explanation.LocalFailure)
	}
	if got := res.Explanation.Components[1]; got.Consumed != 1 || got.Head != "R!d" {
		t.Errorf("R!d.R!d: %+v, want R stuck after its first event", got)
	}
}

// TestSliceIndependent: slice mode on independent messages, one of them
// received twice, is decided at once by the local check
// of slices; without local analyses, the slice search, exponential there, is
// stopped by the memory budget.
func TestSliceIndependent(t *testing.T) {
	t.Parallel()
	st, u, mt := arrows(t, 20)
	res := New(st, u, Options{Mode: verdict.Slice, POR: true, LOC: true, Simulation: DefaultSimulation()}).Check(mt)
	if res.Verdict != verdict.Fail || res.Explanation.LocalFailure != "b20" || res.Nodes+res.LocalNodes > 100 {
		t.Errorf("par of 20 arrows, slice: %s after %d + %d vertices, blaming %q", res.Verdict, res.Nodes, res.LocalNodes, res.Explanation.LocalFailure)
	}
	res = New(st, u, Options{Mode: verdict.Slice, POR: true, Simulation: DefaultSimulation(), MaxMemory: 16 << 20}).Check(mt)
	if res.Verdict != verdict.Inconc || res.Reason != verdict.Memory {
		t.Errorf("par of 20 arrows, slice without local analyses, 16 MiB: %s (%s)", res.Verdict, res.Text())
	}
}

// TestGraphLimit: the graph recorded of a long search keeps its first
// MaxGraphVertices vertices and says what it left out.
func TestGraphLimit(t *testing.T) {
	t.Parallel()
	st, u, mt := arrows(t, 9) // 3^9 vertices
	res, g := New(st, u, Options{}).Explore(mt)
	if res.Verdict != verdict.Fail || len(g.Vertices) != MaxGraphVertices || g.OmittedVertices != res.Nodes-MaxGraphVertices || g.OmittedEdges == 0 {
		t.Fatalf("%s after %d vertices: graph of %d vertices and %d edges, %d and %d left out",
			res.Verdict, res.Nodes, len(g.Vertices), len(g.Edges), g.OmittedVertices, g.OmittedEdges)
	}
	for _, e := range g.Edges {
		if e.From < 0 || e.From >= len(g.Vertices) || e.To < 0 || e.To >= len(g.Vertices) {
			t.Fatalf("edge %+v out of the graph", e)
		}
	}
	// A term too long to draw is cut.
	st, u, mt = arrows(t, 200)
	_, g = New(st, u, Options{POR: true}).Explore(mt)
	if v := g.Vertices[0].Term; len(v) > MaxGraphTerm+len("…") || !strings.HasSuffix(v, "…") {
		t.Errorf("a term of %d bytes drawn in full", len(v))
	}
}

// TestBytesPerVertex pins the memory of a search per vertex, as the memory
// budget counts it, on a search of 3^10 vertices of 20 components, each a new
// term: about 100 bytes for the vertex, 200 for its term (it was
// 750 to 3300 bytes, most of it for vertices stored once per edge).
func TestBytesPerVertex(t *testing.T) {
	st, u, mt := arrows(t, 9) // 19,683 vertices
	a := New(st, u, Options{})
	base := a.st.Bytes()
	res := a.Check(mt)
	search := a.vs.bytes()
	store := a.st.Bytes() - base
	perVertex := float64(search+store) / float64(res.Nodes)
	t.Logf("%d vertices: %.0f bytes each (search %.0f, store %.0f)", res.Nodes, perVertex,
		float64(search)/float64(res.Nodes), float64(store)/float64(res.Nodes))
	if perVertex > 400 {
		t.Errorf("%.0f bytes per vertex, want at most 400", perVertex)
	}
}
