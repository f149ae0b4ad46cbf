//go:build unix

package diskwatch

import "golang.org/x/sys/unix"

// FreeBytes is the space on dir's file system available to this process
// (statfs: the blocks free to unprivileged users).
func FreeBytes(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
