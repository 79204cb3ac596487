package rewrite

import (
	"fmt"
	"testing"

	"github.com/ivc-project/ivc/internal/memlimit"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/verdict"
)

// BenchmarkLargeSearch explores a par of 20 arrows, one receiver logging
// its message twice (a Fail), without partial order reduction or local
// analyses, to a vertex budget: the search grows without help, as large
// searches do. It reports vertices per second, which must not fall as the
// budget grows, up to the default budget of 10M vertices (about 80 s and
// 5 GB of memory on the development VM): summing the vertices' chunks at
// every vertex (for the memory budget) once made 3M vertices take 1.5
// times as long per vertex as 1M, and 10M more than twice. It reports
// vertices per CPU-second too, which a loaded machine disturbs less than
// the wall clock. Its heap asks for huge pages, as ivc analyze's does
// (memlimit.HugePages).
func BenchmarkLargeSearch(b *testing.B) {
	st, u, mt := arrows(b, 20)
	defer memlimit.HugePages(memlimit.BatchHugePages, func(err error) { b.Error(err) })()
	for _, n := range []int{100_000, 1_000_000, 3_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("vertices=%d", n), func(b *testing.B) {
			cpu := testutil.CPUTime()
			for b.Loop() {
				res := New(st, u, Options{MaxNodes: n, MaxMemory: 16 << 30}).Check(mt)
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

// BenchmarkMemoryFloor is the peer of BenchmarkLargeSearch's growth: what
// any search that keeps its vertices in memory pays as they leave the
// caches, without ivc. Each of n vertices is a random 64-bit key put in a
// Go map (a table of the vertices seen) and vertexBytes written to fresh
// memory (what a vertex of the par of 20 arrows takes: its slots, its
// terms, its entry in the table; 467 bytes at 1M vertices), and it looks
// up edgesPerVertex keys of vertices met before, drawn at random (a
// successor's term hashes anywhere; the search has 3.8 edges a vertex at
// 100k vertices, 4.8 at 3M). The same work a vertex at every size: the
// rows' ratio to 100k vertices is what the memory alone makes of the
// growth, the line a search of vertices kept in a hash table cannot pass.
// It does not ask for huge pages: with them, the kernel's compaction of
// memory for them made its rows swing by half from one run to the next
// (a fifth to a half of their time spent in the system), where the search's
// own work keeps that part small.
func BenchmarkMemoryFloor(b *testing.B) {
	const vertexBytes, edgesPerVertex, chunk = 464, 4, 1 << 20
	for _, n := range []int{100_000, 1_000_000, 3_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("vertices=%d", n), func(b *testing.B) {
			cpu := testutil.CPUTime()
			for b.Loop() {
				seen := make(map[uint64]int32)
				keys := make([]uint64, 0, n)
				var mem [][]byte
				var free []byte
				x := uint64(n) | 1
				next := func() uint64 { // xorshift64*
					x ^= x >> 12
					x ^= x << 25
					x ^= x >> 27
					return x * 0x2545f4914f6cdd1d
				}
				hits := 0
				for i := range n {
					k := next()
					seen[k] = int32(i)
					keys = append(keys, k)
					if len(free) < vertexBytes {
						free = make([]byte, chunk)
						mem = append(mem, free)
					}
					for j := 0; j < vertexBytes; j += 64 {
						free[j] = byte(i)
					}
					free = free[vertexBytes:]
					for range edgesPerVertex {
						if _, ok := seen[keys[next()%uint64(len(keys))]]; ok {
							hits++
						}
					}
				}
				if hits != n*edgesPerVertex || len(mem) == 0 {
					b.Fatalf("%d hits of %d look-ups", hits, n*edgesPerVertex)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "vertices/s")
			if used := testutil.CPUTime() - cpu; used > 0 && cpu > 0 {
				b.ReportMetric(float64(n)*float64(b.N)/used.Seconds(), "vertices/cpu-s")
			}
		})
	}
}

// TestLargeSearchGrowth: the work per vertex of a large search (the par of
// 20 arrows of BenchmarkLargeSearch) does not grow with the search: at 8
// times the vertices, each count of work per vertex is at most 1.5 times
// what it was — the heap objects and bytes allocated, the memory the store
// took (terms, their facts and the semantic functions' memos), and the
// slots an insertion in the vertex table probes past a vertex's own. Counts,
// not time: the time per vertex also grows as the search's tables leave
// the cache, and a loaded machine disturbs it more than that (the timed
// version of this test failed CI at 1.77 times): BenchmarkLargeSearch
// measures it, and the benchmark table prints its rows. What it catches: a
// step that copies or allocates in proportion to the search so far, memos
// whose entries grow with the search, vertices that crowd into runs of the
// table (TestVertexClusters catches those of a long trace). What it does
// not: work without allocation that grows with the search (a sum over the
// chunks at every vertex: TestVertexBytes keeps that sum incremental).
func TestLargeSearchGrowth(t *testing.T) {
	const small, large, maxRatio = 16_000, 128_000, 1.5
	type work struct{ allocs, bytes, store, probes float64 }
	perVertex := func(n int) work {
		st, u, mt := arrows(t, 20)
		a := New(st, u, Options{MaxNodes: n, MaxMemory: 4 << 30})
		var res verdict.Result
		store := a.st.Bytes()
		c := testutil.Measure(func() { res = a.Check(mt) })
		if res.Verdict != verdict.Inconc || res.Reason != verdict.NodeLimit {
			t.Fatalf("%d vertices: %s (%s), want the node limit", n, res.Verdict, res.Text())
		}
		v := float64(n)
		return work{float64(c.Allocs) / v, float64(c.Bytes) / v, float64(a.st.Bytes()-store) / v, a.vs.probes() / v}
	}
	s, l := perVertex(small), perVertex(large)
	for _, c := range []struct {
		what       string
		small, big float64
	}{
		{"heap objects", s.allocs, l.allocs},
		{"bytes allocated", s.bytes, l.bytes},
		{"store bytes", s.store, l.store},
		{"table probes", s.probes, l.probes},
	} {
		t.Logf("%s per vertex: %.3f at %d vertices, %.3f at %d", c.what, c.small, small, c.big, large)
		if c.big > maxRatio*max(c.small, 1/float64(small)) {
			t.Errorf("%s per vertex: %.3f at %d vertices, %.3f at %d: %.2f times (at most %.1f)",
				c.what, c.small, small, c.big, large, c.big/c.small, maxRatio)
		}
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

// probes returns the slots past their own that the table's vertices lie
// at, in all: what inserting them probed beyond their first slot.
func (vs *vertices) probes() float64 {
	mask := len(vs.table) - 1
	var sum int
	for s, e := range vs.table {
		if e != 0 {
			home := int(e >> vs.shift)
			sum += (s - home) & mask
		}
	}
	return float64(sum)
}
