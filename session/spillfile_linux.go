package session

import (
	"os"

	"golang.org/x/sys/unix"
)

// createUnnamed opens a file in dir that has no name from the start
// (O_TMPFILE): whatever ends the process, even between two of its
// instructions, nothing is left in dir. Some file systems refuse it: the
// caller then falls back to a named file removed at once.
func createUnnamed(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_RDWR|unix.O_TMPFILE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), dir+"/(spill)"), nil
}
