//go:build !unix

package writer

import (
	"errors"
	"os"
)

func lockFile(f *os.File) error {
	return errors.New("appending needs flock, which this platform lacks")
}

func unlockFile(f *os.File) error { return nil }

func tryLockFile(f *os.File) (bool, error) { return false, nil }

func lockDir(d *os.File, exclusive bool) error {
	return errors.New("folder locks need flock, which this platform lacks")
}
