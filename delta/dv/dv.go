// Package dv reads and writes Delta Lake deletion vectors: the
// deletionVector descriptor of add/remove actions, the Z85 text encoding
// Delta uses for inline vectors and UUIDs, Delta's portable
// RoaringBitmapArray serialization of 64-bit row-index sets, and the
// deletion_vector_<uuid>.bin files that hold one or more serialized vectors,
// each framed by a big-endian size and a CRC-32 checksum.
//
// Format notes, from the Delta protocol's "Deletion Vectors" section and its
// appendix "Deletion Vector Format":
//
//   - A serialized vector is the little-endian int32 magic 1681511377
//     followed by the 64-bit Roaring "portable" format. The older "native"
//     format (magic 1681511376) is rejected with an error saying so. Bucket
//     keys must have their top bit clear, so rows are below 2^63.
//   - A file is one version byte (1) and then, per vector, a big-endian
//     int32 size, the serialized vector (size bytes, magic included) and a
//     big-endian CRC-32 (IEEE) of those bytes. A descriptor's offset points
//     at the size field, so the first vector is at offset 1; sizeInBytes is
//     the size field's value.
//   - Inline vectors are Z85 text of the serialized vector zero-padded to a
//     multiple of 4 bytes; sizeInBytes is the unpadded length.
//   - The protocol's own inline JSON example decodes to a big-endian magic
//     and is not valid under the format the same document specifies; this
//     package rejects it.
//
// The package uses only the standard library.
package dv

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/objstore"
)

// Storage types of a [Descriptor].
const (
	StorageUUID     = "u" // file under the table root named by a Z85-encoded UUID
	StorageInline   = "i" // Z85-encoded bitmap inside the descriptor
	StorageAbsolute = "p" // file at an absolute path or URI
)

// fileVersion is the first byte of a deletion vector file.
const fileVersion = 1

// encodedUUIDLen is the length of a Z85-encoded 16-byte UUID.
const encodedUUIDLen = 20

// Descriptor is the deletionVector object of an add/remove action (JSON names
// as in the Delta protocol).
type Descriptor struct {
	StorageType    string `json:"storageType"`
	PathOrInlineDv string `json:"pathOrInlineDv"`
	Offset         *int32 `json:"offset,omitempty"`
	SizeInBytes    int32  `json:"sizeInBytes"`
	Cardinality    int64  `json:"cardinality"`
}

// UniqueID is the protocol's derived uniqueId: storageType followed by
// pathOrInlineDv, plus "@" and the offset when the offset is present.
func (d Descriptor) UniqueID() string {
	id := d.StorageType + d.PathOrInlineDv
	if d.Offset != nil {
		id += "@" + strconv.FormatInt(int64(*d.Offset), 10)
	}
	return id
}

// AbsolutePath returns the local file holding the deletion vector: for
// storage type "u", <tableRoot>/<random prefix>/deletion_vector_<uuid>.bin;
// for "p", the path itself (a file: URI or a plain path; a relative plain
// path, which the protocol does not allow, is taken relative to tableRoot).
// tableRoot may be a plain path or a file: URI. Inline vectors have no path.
func (d Descriptor) AbsolutePath(tableRoot string) (string, error) {
	switch d.StorageType {
	case StorageUUID:
		p := d.PathOrInlineDv
		if len(p) < encodedUUIDLen {
			return "", fmt.Errorf("dv: storage type u: pathOrInlineDv %q is shorter than a %d-character encoded UUID", p, encodedUUIDLen)
		}
		prefix, enc := p[:len(p)-encodedUUIDLen], p[len(p)-encodedUUIDLen:]
		if err := checkPrefix(prefix); err != nil {
			return "", err
		}
		raw, err := DecodeZ85(enc)
		if err != nil {
			return "", fmt.Errorf("dv: storage type u: UUID %q: %w", enc, err)
		}
		if objstore.IsURL(tableRoot) {
			return objstore.Join(tableRoot, prefix, FileName(raw)), nil
		}
		root, err := localPath(tableRoot)
		if err != nil {
			return "", err
		}
		return filepath.Join(root, filepath.FromSlash(prefix), FileName(raw)), nil
	case StorageAbsolute:
		if objstore.IsURL(d.PathOrInlineDv) {
			return d.PathOrInlineDv, nil
		}
		p, err := localPath(d.PathOrInlineDv)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(p) {
			root, err := localPath(tableRoot)
			if err != nil {
				return "", err
			}
			p = filepath.Join(root, p)
		}
		return p, nil
	case StorageInline:
		return "", errors.New("dv: an inline deletion vector has no file")
	}
	return "", fmt.Errorf("dv: unknown storage type %q (want u, i or p)", d.StorageType)
}

