package memlimit

import (
	"bufio"
	"bytes"
	"errors"
	"math"
	"math/bits"
	"os"
	"strconv"
	"syscall"
)

// Where Linux says how it gives transparent huge pages and how it commits
// memory.
const (
	thpEnabled    = "/sys/kernel/mm/transparent_hugepage/enabled"
	overcommitMem = "/proc/sys/vm/overcommit_memory"
)

// hugePagesAsked reports whether the kernel gives transparent huge pages to
// the memory a process asks them for and to that memory only ("madvise"):
// with "always" every mapping has them without asking, with "never" none.
func hugePagesAsked() bool {
	b, err := os.ReadFile(thpEnabled)
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}

func adviseHugePages() (int64, error) {
	if !hugePagesAsked() {
		return 0, nil
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	var advised int64
	for _, r := range anonymousMappings(maps) {
		if r.end-r.start < hugePageMin {
			continue
		}
		_, _, e := syscall.Syscall(syscall.SYS_MADVISE, r.start, r.end-r.start, syscall.MADV_HUGEPAGE)
		switch {
		case e == 0:
			advised += int64(r.end - r.start)
		case errors.Is(e, syscall.ENOMEM):
			// Unmapped since /proc/self/maps was read.
		default:
			return advised, e
		}
	}
	return advised, nil
}

// canPrepare reports whether mapping heap that is never written is free:
// on a 64-bit system whose kernel gives huge pages when asked and does not
// count every mapping against a commit limit (overcommit_memory 2, where a
// mapping the limit refuses would end the process).
func canPrepare() bool {
	if math.MaxInt == math.MaxInt32 || !hugePagesAsked() {
		return false
	}
	b, err := os.ReadFile(overcommitMem)
	return err == nil && string(bytes.TrimSpace(b)) != "2"
}

// mapping is a range of addresses.
type mapping struct{ start, end uintptr }

// anonymousMappings returns the private anonymous writable mappings that
// /proc/self/maps lists in maps: "start-end rw-p offset dev inode", with
// an inode of 0 and no path.
func anonymousMappings(maps []byte) []mapping {
	var out []mapping
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) != 5 || string(f[1]) != "rw-p" || string(f[4]) != "0" {
			continue
		}
		from, to, ok := bytes.Cut(f[0], []byte("-"))
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(from), 16, bits.UintSize)
		end, err2 := strconv.ParseUint(string(to), 16, bits.UintSize)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		out = append(out, mapping{uintptr(start), uintptr(end)})
	}
	return out
}
