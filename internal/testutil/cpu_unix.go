//go:build unix

package testutil

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time the process has used (user and system): unlike
// the time elapsed, it does not grow when other processes share the cores.
// It is 0 if the system does not tell (then times cannot be judged).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
