// Package memlimit says how much memory the process may still take (the
// machine's and its cgroup's limits) and sets Go's collector for a process
// that runs checks in batch. The front door's default budgets (check) and
// the commands (cmd/ivc, the benchmark table) use it; it imports only the
// standard library.
package memlimit

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Available returns the bytes the process may still take, or 0 when
// nothing says: see available.
func Available() int64 { return available("/") }

// available returns the bytes the process may still take, or 0 when
// nothing says: the least of MemAvailable (/proc/meminfo) and what the
// memory limits of its cgroup and the cgroup's ancestors leave (cgroup v2
// memory.max less memory.current; v1 memory.limit_in_bytes less
// memory.usage_in_bytes). Inside a container /proc/meminfo describes the
// host: the cgroup's limit is the one that holds. Files are read under
// root, which tests point at a fake tree.
func available(root string) int64 {
	avail := memAvailable(filepath.Join(root, "proc/meminfo"))
	if c := cgroupAvailable(root); c > 0 && (avail <= 0 || c < avail) {
		avail = c
	}
	return avail
}

// memAvailable reads MemAvailable from a meminfo file, in bytes, or returns
// 0.
func memAvailable(file string) int64 { return meminfo(file, "MemAvailable:") }

// memTotal returns the machine's memory (MemTotal of /proc/meminfo), or 0
// when it cannot be read.
func memTotal() int64 { return meminfo("/proc/meminfo", "MemTotal:") }

// meminfo reads the field key of a meminfo file, in bytes, or returns 0.
func meminfo(file, key string) int64 {
	f, err := os.Open(file)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte(key))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil || kb < 0 {
			return 0
		}
		return kb << 10
	}
	return 0
}

// noLimit is where a cgroup's limit means none: v1 writes "no limit" as
// the largest page-aligned int64.
const noLimit = 1 << 62

// cgroupAvailable returns what the tightest memory limit of the process's
// cgroups leaves, or 0 when there is none. /proc/self/cgroup names the
// cgroup of each hierarchy ("0::/path" for v2, "N:memory:/path" for v1's
// memory controller); its limit, and those of its ancestors, are read under
// the hierarchy's mount point. With a cgroup namespace the path is "/" and
// the mount point is the cgroup itself; without one, a container sees the
// host's path, absent from its mount, whose root is then its own cgroup:
// the mount's root is read in every case.
func cgroupAvailable(root string) int64 {
	data, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0
	}
	best := int64(0)
	take := func(limit, usage int64) {
		if limit <= 0 || limit >= noLimit {
			return
		}
		if a := max(limit-usage, 1); best == 0 || a < best {
			best = a
		}
	}
	for line := range strings.Lines(string(data)) {
		id, rest, ok1 := strings.Cut(strings.TrimSpace(line), ":")
		ctrl, cg, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 {
			continue
		}
		var dir, limitFile, usageFile string
		switch {
		case id == "0" && ctrl == "":
			dir, limitFile, usageFile = "sys/fs/cgroup", "memory.max", "memory.current"
		case hasController(ctrl, "memory"):
			dir, limitFile, usageFile = "sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes"
		default:
			continue
		}
		for p := path.Clean("/" + cg); ; p = path.Dir(p) {
			d := filepath.Join(root, dir, filepath.FromSlash(p))
			take(readBytes(filepath.Join(d, limitFile)), readBytes(filepath.Join(d, usageFile)))
			if p == "/" {
				break
			}
		}
	}
	return best
}

// hasController reports whether a comma-separated list of v1 controllers
// holds name.
func hasController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readBytes reads a file holding one count of bytes; "max", a missing file
// or anything else unreadable is 0.
func readBytes(file string) int64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
