package input

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.htf")
	if err := os.WriteFile(path, []byte("{ [a] a!m }"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{11, 12, 0, DefaultLimit} {
		src, err := ReadFile(path, limit)
		if err != nil || string(src) != "{ [a] a!m }" {
			t.Errorf("limit %d: %q, %v", limit, src, err)
		}
	}
	link := filepath.Join(dir, "link.htf")
	if err := os.Symlink("run.htf", link); err != nil {
		t.Fatal(err)
	}
	if src, err := ReadFile(link, 100); err != nil || string(src) != "{ [a] a!m }" {
		t.Errorf("through a link: %q, %v", src, err)
	}
}

func TestReadFileTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.htf")
	if err := os.WriteFile(path, []byte("{ [a] a!m }"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, 10)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if want := path + ": larger than the size limit of input files (10 bytes)"; pathError(err) != want {
		t.Errorf("got %q, want %q", pathError(err), want)
	}
}

// pathError prints err as ivc does: "path: reason".
func pathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB",
		4 << 30: "4 GiB", 100 << 20: "100 MiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
