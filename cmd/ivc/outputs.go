package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ivc-project/ivc/syntax"
)

// checkOutput checks, before a batch runs, that ivc may write the file
// path: not through a symbolic link, not over one of the command's inputs
// (the same file, by any name), and, unless force, not over a file that
// ivc did not write (whose first bytes hold no marker; with an empty
// marker, for outputs that carry none, every existing file counts as one
// ivc did not write). A new file in a directory that exists is fine. flag
// names the option, for the message.
func checkOutput(flag, path string, inputs []string, marker string, force bool) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return checkDir(path)
	case err != nil:
		return syntax.FileError(err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s %s: a symbolic link: ivc writes no file through one (give the path of the file itself)", flag, syntax.FileName(path))
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s %s: not a regular file", flag, syntax.FileName(path))
	}
	for _, in := range inputs {
		if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
			return fmt.Errorf("%s %s: is the input %s: not replaced", flag, syntax.FileName(path), syntax.FileName(in))
		}
	}
	if force {
		return nil
	}
	if marker == "" {
		return fmt.Errorf("%s %s: exists: not replaced (remove it, choose another name, or give --force)", flag, syntax.FileName(path))
	}
	f, err := os.Open(path)
	if err != nil {
		return syntax.FileError(err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if !bytes.Contains(head[:n], []byte(marker)) {
		return fmt.Errorf("%s %s: exists and ivc did not write it: not replaced (remove it, choose another name, or give --force)", flag, syntax.FileName(path))
	}
	return nil
}

// checkDir checks that the directory of a new file exists, so that a bad
// path fails before the batch, not after it.
func checkDir(path string) error {
	fi, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("%s: %w", syntax.FileName(path), unwrapPath(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a directory", syntax.FileName(path), syntax.FileName(filepath.Dir(path)))
	}
	return nil
}

// unwrapPath returns the reason of an *fs.PathError.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
