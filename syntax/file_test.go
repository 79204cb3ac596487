package syntax

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileLimit: ReadFile reads regular files only, up to a limit,
// with errors that start with the file's name.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sig.hsf")
	if err := os.WriteFile(path, []byte("@lifeline{a}\n@message{m}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFileLimit(path, 10); !errors.Is(err, ErrTooLarge) ||
		err.Error() != path+": larger than the size limit of input files (10 bytes)" {
		t.Errorf("ReadFileLimit(10) = %v", err)
	}
	if src, err := ReadFileLimit(path, 0); err != nil || len(src) != 25 {
		t.Errorf("ReadFileLimit(0) = %q, %v", src, err)
	}
	if _, err := ReadFile(dir); err == nil || err.Error() != dir+": is a directory" {
		t.Errorf("ReadFile of a directory: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		return
	}
	link := filepath.Join(dir, "zero.hsf")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(link)
	if !errors.Is(err, ErrNotRegular) || err.Error() != link+": is a character device, not a regular file (give a file, or - for standard input)" {
		t.Errorf("ReadFile of a link to /dev/zero: %v", err)
	}
}

// TestFileErrorCause: FileError drops the operation from the message but
// keeps the *fs.PathError and its reason for errors.As and errors.Is; a
// name that could forge a line is quoted.
func TestFileErrorCause(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(filepath.Join(dir, "none.hsf"))
	var pe *fs.PathError
	if !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) || strings.HasPrefix(err.Error(), "open ") {
		t.Errorf("missing file: %v (%T)", err, err)
	}
	_, err = os.Open(filepath.Join(dir, "a\nb"))
	if got, want := FileError(err).Error(), `"`+dir+`/a\nb": no such file or directory`; got != want {
		t.Errorf("FileError = %q, want %q", got, want)
	}
	if other := errors.New("other"); FileError(other) != other {
		t.Errorf("FileError changed an error that is not an *fs.PathError")
	}
	// A path error within another error is left whole: the other error's
	// text says what failed (here, a spill file made while reading a log).
	if wrapped := fmt.Errorf("spilling sessions to disk: %w", err); FileError(wrapped) != wrapped {
		t.Errorf("FileError rewrote %q as %q", wrapped, FileError(wrapped))
	}
}
