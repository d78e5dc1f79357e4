//go:build !unix

package file

import (
	"errors"
	"os"
)

func mmapFile(*os.File, int64) ([]byte, error) { return nil, errors.New("mmap is not available") }

func munmap([]byte) error { return nil }
