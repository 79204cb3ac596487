// Package testutil locates the shared corpus for tests.
package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// Shared returns the path of the ../shared directory beside the module
// (the corpus, benchmarks and papers), skipping the test when it is absent,
// as it is in a user's fresh clone. IVC_SHARED names another directory (a
// git worktree elsewhere than beside the shared directory).
func Shared(t testing.TB) string {
	t.Helper()
	if shared := os.Getenv("IVC_SHARED"); shared != "" {
		if _, err := os.Stat(filepath.Join(shared, "corpus")); err != nil {
			t.Fatalf("IVC_SHARED=%s: %v", shared, err)
		}
		return shared
	}
	shared := filepath.Join(ModuleRoot(t), "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "corpus")); err != nil {
		t.Skipf("skipping: the shared corpus is not at %s (it is beside the checkout in CI)", shared)
	}
	return shared
}

// ModuleRoot returns the directory of the go.mod of the module under test.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// Sweep reports whether heavy corpus sweeps should run in full: when the
// tests are built with -tags sweep (CI does) or IVC_SWEEP=1 is set. Without
// it, sweeps check a sample, so that go test ./... stays fast.
func Sweep() bool { return sweepTag || os.Getenv("IVC_SWEEP") == "1" }
