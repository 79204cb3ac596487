package compile_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/internal/compile"
)

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	head := "// " + compile.Header + "\n\npackage p\n"
	files := []compile.Output{{Name: "verifier.go", Data: []byte(head)}, {Name: "old.go", Data: []byte(head)}}
	if err := compile.WriteDir(dir, "p", files, false); err != nil {
		t.Fatal(err)
	}
	// A hand-written file of the package stays; a generated one that the
	// output no longer has goes.
	mine := filepath.Join(dir, "mine.go")
	if err := os.WriteFile(mine, []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compile.WriteDir(dir, "p", files[:1], false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "old.go")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old.go: %v, want it removed", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("mine.go: %v", err)
	}

	// A file of another package, or one to be replaced that ivc did not
	// generate, stops the writing unless forced.
	var fe *compile.ForeignFileError
	if err := compile.WriteDir(dir, "q", files[:1], false); !errors.As(err, &fe) || fe.Package != "p" || fe.Path != mine {
		t.Errorf("package q beside package p: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "verifier.go"), []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compile.WriteDir(dir, "p", files[:1], false); !errors.As(err, &fe) || fe.Package != "" || fe.Err != nil {
		t.Errorf("replacing a hand-written file: %v", err)
	}
	if err := compile.WriteDir(dir, "p", files[:1], true); err != nil {
		t.Errorf("forced: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "verifier.go")); !compile.IsGenerated(data) {
		t.Errorf("forced: verifier.go not replaced")
	}
}

func TestImportPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if got, err := compile.ImportPath(sub); err != nil || got != "example.com/m/a/b" {
		t.Errorf("ImportPath = %q, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("go 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := compile.ImportPath(sub); err == nil {
		t.Error("ImportPath without a module line: no error")
	}
}
