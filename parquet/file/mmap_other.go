//go:build !unix

package file

import (
	"errors"
	"os"
	"time"
)

func acquireMapping(*os.File, int64) ([]byte, func() error, error) {
	return nil, nil, errors.New("mmap is not available")
}

func idleMappings() int { return 0 }

func setIdleMapTime(d time.Duration) time.Duration { return d }

func mappingKept(string) bool { return false }

func dropIdleMappings() {}
