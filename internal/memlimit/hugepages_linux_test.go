package memlimit

import (
	"bufio"
	"bytes"
	"fmt"
	"math/bits"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// TestAnonymousMappings: the private anonymous writable mappings of a
// /proc/self/maps, not files', not read-only or shared ones, nor the
// kernel's named ones.
func TestAnonymousMappings(t *testing.T) {
	maps := `00400000-004ab000 r-xp 00000000 fe:00 10658834                           /tmp/exe
0058e000-00599000 rw-p 0018e000 fe:00 10658834                           /tmp/exe
00599000-005cf000 rw-p 00000000 00:00 0 
37a7c4000000-37a7c5400000 ---p 00000000 00:00 0 
37a7c5400000-37a7cc000000 rw-p 00000000 00:00 0 
7fa48d460000-7fa48d600000 rw-s 00000000 00:01 7                          /dev/zero (deleted)
7ffe2acb2000-7ffe2acd3000 rw-p 00000000 00:00 0                          [stack]
`
	got := fmt.Sprint(anonymousMappings([]byte(maps)))
	ms := []mapping{{0x599000, 0x5cf000}}
	if bits.UintSize == 64 { // a 32-bit process has no such address
		start, end := uint64(0x37a7c5400000), uint64(0x37a7cc000000)
		ms = append(ms, mapping{uintptr(start), uintptr(end)})
	}
	if want := fmt.Sprint(ms); got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// TestPrepareHugePages: after PrepareHugePages, the heap takes a large
// slice in memory advised for huge pages (smaps' VmFlags "hg"), without
// a mapping of its own: the prepared memory, reused.
func TestPrepareHugePages(t *testing.T) {
	if !hugePagesAsked() || !canPrepare() {
		t.Skip("huge pages not given when asked here, or mapping is not free")
	}
	advised, err := PrepareHugePages(256 << 20)
	if err != nil || advised < 256<<20 {
		t.Fatalf("%d bytes advised, %v", advised, err)
	}
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	addr := uint64(uintptr(unsafe.Pointer(&b[0])))
	flags, huge := smapsOf(t, addr)
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the slice at %#x lies in a mapping with VmFlags %q, not advised (hg)", addr, flags)
	}
	t.Logf("%d bytes advised; the slice's mapping: %d kB of huge pages", advised, huge)
}

// smapsOf returns the VmFlags and AnonHugePages (kB) of the mapping of
// /proc/self/smaps that holds addr.
func smapsOf(t *testing.T, addr uint64) (flags string, hugeKB int) {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(smaps))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if from, to, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(from, ":") {
			s, err1 := strconv.ParseUint(from, 16, 64)
			e, err2 := strconv.ParseUint(to, 16, 64)
			if err1 == nil && err2 == nil {
				in = s <= addr && addr < e
				continue
			}
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			hugeKB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			return strings.TrimSpace(v), hugeKB
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return "", 0
}

// TestHugePages: the run's huge pages are asked for without an error, the
// heap prepared at once (from 0), once its objects take from bytes, or not
// while they take less, and once only in a process; stop ends the periodic
// advice (it returns).
func TestHugePages(t *testing.T) {
	if memTotal() <= 0 {
		t.Error("no MemTotal in /proc/meminfo")
	}
	if !hugePagesAsked() || !canPrepare() {
		t.Skip("huge pages not given when asked here, or mapping is not free")
	}
	keep := make([]byte, 16<<20) // the heap's objects take at least this
	for _, tt := range []struct {
		from     int64
		prepared bool
	}{{0, true}, {4 << 20, true}, {1 << 50, false}} {
		before := preparations.Load()
		prepared.Store(false)
		stop := HugePages(tt.from, func(err error) { t.Error(err) })
		time.Sleep(5 * hugePagesPeriod / 2)
		stop()
		if got := preparations.Load() > before; got != tt.prepared {
			t.Errorf("from %d: prepared %v, want %v", tt.from, got, tt.prepared)
		}
	}
	// Once in a process: not again.
	prepared.Store(false)
	before := preparations.Load()
	HugePages(0, func(err error) { t.Error(err) })()
	HugePages(0, func(err error) { t.Error(err) })()
	if n := preparations.Load() - before; n != 1 {
		t.Errorf("prepared %d times in a process, want once", n)
	}
	runtime.KeepAlive(keep)
}
