package rewrite

import (
	"fmt"
	"math"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/verdict"
)

// BenchmarkLargeSearch explores a par of 20 arrows, one receiver logging
// its message twice (a Fail), without partial order reduction or local
// analyses, to a vertex budget: the search grows without help, as large
// searches do. It reports vertices per second, which must not fall as the
// budget grows: summing the vertices' chunks at every vertex (for the
// memory budget) once made 3M vertices take 1.5 times as long per vertex
// as 1M, and 10M more than twice. It reports vertices per CPU-second too,
// which a loaded machine disturbs less than the wall clock.
func BenchmarkLargeSearch(b *testing.B) {
	st, u, mt := arrows(b, 20)
	for _, n := range []int{100_000, 1_000_000, 3_000_000} {
		b.Run(fmt.Sprintf("vertices=%d", n), func(b *testing.B) {
			cpu := testutil.CPUTime()
			for b.Loop() {
				res := New(st, u, Options{MaxNodes: n, MaxMemory: 4 << 30}).Check(mt)
				if res.Verdict != verdict.Inconc || res.Reason != verdict.NodeLimit {
					b.Fatalf("%s (%s)", res.Verdict, res.Text())
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "vertices/s")
			if used := testutil.CPUTime() - cpu; used > 0 && cpu > 0 {
				b.ReportMetric(float64(n)*float64(b.N)/used.Seconds(), "vertices/cpu-s")
			}
		})
	}
}

// TestLargeSearchGrowth: the time per vertex of a large search (the par of
// 20 arrows of BenchmarkLargeSearch) does not grow with the search: at 8
// times the vertices, it is at most 1.5 times as long. A vertex costs more
// as the search's tables leave the cache, and later vertices have a few
// more edges; a cost that grows with the vertices explored (a sum over
// the chunks at every vertex, a probe that reads every vertex it meets)
// grows faster. By CPU time, the best of up to five runs at each size taken in
// turn, so that a loaded machine disturbs both alike.
func TestLargeSearchGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of CPU")
	}
	const small, large, maxRatio = 16_000, 128_000, 1.5
	perVertex := func(n int) float64 {
		st, u, mt := arrows(t, 20)
		var res verdict.Result
		c := testutil.Measure(func() { res = New(st, u, Options{MaxNodes: n, MaxMemory: 4 << 30}).Check(mt) })
		if res.Verdict != verdict.Inconc || res.Reason != verdict.NodeLimit {
			t.Fatalf("%d vertices: %s (%s), want the node limit", n, res.Verdict, res.Text())
		}
		return float64(c.CPU) / float64(n)
	}
	bestSmall, bestLarge := math.Inf(1), math.Inf(1)
	for range 5 {
		bestSmall = min(bestSmall, perVertex(small))
		bestLarge = min(bestLarge, perVertex(large))
		if bestLarge <= maxRatio*bestSmall {
			t.Logf("time per vertex %.0f ns at %d vertices, %.0f ns at %d: %.2f times", bestSmall, small, bestLarge, large, bestLarge/bestSmall)
			return
		}
	}
	t.Errorf("time per vertex %.0f ns at %d vertices, %.0f ns at %d: %.2f times (at most %.1f; best of 5)",
		bestSmall, small, bestLarge, large, bestLarge/bestSmall, maxRatio)
}

// TestVertexBytes: the memory of the vertices, which the memory budget
// reads at every vertex, is kept as chunks are made and dropped, and equals
// what the chunks and the table hold, through searches of every size.
func TestVertexBytes(t *testing.T) {
	var vs vertices
	sum := func() int64 {
		b := 8 * int64(cap(vs.table))
		for _, c := range vs.chunks {
			b += 4 * int64(len(c))
		}
		return b
	}
	for _, tc := range []struct{ n, count int }{{3, 10}, {40, 50_000}, {2, 100}, {5000, 3}, {40, 100_000}, {1, 1}} {
		vs.reset(tc.n, 1)
		if got, want := vs.bytes(), sum(); got != want {
			t.Fatalf("after reset(%d): bytes() = %d, chunks and table hold %d", tc.n, got, want)
		}
		for range tc.count {
			vs.add(1)
		}
		if got, want := vs.bytes(), sum(); got != want {
			t.Fatalf("after %d vertices of %d slots: bytes() = %d, chunks and table hold %d", tc.count, tc.n, got, want)
		}
	}
}

// TestVertexClusters: vertices whose positions run on one after another
// (a long trace read action by action) spread over the table: no run of
// occupied slots is long. Placed by a hash whose top bits moved little
// with the last position, they fell on a few slots in a row, and each
// insertion probed the whole run (a million actions took minutes).
func TestVertexClusters(t *testing.T) {
	var vs vertices
	vs.reset(2, 0)
	const n = 1 << 16
	for k := range int32(n) {
		i := vs.add(1)
		p := vs.pos(i)
		p[0], p[1] = k, k
		if _, ok := vs.insert(i); !ok {
			t.Fatalf("vertex %d subsumed", k)
		}
	}
	longest, run := 0, 0
	for _, e := range vs.table {
		if e == 0 {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	if longest > 128 {
		t.Errorf("%d vertices in a table of %d slots: a run of %d occupied slots", n, len(vs.table), longest)
	}
}
