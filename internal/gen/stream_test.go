package gen

import (
	"runtime"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/testutil"
)

// peakLive consumes Stream for n multi-traces and returns the largest live
// heap seen (after a collection, every n/10 multi-traces).
func peakLive(t *testing.T, n int) uint64 {
	st := interaction.NewStore(random.Signature(3, 2))
	term := st.MustParseTerm("seq(loopW(strict(l1!m1,l2?m1)),par(strict(l2!m2,l3?m2),alt(l3!m1,strict(l1!m2,l3?m2))))")
	var peak uint64
	var ms runtime.MemStats
	i := 0
	for _, err := range Stream(st, term, Config{Kind: KindNoise, N: n, Seed: 3, Options: Options{MaxLength: 10}}) {
		if err != nil {
			t.Fatal(err)
		}
		if i++; i%(n/10) == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if i != n {
		t.Fatalf("%d multi-traces, want %d", i, n)
	}
	return peak
}

// TestStreamMemory checks that Stream holds no batch: the live heap while
// drawing 2·10^4 multi-traces (10^5 in the sweep) is about that of drawing a
// tenth of them (Generate's slice would be ten times larger).
func TestStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 2.2e4 multi-traces")
	}
	n := 20_000
	if testutil.Sweep() {
		n = 100_000
	}
	small, large := peakLive(t, n/10), peakLive(t, n)
	t.Logf("peak live heap: %d B for %d, %d B for %d", small, n/10, large, n)
	if large > 2*small+1<<20 {
		t.Errorf("live heap grows with n: %d B for %d, %d B for %d", small, n/10, large, n)
	}
}
