package syntax

import (
	"io/fs"

	"github.com/ivc-project/ivc/internal/input"
)

// The errors about a file itself (it is missing, a device, too large) print
// as the parse errors in it do, the file first: "abp.hsf: no such file or
// directory" beside "abp.hsf:3:10: expected '->' ...". Every reader of the
// module's inputs and every driver words them with FileError and FileName,
// and reads a source file with ReadFile.

// DefaultMaxFileSize is the size limit of ReadFile: 4 GiB.
const DefaultMaxFileSize = input.DefaultLimit

// ReadFile reads an input file as ReadFileLimit does, with the limit
// DefaultMaxFileSize.
func ReadFile(path string) ([]byte, error) {
	return ReadFileLimit(path, DefaultMaxFileSize)
}

// ReadFileLimit returns the content of the regular file at path (a symbolic
// link is followed), or of standard input when path is "-", when it has at
// most max bytes (DefaultMaxFileSize when max is 0 or less). Errors start
// with the file name, as every other input error does: "x.hsf: no such file
// or directory"; a device or a named pipe is an error (ErrNotRegular), and
// so is a larger file (ErrTooLarge), rather than a read that never ends or
// exhausts the memory.
func ReadFileLimit(path string, max int64) ([]byte, error) {
	src, err := input.ReadFile(path, max)
	if err != nil {
		return nil, FileError(err)
	}
	return src, nil
}

// ErrTooLarge is the error of an input file larger than the limit.
var ErrTooLarge = input.ErrTooLarge

// ErrNotRegular is the error of an input that is neither a regular file
// nor a directory: a device, a named pipe, a socket.
var ErrNotRegular = input.ErrNotRegular

// FileError rewrites an *fs.PathError ("open x: reason") as "x: reason",
// with x quoted when it holds a newline or another character that is not
// printable (see FileName). The error keeps its cause: errors.As finds the
// *fs.PathError, and errors.Is its reason (fs.ErrNotExist, ErrTooLarge).
// Any other error is returned as it is, one that wraps an *fs.PathError
// too: its text says more than the path error's (an error of a spill file
// made while reading another).
func FileError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return &fileError{pe}
	}
	return err
}

// fileError is an *fs.PathError printed without its operation.
type fileError struct{ pe *fs.PathError }

func (e *fileError) Error() string { return FileName(e.pe.Path) + ": " + e.pe.Err.Error() }
func (e *fileError) Unwrap() error { return e.pe }
