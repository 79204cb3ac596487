package rewrite

import (
	"fmt"
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
	for _, n := range []int{100_000, 1_000_000} {
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
