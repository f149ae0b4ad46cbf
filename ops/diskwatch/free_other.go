//go:build !unix

package diskwatch

import "errors"

// FreeBytes is not read on this system: the watch refuses nothing.
func FreeBytes(string) (uint64, error) {
	return 0, errors.New("free disk space is not read on this system")
}
