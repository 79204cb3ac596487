package memlimit

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestAvailableMemory reads fake /proc and /sys/fs/cgroup trees: the least
// of MemAvailable and what each cgroup limit (the cgroup's and its
// ancestors', v2 and v1) leaves.
func TestAvailableMemory(t *testing.T) {
	const gib = 1 << 30
	meminfo := "MemTotal:       32000000 kB\nMemAvailable:   16777216 kB\n" // 16 GiB
	tests := []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"meminfo only", map[string]string{"proc/meminfo": meminfo}, 16 * gib},
		{"nothing", map[string]string{}, 0},
		{"v2 limit", map[string]string{
			"proc/meminfo":                           meminfo,
			"proc/self/cgroup":                       "0::/box\n",
			"sys/fs/cgroup/box/memory.max":           "4294967296\n",
			"sys/fs/cgroup/box/memory.current":       "1073741824\n",
			"sys/fs/cgroup/unrelated/memory.max":     "1\n",
			"sys/fs/cgroup/unrelated/memory.current": "0\n",
		}, 3 * gib},
		{"v2 max, parent limited", map[string]string{
			"proc/meminfo":                   meminfo,
			"proc/self/cgroup":               "0::/a/b\n",
			"sys/fs/cgroup/a/b/memory.max":   "max\n",
			"sys/fs/cgroup/a/memory.max":     "2147483648\n",
			"sys/fs/cgroup/a/memory.current": "0\n",
		}, 2 * gib},
		{"v2 namespace: the mount's root", map[string]string{
			"proc/meminfo":                 meminfo,
			"proc/self/cgroup":             "0::/\n",
			"sys/fs/cgroup/memory.max":     "1073741824\n",
			"sys/fs/cgroup/memory.current": "0\n",
		}, 1 * gib},
		{"v1 limit, host path absent", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912\n",
			"sys/fs/cgroup/memory/memory.usage_in_bytes": "0\n",
		}, gib / 2},
		{"v1 no limit", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 16 * gib},
		{"limit above MemAvailable", map[string]string{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "68719476736\n",
		}, 16 * gib},
		{"cgroup without meminfo", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "1073741824\n",
		}, gib},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tt.files {
				file := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := available(root); got != tt.want {
				t.Errorf("availableMemory = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestTuneGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: TuneGC leaves them")
	}
	gc0 := debug.SetGCPercent(-1)
	debug.SetGCPercent(gc0)
	mem0 := debug.SetMemoryLimit(-1)
	restore := TuneGC(1 << 30)
	if gc := debug.SetGCPercent(-1); gc != BatchGCPercent {
		t.Errorf("GOGC %d after TuneGC, want %d", gc, BatchGCPercent)
	}
	debug.SetGCPercent(BatchGCPercent)
	if mem := debug.SetMemoryLimit(-1); mem != 1<<30 {
		t.Errorf("memory limit %d after TuneGC, want %d", mem, 1<<30)
	}
	restore()
	if gc := debug.SetGCPercent(gc0); gc != gc0 {
		t.Errorf("GOGC %d after restore, want %d", gc, gc0)
	}
	if mem := debug.SetMemoryLimit(-1); mem != mem0 {
		t.Errorf("memory limit %d after restore, want %d", mem, mem0)
	}
}

// TestMeminfo reads a field of a meminfo file (the machine's memory bounds
// what PrepareHugePages maps), and nothing from a file without it.
func TestMeminfo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "meminfo")
	if err := os.WriteFile(file, []byte("MemTotal:       32000000 kB\nMemAvailable:   16777216 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]int64{"MemTotal:": 32000000 << 10, "MemAvailable:": 16 << 30, "MemFree:": 0} {
		if got := meminfo(file, key); got != want {
			t.Errorf("%s %d, want %d", key, got, want)
		}
	}
}
