package inflate

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

var (
	errMagic      = errors.New("not a gzip member (bad magic or method)")
	errFlags      = errors.New("reserved gzip header flags set")
	errHeaderCRC  = errors.New("gzip header CRC mismatch")
	errDataCRC    = errors.New("gzip CRC-32 mismatch")
	errMemberSize = errors.New("gzip ISIZE differs from the member's decoded size")
)

// gzip header flags (RFC 1952 2.3.1).
const (
	flagHCRC    = 1 << 1
	flagExtra   = 1 << 2
	flagName    = 1 << 3
	flagComment = 1 << 4
	flagsKnown  = 1<<5 - 1
)

// DecodeGzip decodes every gzip member in src, one after another as RFC
// 1952 allows, into dst, which must be exactly as long as the decoded data
// (see Decode). Each member's CRC-32 and ISIZE are checked, and so is the
// header CRC where present. Bytes after the last member that do not start
// another member are an error, as they are for Go's gzip reader.
func DecodeGzip(dst, src []byte) ([]byte, error) {
	d := decoders.Get().(*decoder)
	defer d.release()
	in, o := 0, 0
	for {
		start, err := gzipHeader(src, in)
		if err != nil {
			return dst, err
		}
		d.reset(dst, src, start, o)
		if err := d.inflate(); err != nil {
			return dst, err
		}
		d.align()
		end := d.pos
		if end > len(src)-8 {
			return dst, d.fail(errTruncated)
		}
		if crc32.ChecksumIEEE(dst[o:d.o]) != binary.LittleEndian.Uint32(src[end:]) {
			return dst, &CorruptError{Offset: end, Err: errDataCRC}
		}
		if uint32(d.o-o) != binary.LittleEndian.Uint32(src[end+4:]) {
			return dst, &CorruptError{Offset: end + 4, Err: errMemberSize}
		}
		in, o = end+8, d.o
		if in == len(src) {
			break
		}
	}
	if o != len(dst) {
		return dst, &CorruptError{Offset: len(src), Err: ErrTooShort}
	}
	return dst, nil
}

// gzipHeader checks the member header at src[in:] (RFC 1952 2.3) and
// returns where its DEFLATE data starts.
func gzipHeader(src []byte, in int) (int, error) {
	p := in
	if len(src)-p < 10 {
		return 0, &CorruptError{Offset: len(src), Err: errTruncated}
	}
	if src[p] != 0x1f || src[p+1] != 0x8b || src[p+2] != 8 {
		return 0, &CorruptError{Offset: p, Err: errMagic}
	}
	flags := src[p+3]
	if flags&^flagsKnown != 0 {
		return 0, &CorruptError{Offset: p + 3, Err: errFlags}
	}
	p += 10
	if flags&flagExtra != 0 {
		if len(src)-p < 2 {
			return 0, &CorruptError{Offset: len(src), Err: errTruncated}
		}
		n := int(binary.LittleEndian.Uint16(src[p:]))
		if len(src)-p-2 < n {
			return 0, &CorruptError{Offset: len(src), Err: errTruncated}
		}
		p += 2 + n
	}
	for _, f := range [2]byte{flagName, flagComment} {
		if flags&f == 0 {
			continue
		}
		for { // a zero-terminated string
			if p >= len(src) {
				return 0, &CorruptError{Offset: len(src), Err: errTruncated}
			}
			p++
			if src[p-1] == 0 {
				break
			}
		}
	}
	if flags&flagHCRC != 0 {
		if len(src)-p < 2 {
			return 0, &CorruptError{Offset: len(src), Err: errTruncated}
		}
		if uint16(crc32.ChecksumIEEE(src[in:p])) != binary.LittleEndian.Uint16(src[p:]) {
			return 0, &CorruptError{Offset: p, Err: errHeaderCRC}
		}
		p += 2
	}
	return p, nil
}
