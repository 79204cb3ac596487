package memlimit

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
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
// limit, or where it gives no huge pages when asked. It maps at most half
// the machine's memory: Linux's heuristic overcommit (its default) refuses
// a mapping larger than its memory and swap, which would end the process.
// It returns what AdviseHugePages returns.
func PrepareHugePages(n int64) (int64, error) {
	n = min(n, memTotal()/2)
	if n <= 0 || !canPrepare() {
		return AdviseHugePages()
	}
	b := make([]byte, n)
	preparations.Add(1)
	advised, err := AdviseHugePages()
	runtime.KeepAlive(b)
	debug.FreeOSMemory()
	return advised, err
}

// preparations counts the PrepareHugePages that mapped memory, for tests;
// prepared is set once HugePages has prepared the heap: the process's heap
// keeps it (a run of ivc in process, such as the tests', after another).
var (
	preparations atomic.Int32
	prepared     atomic.Bool
)

// What HugePages prepares, and how often it advises the heap's new
// memory: under load ivc monitor's heap grows by tens of megabytes a
// second, and a look at /proc/self/maps costs tens of microseconds.
const (
	hugePagesPrepared = 1 << 30
	hugePagesPeriod   = 100 * time.Millisecond
)

// BatchHugePages is the heap from which a batch run (ivc analyze, and the
// benchmarks that measure it) prepares huge pages (HugePages): 16k pages
// of 4 KiB, whose faults cost more than the preparation.
const BatchHugePages = 64 << 20

// HugePages asks for huge pages on the heap for as long as a run of ivc
// lasts, until stop is called: AdviseHugePages every 100 ms, so that what
// the heap maps is advised too (the part of it not written yet when the
// advice comes: with the advice alone, a sixth of ivc monitor's heap had
// huge pages), and PrepareHugePages of 1 GiB, once in a process, once the
// heap's objects take from bytes (0: at once). A run whose heap stays
// small pays nothing for the preparation, which takes a few milliseconds
// and a collection: ivc analyze prepares from BatchHugePages, ivc monitor
// at its start. report gets the first error, which leaves the run as it
// is, without huge pages. Nothing is done where huge pages are not given
// when asked; stop waits for the advice to end, so that nothing is
// reported after it returns.
func HugePages(from int64, report func(error)) (stop func()) {
	if !hugePagesAsked() {
		return func() {}
	}
	fail := func(err error) { report(fmt.Errorf("huge pages not asked for: %w", err)) }
	if from <= 0 && !prepared.Swap(true) {
		if _, err := PrepareHugePages(hugePagesPrepared); err != nil {
			fail(err)
			return func() {}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(hugePagesPeriod)
		defer tick.Stop()
		heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			metrics.Read(heap)
			var err error
			if heap[0].Value.Uint64() >= uint64(from) && !prepared.Load() && !prepared.Swap(true) {
				_, err = PrepareHugePages(hugePagesPrepared)
			} else {
				_, err = AdviseHugePages()
			}
			if err != nil {
				fail(err)
				return
			}
		}
	}()
	return func() { cancel(); <-done }
}
