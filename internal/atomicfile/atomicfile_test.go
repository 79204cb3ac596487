package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files lists the names in dir, to check that no temporary file is left.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReplacesContentAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "spec.hif")
	if err := os.WriteFile(path, []byte("old content, longer than the new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o751); err != nil { // an unusual mode, past the umask
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new" {
		t.Errorf("content %q, want %q", got, "new")
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != 0o751 {
		t.Errorf("mode %v, want %v", fi.Mode(), fs.FileMode(0o751))
	}
	if got := files(t, dir); len(got) != 1 || got[0] != "spec.hif" {
		t.Errorf("directory holds %q, want only spec.hif", got)
	}
}

func TestNewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.htf")
	if err := WriteFile(path, []byte("{}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "{}\n" {
		t.Errorf("content %q", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode() != 0o640 {
		t.Errorf("mode %v (%v), want %v", fi.Mode(), err, fs.FileMode(0o640))
	}
	// A relative path in the working directory.
	t.Chdir(dir)
	if err := WriteFile("rel.dot", []byte("digraph{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "rel.dot")); got != "digraph{}" {
		t.Errorf("content %q", got)
	}
}

func TestFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "models", "abp.hif")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	// link -> link2 -> models/abp.hif, both relative.
	link2 := filepath.Join(dir, "link2")
	if err := os.Symlink(filepath.Join("models", "abp.hif"), link2); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("link2", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, target); got != "new" {
		t.Errorf("target holds %q, want new", got)
	}
	for _, l := range []string{link, link2} {
		fi, err := os.Lstat(l)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v, %v)", l, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode() != 0o600 {
		t.Errorf("target mode %v (%v), want 0600", fi.Mode(), err)
	}

	// A dangling link: its target is created, as os.WriteFile would.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join("models", "new.hif"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, []byte("created"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "models", "new.hif")); got != "created" {
		t.Errorf("dangling link's target holds %q", got)
	}
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the dangling link was replaced")
	}

	// A loop of links is an error, not a hang.
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(loop, []byte("x"), 0o644); err == nil {
		t.Errorf("writing through a loop of links succeeded")
	}
}

func TestFailureLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "spec.hsf")
	if err := os.WriteFile(path, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The last step fails, after the temporary file was written.
	defer func(r func(string, string) error) { rename = r }(rename)
	boom := errors.New("boom")
	var tmp string
	rename = func(from, to string) error {
		tmp = from
		if data, err := os.ReadFile(from); err != nil || string(data) != "replacement" {
			t.Errorf("temporary file %s holds %q (%v) before the rename", from, data, err)
		}
		return boom
	}
	err := WriteFile(path, []byte("replacement"), 0o644)
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != path {
		t.Errorf("error %#v does not name %s", err, path)
	}
	if filepath.Dir(tmp) != dir || !strings.HasPrefix(filepath.Base(tmp), ".spec.hsf.tmp") {
		t.Errorf("temporary file %s, want .spec.hsf.tmp* beside the file", tmp)
	}
	if got := readFile(t, path); got != "original" {
		t.Errorf("file holds %q after a failed write", got)
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("directory holds %q after a failed write, want only spec.hsf", got)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	// A directory is not replaced by a file.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("writing over a directory: %v", err)
	}
	// A missing directory.
	missing := filepath.Join(dir, "none", "f.htf")
	err := WriteFile(missing, []byte("x"), 0o644)
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "write "+missing+":") {
		t.Errorf("writing into a missing directory: %v", err)
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("directory holds %q, want only sub", got)
	}
}

// TestRemoveTemps: an interrupt while a file is being written (here, just
// before its rename) removes the temporary file, and leaves the original
// (SIGINT left a hidden 37 MB .NAME.tmpNNN behind).
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(r func(string, string) error) { rename = r }(rename)
	rename = func(from, to string) error {
		if _, err := os.Stat(from); err != nil {
			t.Errorf("no temporary file before the interrupt: %v", err)
		}
		RemoveTemps() // what ivc's SIGINT handler does
		if _, err := os.Stat(from); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("temporary file %s left after RemoveTemps: %v", from, err)
		}
		return errors.New("interrupted")
	}
	if err := WriteFile(path, []byte("replacement"), 0o644); err == nil {
		t.Fatal("no error")
	}
	if got := readFile(t, path); got != "original" {
		t.Errorf("file holds %q after an interrupted write", got)
	}
	if got := files(t, dir); len(got) != 1 {
		t.Errorf("directory holds %q after an interrupted write", got)
	}
}
