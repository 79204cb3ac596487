package check

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// DefaultMaxMemory is the memory budget of one analysis when the caller
// sets none: half the memory available on the machine (MemAvailable of
// /proc/meminfo; 8 GiB where it cannot be read) shared by the jobs that
// run at once, and at least 256 MiB. The runtime engine's searches stay
// within about 1.3 times their budget, and the interaction's own store
// comes on top, hence the half.
func DefaultMaxMemory(jobs int) int64 {
	avail := availableMemory()
	if avail <= 0 {
		avail = 8 << 30
	}
	return max(avail/int64(2*max(1, jobs)), 256<<20)
}

// availableMemory reads MemAvailable from /proc/meminfo, in bytes, or
// returns 0.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("MemAvailable:"))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
