//go:build sweep

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGoGenerate runs the go:generate recipe of docs/compiled.md, as
// written there, in a fresh module beside this clone (a directory holding
// the module and ivc, a link to this clone, so that the page's ../ivc is
// this clone): its commands one after the other, the package with the
// //go:generate line, then go vet. It is behind the sweep tag (it builds
// ivc: seconds). The module proxy is the environment's, as a user's is;
// the test is skipped when a dependency of ivc can be neither found in the
// module cache nor downloaded, and fails on any other error, the proxy's
// answers included.
func TestGoGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ivc as a tool of a fresh module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, "docs", "compiled.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The recipe's pieces, from the page.
	find := func(re string) []string {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(string(page))
		if m == nil {
			t.Fatalf("docs/compiled.md has no match for %s", re)
		}
		return m
	}
	recipe := strings.Split(strings.TrimSpace(find("(?s)## `go:generate` in a downstream module\n.*?```sh manual\n(.*?)```")[1]), "\n")
	pkg := find("(?s)```go\n(// Package logs [^`]*" + regexp.QuoteMeta(goGenerateDirective(t)) + "\n)```")[1]
	generate := find(`(?m)^//go:generate go tool ivc compile (\S+) -o (\S+) .*$`)
	spec, out := generate[1], generate[2]

	beside := t.TempDir()
	if err := os.Symlink(root, filepath.Join(beside, "ivc")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(beside, "downstream")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod -buildvcs=false")
	sh := func(line string) string {
		t.Helper()
		args := strings.Fields(line)
		if args[0] != "go" {
			t.Fatalf("not a go command: %s", line)
		}
		cmd := exec.Command(goCmd, args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		b, err := cmd.CombinedOutput()
		if err != nil {
			if offline.Match(b) && !strings.Contains(string(b), "github.com/ivc-project/ivc") {
				t.Skipf("%s: a dependency of ivc is neither in the module cache nor downloadable here:\n%s", line, b)
			}
			t.Fatalf("%s: %v\n%s", line, err, b)
		}
		return string(b)
	}
	sh("go mod init example.com/downstream")
	if err := os.WriteFile(filepath.Join(dir, "logs.go"), []byte(pkg), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(spec)), 0o777); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".hsf", ".hif"} {
		src, err := os.ReadFile(filepath.Join(root, "testdata", "abp", "abp"+ext))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSuffix(spec, ".hsf")+ext), src, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range recipe {
		sh(line)
	}
	if mod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.Contains(string(mod), "tool github.com/ivc-project/ivc/cmd/ivc") {
		t.Fatalf("go.mod after the recipe has no tool directive:\n%s", mod)
	}
	if _, err := os.Stat(filepath.Join(dir, out, "verifier.go")); err != nil {
		t.Fatalf("go generate wrote no verifier: %v", err)
	}
	sh("go vet ./...")
	if v := sh("go tool ivc --version"); !strings.HasPrefix(v, "ivc ") {
		t.Errorf("go tool ivc --version printed %q", v)
	}
}

// offline matches the go command's errors when a module can be neither
// found in the cache nor downloaded.
var offline = regexp.MustCompile(`module lookup disabled|dial tcp|no such host|i/o timeout|connection refused`)
