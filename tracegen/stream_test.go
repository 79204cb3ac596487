package tracegen

import (
	"runtime"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
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
// drawing 10^5 multi-traces is about that of drawing 10^4 (Generate's slice
// would be ten times larger).
func TestStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 1.1e5 multi-traces")
	}
	small, large := peakLive(t, 1e4), peakLive(t, 1e5)
	t.Logf("peak live heap: %d B for 1e4, %d B for 1e5", small, large)
	if large > 2*small+1<<20 {
		t.Errorf("live heap grows with n: %d B for 1e4, %d B for 1e5", small, large)
	}
}
