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
// written there, in a fresh module: record ivc as a tool (go get -tool,
// with a replace to this clone), write the package with the //go:generate
// line, go generate, and vet the result. It is behind the sweep tag (it builds ivc: seconds). It
// needs no network: the module proxy is off, and the test is skipped when
// the module cache lacks ivc's dependencies.
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
	replace := find(`(?m)^(go mod edit -replace github.com/ivc-project/ivc=)\S+$`)[1] + root
	getTool := find("(?m)^go get -tool .*$")[0]
	goGenerate := find("(?m)^go generate .*$")[0]
	pkg := find("(?s)```go\n(// Package logs [^`]*//go:generate go tool ivc compile[^`]*)```")[1]
	generate := find(`(?m)^//go:generate go tool ivc compile (\S+) -o (\S+) .*$`)
	spec, out := generate[1], generate[2]

	dir := t.TempDir()
	env := append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local",
		"GOFLAGS=-mod=mod -buildvcs=false")
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
			if strings.Contains(string(b), "GOPROXY=off") || strings.Contains(string(b), "module lookup disabled") {
				t.Skipf("%s: the module cache lacks a dependency of ivc (no network here):\n%s", line, b)
			}
			t.Fatalf("%s: %v\n%s", line, err, b)
		}
		return string(b)
	}
	sh("go mod init example.com/downstream")
	sh(replace)
	sh(getTool)
	if mod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.Contains(string(mod), "tool github.com/ivc-project/ivc/cmd/ivc") {
		t.Fatalf("go.mod after %q has no tool directive:\n%s", getTool, mod)
	}
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
	sh(goGenerate)
	if _, err := os.Stat(filepath.Join(dir, out, "verifier.go")); err != nil {
		t.Fatalf("go generate wrote no verifier: %v", err)
	}
	sh("go vet ./...")
	if v := sh("go tool ivc --version"); !strings.HasPrefix(v, "ivc ") {
		t.Errorf("go tool ivc --version printed %q", v)
	}
}
