package textfile

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// CompressionOf is the compression of a file: the option's (none, gzip
// or zstd), or with auto the one its name's extension names (.gz,
// .zst).
func CompressionOf(option, path string) string {
	if option != "auto" {
		return option
	}
	p := strings.ToLower(path)
	switch {
	case strings.HasSuffix(p, ".gz"):
		return "gzip"
	case strings.HasSuffix(p, ".zst"):
		return "zstd"
	}
	return "none"
}

// Open opens a file for reading, decompressed as CompressionOf names.
// An error of opening is os.Open's (errors.Is(err, fs.ErrNotExist)
// holds for a missing file); one of a decompressor's says which.
func Open(path, compression string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	switch CompressionOf(compression, path) {
	case "gzip":
		z, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("not a gzip file: %w", err)
		}
		return readCloser{z, func() error { z.Close(); return f.Close() }}, nil
	case "zstd":
		// One goroutine-free decoder: the scan pulls the bytes itself.
		z, err := zstd.NewReader(f, zstd.WithDecoderConcurrency(1))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("not a zstd file: %w", err)
		}
		return readCloser{z, func() error { z.Close(); return f.Close() }}, nil
	}
	return f, nil
}

// readCloser is a reader with its own Close.
type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }
