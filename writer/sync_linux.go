package writer

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncData makes f's data durable, and its size, without the inode's
// times (fdatasync): what a commit needs, for less than fsync costs.
func syncData(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			return err
		}
	}
}
