package memlimit

import (
	"context"
	"runtime"
	"runtime/debug"
	"time"
)

// Huge pages. Go's heap grows by mapping memory that the kernel backs page
// by page as the process first writes it: a fault a 4 KiB page, which costs
// 11 µs on a virtual machine whose host maps guest memory on demand (the
// development VM of 2026-12-06), against 0.3 µs a 4 KiB page when a 2 MiB
// huge page backs it. ivc monitor holds every session for its grace, so
// under load its heap grows steadily and those faults took a fifth of its
// CPU. Where the host's transparent huge pages are "madvise" (Debian's and
// Ubuntu's default), the kernel gives huge pages to the memory a process
// asks them for, and Go 1.26 asks for none of its heap; AdviseHugePages asks
// for them on the process's anonymous memory, the heap included, whose parts
// not written yet are then backed by huge pages when first written.

// hugePageMin is the smallest mapping advised: smaller ones hold no huge
// page (a huge page is 2 MiB and aligned).
const hugePageMin = 4 << 20

// AdviseHugePages asks the kernel for transparent huge pages on the
// process's private anonymous writable mappings of at least 4 MiB (Go's
// heap among them), and returns the bytes advised. It does nothing, and
// returns 0 and nil, unless the system is Linux and its transparent huge
// pages are given when asked ("madvise"; with "always" every mapping has
// them already).
func AdviseHugePages() (int64, error) { return adviseHugePages() }

// PrepareHugePages makes the heap map n bytes more and asks for huge pages
// on them, then gives them back to the heap: the heap grows in 4 MiB steps
// that it writes as soon as it maps them, before a periodic advice could
// reach them, while memory it already holds keeps the advice when it is
// reused (Go gives memory back to the system with madvise, which keeps a
// mapping's advice, and takes it again without remapping it). The n bytes
// are only mapped, never written: they take no physical memory, and they
// are given back to the system at the end (debug.FreeOSMemory), so that
// neither the collector's goal nor a memory limit (GOMEMLIMIT) counts them.
// It maps nothing, and only advises, where that could cost anything: on a
// 32-bit system, where the kernel counts every mapping against a commit
// limit, or where it gives no huge pages when asked. It returns what
// AdviseHugePages returns.
func PrepareHugePages(n int64) (int64, error) {
	if n <= 0 || !canPrepare() {
		return AdviseHugePages()
	}
	b := make([]byte, n)
	advised, err := AdviseHugePages()
	runtime.KeepAlive(b)
	debug.FreeOSMemory()
	return advised, err
}

// KeepHugePages calls AdviseHugePages every period until ctx is done, so
// that what the heap maps beyond the prepared memory is advised too (the
// part of it not written yet when the advice comes: with the advice alone,
// a sixth of ivc monitor's heap had huge pages), and returns the first
// error. It returns at once where AdviseHugePages does nothing.
func KeepHugePages(ctx context.Context, period time.Duration) error {
	if !hugePagesAsked() {
		return nil
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		if _, err := AdviseHugePages(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
