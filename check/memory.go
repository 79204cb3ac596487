package check

import "github.com/ivc-project/ivc/internal/memlimit"

// DefaultMaxMemory is the memory budget of one analysis when the caller
// sets none: half the memory available to the process (the least of the
// machine's MemAvailable and what its cgroup's limit leaves; 8 GiB where
// none can be read) shared by the jobs that run at once, and at least 256
// MiB. The runtime engine's searches stay within about 1.3 times their
// budget, and the interaction's own store comes on top, hence the half.
func DefaultMaxMemory(jobs int) int64 {
	avail := memlimit.Available()
	if avail <= 0 {
		avail = 8 << 30
	}
	return max(avail/int64(2*max(1, jobs)), 256<<20)
}
