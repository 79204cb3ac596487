//go:build !unix

package input

import "os"

// open opens path for reading.
func open(path string) (*os.File, error) {
	return os.Open(path)
}
