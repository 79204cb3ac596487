// Package input reads the files ivc takes as input: specifications, option
// files and multi-traces. It reads regular files only — or standard input,
// when the path is "-" — and at most a given number of bytes, so that a
// device (/dev/zero, or a .htf link to it) ends in a clear error rather than
// exhausting memory, and a named pipe with no writer does not block forever:
//
//	src, err := input.ReadFile("run.htf", input.DefaultLimit)
//
// Errors are *fs.PathError values naming the file.
package input

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// DefaultLimit is the size limit of an input file unless told otherwise:
// 4 GiB, far more than any specification, and more than the largest
// multi-trace a single check can hold in memory anyway.
const DefaultLimit int64 = 4 << 30

// Stdin is the path that stands for standard input.
const Stdin = "-"

// ErrTooLarge is the error (within an *fs.PathError) of a file larger than
// the limit.
var ErrTooLarge = errors.New("larger than the size limit of input files")

// ErrNotRegular is the error (within an *fs.PathError) of a path that names
// neither a regular file nor a directory: a device, a named pipe, a socket.
var ErrNotRegular = errors.New("not a regular file")

// ReadFile returns the content of the regular file at path, or of standard
// input when path is "-", when it has at most limit bytes (DefaultLimit
// when limit is 0 or less). A symbolic link is followed. A device, a named
// pipe or a socket is an error wrapping ErrNotRegular, a directory one
// wrapping syscall.EISDIR (as os.ReadFile says), and a larger file one
// wrapping ErrTooLarge.
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	if path == Stdin {
		return readAll(os.Stdin, path, limit, 0)
	}
	f, size, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > limit {
		return nil, tooLarge(path, limit)
	}
	return readAll(f, path, limit, size)
}

// Open opens path for reading if it is a regular file, and returns its
// size: for a reader that streams the file (a log) instead of reading it
// whole. Standard input ("-") is the caller's to handle.
func Open(path string) (*os.File, int64, error) {
	f, err := open(path)
	if err != nil {
		return nil, 0, err
	}
	// Stat the opened file, not the path: the path may be changed to name
	// a device between the two calls.
	fi, err := f.Stat()
	if err == nil {
		err = checkMode(path, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// checkMode accepts regular files only.
func checkMode(path string, m fs.FileMode) error {
	var what string
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return &fs.PathError{Op: "read", Path: path, Err: errIsDir}
	case m&fs.ModeNamedPipe != 0:
		what = "is a named pipe"
	case m&fs.ModeSocket != 0:
		what = "is a socket"
	case m&fs.ModeCharDevice != 0:
		what = "is a character device"
	case m&fs.ModeDevice != 0:
		what = "is a block device"
	default:
		what = "has mode " + m.String()
	}
	return &fs.PathError{Op: "read", Path: path,
		Err: fmt.Errorf("%s, %w (give a file, or - for standard input)", what, ErrNotRegular)}
}

// errIsDir is the error of a directory, as os.ReadFile gives it.
var errIsDir error = syscall.EISDIR

// readAll reads r to its end, failing as soon as it holds more than limit
// bytes; size is the expected size (0 when unknown).
func readAll(r io.Reader, path string, limit, size int64) ([]byte, error) {
	// One byte more than the file's size, so that a file of the size
	// stat gave needs no second allocation to find its end.
	buf := make([]byte, 0, min(size, limit)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, tooLarge(path, limit)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: unwrap(err)}
		}
	}
}

func tooLarge(path string, limit int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrTooLarge, Size(limit))}
}

// unwrap returns the reason of a path error, so that the error is not
// wrapped twice with the path.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Size prints a number of bytes for a reader: "4 GiB", "1.5 MiB", "100 bytes".
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	x, i := float64(n)/unit, 0
	for x >= unit && i < len(units)-1 {
		x /= unit
		i++
	}
	if x == float64(int64(x)) {
		return fmt.Sprintf("%d %s", int64(x), units[i])
	}
	return fmt.Sprintf("%.1f %s", x, units[i])
}