// FileName returns deletion_vector_<uuid>.bin for a 16-byte UUID, the UUID in
// its canonical lowercase 8-4-4-4-12 form.
func FileName(uuid []byte) string {
	const hexDigits = "0123456789abcdef"
	var s []byte
	for i, c := range uuid {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			s = append(s, '-')
		}
		s = append(s, hexDigits[c>>4], hexDigits[c&15])
	}
	return "deletion_vector_" + string(s) + ".bin"
}

// checkPrefix rejects random prefixes that would leave the table directory.
func checkPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if strings.HasPrefix(prefix, "/") || strings.Contains(prefix, `\`) || strings.ContainsRune(prefix, 0) {
		return fmt.Errorf("dv: invalid random prefix %q", prefix)
	}
	for _, el := range strings.Split(prefix, "/") {
		if el == ".." {
			return fmt.Errorf("dv: random prefix %q leaves the table directory", prefix)
		}
	}
	return nil
}

// localPath turns a file: URI or plain path into a local path; other URI
// schemes are an error.
func localPath(s string) (string, error) {
	if i := strings.Index(s, ":"); i > 1 && !strings.ContainsAny(s[:i], `/\`) {
		u, err := url.Parse(s)
		if err != nil {
			return "", fmt.Errorf("dv: path %q: %w", s, err)
		}
		if !strings.EqualFold(u.Scheme, "file") {
			return "", fmt.Errorf("dv: path %q: only local files are supported, not scheme %q", s, u.Scheme)
		}
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Errorf("dv: path %q: file URI with a remote host", s)
		}
		if u.Path == "" {
			return "", fmt.Errorf("dv: path %q: file URI without a path", s)
		}
		return filepath.FromSlash(u.Path), nil
	}
	return filepath.FromSlash(s), nil
}

// Load reads the deletion vector d describes, for a table whose root
// directory is tableRoot (a plain path or a file: URI), and validates it: the
// file's format version, the stored size against d.SizeInBytes, the CRC-32
// checksum, the serialization itself, and the cardinality against
// d.Cardinality. A file-backed descriptor without an offset is read at
// offset 1, just past the version byte. Errors name the file and offset.
func Load(tableRoot string, d Descriptor) (*Bitmap, error) {
	return LoadWith(tableRoot, d, nil)
}

// LoadWith is Load for a table whose root may be an object store URL,
// with the store's options.
func LoadWith(tableRoot string, d Descriptor, store map[string]string) (*Bitmap, error) {
	if d.SizeInBytes < 0 {
		return nil, fmt.Errorf("dv: deletion vector %s: negative sizeInBytes %d", d.UniqueID(), d.SizeInBytes)
	}
	if d.StorageType == StorageInline {
		b, err := loadInline(d)
		if err != nil {
			return nil, fmt.Errorf("dv: inline deletion vector: %w", err)
		}
		return b, nil
	}
	path, err := d.AbsolutePath(tableRoot)
	if err != nil {
		return nil, err
	}
	off := int64(1)
	if d.Offset != nil {
		off = int64(*d.Offset)
	}
	b, err := loadFile(path, off, d, store)
	if err != nil {
		return nil, fmt.Errorf("dv: deletion vector file %s at offset %d: %w", path, off, err)
	}
	return b, nil
}

func loadInline(d Descriptor) (*Bitmap, error) {
	raw, err := DecodeZ85(d.PathOrInlineDv)
	if err != nil {
		return nil, err
	}
	size := int(d.SizeInBytes)
	if len(raw) < size || len(raw)-size >= 4 {
		return nil, fmt.Errorf("decodes to %d bytes, which does not fit sizeInBytes %d padded to a multiple of 4", len(raw), size)
	}
	return unmarshalChecked(raw[:size], d)
}

func loadFile(path string, off int64, d Descriptor, store map[string]string) (*Bitmap, error) {
	if off < 1 {
		return nil, fmt.Errorf("offset %d is before the first deletion vector (offset 1)", off)
	}
	if objstore.IsURL(path) {
		obj, err := objstore.OpenURL(context.Background(), path, store)
		if err != nil {
			return nil, err
		}
		defer obj.Close()
		return loadFrom(obj, obj.Size(), off, d)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return loadFrom(f, st.Size(), off, d)
}

// loadFrom reads the deletion vector at off of a file of size bytes.
func loadFrom(f io.ReaderAt, fileSize, off int64, d Descriptor) (*Bitmap, error) {
	var ver [1]byte
	if _, err := f.ReadAt(ver[:], 0); err != nil {
		return nil, fmt.Errorf("reading format version: %w", noEOF(err))
	}
	if ver[0] != fileVersion {
		return nil, fmt.Errorf("unsupported deletion vector file format version %d (want %d)", ver[0], fileVersion)
	}
	size := int64(d.SizeInBytes)
	if end := off + 4 + size + 4; end > fileSize {
		return nil, fmt.Errorf("sizeInBytes %d needs bytes up to %d but the file has %d", size, end, fileSize)
	}
	buf := make([]byte, 4+size+4)
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil, noEOF(err)
	}
	if stored := binary.BigEndian.Uint32(buf); int64(stored) != size {
		return nil, fmt.Errorf("stored size %d does not match sizeInBytes %d", int32(stored), size)
	}
	data := buf[4 : 4+size]
	want := binary.BigEndian.Uint32(buf[4+size:])
	if got := crc32.ChecksumIEEE(data); got != want {
		return nil, fmt.Errorf("checksum mismatch: stored %#08x, computed %#08x", want, got)
	}
	return unmarshalChecked(data, d)
}

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

func unmarshalChecked(data []byte, d Descriptor) (*Bitmap, error) {
	b, err := Unmarshal(data)
	if err != nil {
		return nil, err
	}
	if d.Cardinality < 0 || b.Cardinality() != uint64(d.Cardinality) {
		return nil, fmt.Errorf("bitmap holds %d rows but the descriptor's cardinality is %d", b.Cardinality(), d.Cardinality)
	}
	return b, nil
}

// Inline returns an inline ("i") descriptor holding b. The serialized
// bitmap is zero-padded to a multiple of 4 bytes for Z85; sizeInBytes is the
// unpadded length, and Load drops the padding.
func Inline(b *Bitmap) (Descriptor, error) {
	data, err := b.MarshalBinary()
	if err != nil {
		return Descriptor{}, err
	}
	if len(data) > math.MaxInt32 {
		return Descriptor{}, fmt.Errorf("dv: serialized bitmap of %d bytes is too large", len(data))
	}
	size := len(data)
	for len(data)%4 != 0 {
		data = append(data, 0)
	}
	enc, err := EncodeZ85(data)
	if err != nil {
		return Descriptor{}, err
	}
	return Descriptor{
		StorageType:    StorageInline,
		PathOrInlineDv: enc,
		SizeInBytes:    int32(size),
		Cardinality:    int64(b.Cardinality()),
	}, nil
}

// WriteFile writes bitmaps, in order, into one new deletion vector file
// <tableRoot>/<prefix>/deletion_vector_<uuid>.bin named by a fresh random
// (version 4) UUID, and returns one "u" descriptor per bitmap with
// increasing offsets (the first at 1, just past the version byte). prefix may
// be empty; it must not be absolute or contain "..". No file is written for
// an empty list.
func WriteFile(tableRoot, prefix string, bitmaps []*Bitmap) ([]Descriptor, error) {
	if len(bitmaps) == 0 {
		return nil, nil
	}
	if err := checkPrefix(prefix); err != nil {
		return nil, err
	}
	var uuid [16]byte
	if _, err := rand.Read(uuid[:]); err != nil {
		return nil, fmt.Errorf("dv: generating UUID: %w", err)
	}
	uuid[6] = uuid[6]&0x0F | 0x40 // version 4
	uuid[8] = uuid[8]&0x3F | 0x80 // RFC 4122 variant
	enc, err := EncodeZ85(uuid[:])
	if err != nil {
		return nil, err
	}
	buf := []byte{fileVersion}
	descs := make([]Descriptor, 0, len(bitmaps))
	for i, b := range bitmaps {
		if b == nil {
			return nil, fmt.Errorf("dv: bitmap %d is nil", i)
		}
		data, err := b.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("dv: bitmap %d: %w", i, err)
		}
		off := len(buf)
		if int64(off)+8+int64(len(data)) > math.MaxInt32 {
			return nil, fmt.Errorf("dv: deletion vector file would exceed %d bytes", math.MaxInt32)
		}
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(data)))
		buf = append(buf, data...)
		buf = binary.BigEndian.AppendUint32(buf, crc32.ChecksumIEEE(data))
		o := int32(off)
		descs = append(descs, Descriptor{
			StorageType:    StorageUUID,
			PathOrInlineDv: prefix + enc,
			Offset:         &o,
			SizeInBytes:    int32(len(data)),
			Cardinality:    int64(b.Cardinality()),
		})
	}
	root, err := localPath(tableRoot)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, filepath.FromSlash(prefix))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dv: %w", err)
	}
	path := filepath.Join(dir, FileName(uuid[:]))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("dv: %w", err)
	}
	_, err = f.Write(buf)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("dv: writing %s: %w", path, err)
	}
	return descs, nil
}
