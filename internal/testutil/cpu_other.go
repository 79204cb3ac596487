//go:build !unix

package testutil

import "time"

// cpuTime returns the time elapsed since an origin, where the CPU time of
// the process is not at hand.
func cpuTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
