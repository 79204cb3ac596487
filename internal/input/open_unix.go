//go:build unix

package input

import (
	"os"
	"syscall"
)

// open opens path for reading without blocking: opening a named pipe
// otherwise waits for a writer, before ReadFile can see what it is.
func open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
