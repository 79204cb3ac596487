package testutil

import (
	"runtime"
	"testing"
	"time"
)

// Cost is what a computation took. Its allocations do not depend on the load
// of the machine and grow with the work done: a quadratic blow-up (a list
// copied once per element, a chain rebuilt once per level) allocates
// quadratically. Its CPU time also catches work that allocates nothing (a
// scan that restarts at every byte), but it is noisy.
type Cost struct {
	Allocs uint64        // heap objects allocated
	Bytes  uint64        // bytes allocated
	CPU    time.Duration // CPU time of the process (wall time where unknown)
}

// Measure returns the cost of f, after a garbage collection (so that f does
// not pay for the garbage of what ran before). The counts are the process's:
// a test that measures must not call t.Parallel, nor run parallel subtests
// beside it (parallel top-level tests wait until the others are done).
func Measure(f func()) Cost {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := CPUTime()
	f()
	cpu := CPUTime() - t0
	runtime.ReadMemStats(&after)
	return Cost{after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc, cpu}
}

// MaxGrowth bounds the ratio of the costs of a linear computation at sizes
// n and n/8: linear work is multiplied by 8 (give or take slices and maps
// that grow by steps, and noise for the time), quadratic work by 64.
const MaxGrowth = 20

// slack is a cost allowed beside the ratio, so that computations of
// constant cost (an error at the first byte) are not judged on noise.
var slack = Cost{Allocs: 256, Bytes: 64 << 10, CPU: 20 * time.Millisecond}

// timedBytes is the most a computation may allocate to be judged on its CPU
// time. Those that allocate more are judged on their allocations only:
// their time depends on the memory (caches, page faults, the collector) as
// much as on their work, the more so at small sizes.
const timedBytes = 1 << 20

// Linear checks that a computation's cost grows linearly with its size:
// input(n) prepares an input of size n (outside the measure) and returns the
// computation on it. Linear runs it at sizes n/8 and n and fails t when the
// allocations (count or bytes) at n are more than MaxGrowth times those at
// n/8, or, for a computation that allocates little (a scan), when its CPU
// time is, in the best of three runs at each size.
func Linear(t testing.TB, n int, input func(n int) func()) {
	t.Helper()
	small := Measure(input(n / 8))
	large := Measure(input(n))
	if large.Allocs > MaxGrowth*small.Allocs+slack.Allocs || large.Bytes > MaxGrowth*small.Bytes+slack.Bytes {
		t.Errorf("allocations not linear in the size: %d objects, %d bytes at size %d; %d objects, %d bytes at size %d (more than %d times)",
			small.Allocs, small.Bytes, n/8, large.Allocs, large.Bytes, n, MaxGrowth)
	}
	if large.Bytes > timedBytes {
		return
	}
	// Time is noisy: run again before judging it.
	for try := 0; try < 2 && large.CPU > MaxGrowth*small.CPU+slack.CPU; try++ {
		small.CPU = min(small.CPU, Measure(input(n/8)).CPU)
		large.CPU = min(large.CPU, Measure(input(n)).CPU)
	}
	if large.CPU > MaxGrowth*small.CPU+slack.CPU {
		t.Errorf("CPU time not linear in the size: %v at size %d, %v at size %d (more than %d times, best of 3)", small.CPU, n/8, large.CPU, n, MaxGrowth)
	}
}
