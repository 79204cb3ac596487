package rewrite

import (
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/verdict"
)

// The reproducers of the search limits for the runtime engine, at the sizes
// first reported under the sweep build tag (go test -tags sweep), smaller
// otherwise. Each must end within its limits, with a verdict or an Inconc
// that names the limit.

// TestWideParReproducer: a par of 30000 arrows ran out
// of memory in computeFrontier under --timeout 2s.
func TestWideParReproducer(t *testing.T) {
	t.Parallel()
	n, limit := 500, 50*time.Millisecond
	if testutil.Sweep() {
		n, limit = 30000, 2*time.Second
	}
	for _, opts := range []Options{
		{POR: true, LOC: true, Timeout: time.Minute, MaxMemory: 64 << 20},
		{POR: true, LOC: true, Timeout: limit, MaxMemory: 2 << 30},
		// A deadline that has passed stops the computation of the first
		// frontier: the time budget is checked inside it (how soon a
		// given timeout ends the search depends on the machine's load, so
		// it is not asserted).
		{POR: true, LOC: true, Timeout: time.Nanosecond, MaxMemory: 2 << 30},
	} {
		st, u, mt := arrows(t, n) // a store each: the first analysis fills its store
		a := New(st, u, opts)
		base := a.st.Bytes()
		res := a.Check(mt)
		grown := a.st.Bytes() - base
		if res.Verdict != verdict.Fail && (res.Verdict != verdict.Inconc || !res.Reason.Limit()) {
			t.Errorf("par of %d arrows, %v, %d bytes: %s (%s)", n, opts.Timeout, opts.MaxMemory, res.Verdict, res.Text())
		}
		t.Logf("par of %d arrows, %v, %d bytes: %s (%s), the store grew by %d bytes", n, opts.Timeout, opts.MaxMemory, res.Verdict, res.Text(), grown)
		if opts.Timeout == time.Nanosecond && (res.Reason != verdict.Timeout || res.Nodes > 1 || grown > 4<<20) {
			t.Errorf("par of %d arrows, past its deadline: %s (%s) after %d vertices, the store grew by %d bytes", n, res.Verdict, res.Text(), res.Nodes, grown)
		}
	}
}

// TestIndependentReproducer: a par of 20 arrows, one
// receiver logging its message twice, without partial order reduction and
// local analyses, ran out of memory after 19 s.
func TestIndependentReproducer(t *testing.T) {
	t.Parallel()
	n, max := 12, int64(8<<20)
	if testutil.Sweep() {
		n, max = 20, 1<<30
	}
	st, u, mt := arrows(t, n)
	res := New(st, u, Options{MaxMemory: max}).Check(mt)
	if res.Verdict != verdict.Inconc || res.Reason != verdict.Memory {
		t.Errorf("par of %d arrows, %d bytes: %s (%s)", n, max, res.Verdict, res.Text())
	}
	// Slice mode with the default options answers at once.
	res = New(st, u, Options{Mode: verdict.Slice, POR: true, LOC: true, Simulation: DefaultSimulation()}).Check(mt)
	if res.Verdict != verdict.Fail || res.Nodes+res.LocalNodes > 100 {
		t.Errorf("par of %d arrows, slice: %s after %d vertices", n, res.Verdict, res.Nodes+res.LocalNodes)
	}
}

// TestLongGraphReproducer: --graph on a search of a
// million actions ran out of memory drawing the graph.
func TestLongGraphReproducer(t *testing.T) {
	n := 20000
	if testutil.Sweep() {
		n = 500000
	}
	st := storeOf(t, "a,b", "m")
	u := st.MustParseTerm("loopS(strict(a!m,b?m))")
	mt := mtOf(t, st.Signature(), "[a,b] "+strings.Repeat("a!m.b?m.", n-1)+"a!m.b?m")
	res, g := New(st, u, DefaultOptions()).Explore(mt)
	if res.Verdict != verdict.Pass || len(g.Vertices) > MaxGraphVertices || g.OmittedVertices == 0 {
		t.Errorf("%d actions: %s, graph of %d vertices, %d left out", 2*n, res.Verdict, len(g.Vertices), g.OmittedVertices)
	}
}
