//go:build !linux

package session

import (
	"errors"
	"os"
)

// createUnnamed is Linux's O_TMPFILE; elsewhere the caller makes a named
// file and removes it at once.
func createUnnamed(string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
