package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goGenerateDirective returns the //go:generate line of docs/compiled.md's
// recipe.
func goGenerateDirective(t testing.TB) string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "compiled.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := regexp.MustCompile(`(?m)^//go:generate .*$`).FindAllString(string(page), -1)
	if len(lines) != 1 {
		t.Fatalf("docs/compiled.md shows %d go:generate lines, want 1: %q", len(lines), lines)
	}
	return lines[0]
}

// TestGoGenerateDirective: every place that shows the go:generate line
// shows the same one: docs/compiled.md (whose recipe TestGoGenerate runs),
// ivc compile --help, and, with placeholders for the files, the
// documentation of a generated package.
func TestGoGenerateDirective(t *testing.T) {
	directive := goGenerateDirective(t)
	const form = "//go:generate go tool ivc compile "
	if !strings.HasPrefix(directive, form) {
		t.Fatalf("docs/compiled.md: %q does not start with %q", directive, form)
	}
	var stdout, stderr bytes.Buffer
	if status := run([]string{"compile", "--help"}, testEnv(&stdout, &stderr)); status != 0 {
		t.Fatalf("ivc compile --help: exit status %d\n%s", status, stderr.String())
	}
	if !strings.Contains(stdout.String(), "\n  "+directive+"\n") {
		t.Errorf("ivc compile --help does not show %q:\n%s", directive, stdout.String())
	}
	spec, err := filepath.Abs(filepath.Join("..", "..", "testdata", "abp", "abp.hsf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "abpverify")
	stdout.Reset()
	if status := run([]string{"compile", spec, "-o", dir}, testEnv(&stdout, &stderr)); status != 0 {
		t.Fatalf("ivc compile: exit status %d\n%s", status, stderr.String())
	}
	src, err := os.ReadFile(filepath.Join(dir, "verifier.go"))
	if err != nil {
		t.Fatal(err)
	}
	doc := regexp.MustCompile(`(?m)^//\s*//go:generate .*$`).FindAllString(string(src), -1)
	if len(doc) != 1 || !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(doc[0], "//")), form) {
		t.Errorf("the generated package's documentation shows %q, want one line of the form %q", doc, form+"...")
	}
}
