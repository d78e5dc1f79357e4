//go:build !linux

package writer

import "errors"

func exchangeDirs(a, b string) error {
	return errors.New("swapping folders in one step needs Linux (renameat2)")
}
