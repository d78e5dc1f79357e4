// Package encryption holds the cryptographic layer of Parquet Modular
// Encryption (Encryption.md in parquet-format): module AADs, and the AES
// GCM and CTR module formats that AES_GCM_V1 and AES_GCM_CTR_V1 use. It
// knows nothing of files: parquet/file decrypts with it, writer encrypts.
//
// It is a leaf: it imports only the standard library (crypto/aes,
// crypto/cipher, and crypto/rand for nonces).
package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
)

// Module types, the byte of a module AAD that says what the module is.
const (
	Footer               byte = 0
	ColumnMetaData       byte = 1
	DataPage             byte = 2
	DictionaryPage       byte = 3
	DataPageHeader       byte = 4
	DictionaryPageHeader byte = 5
	ColumnIndex          byte = 6
	OffsetIndex          byte = 7
	BloomFilterHeader    byte = 8
	BloomFilterBitset    byte = 9
)

// ModuleName names a module type in error messages.
func ModuleName(m byte) string {
	switch m {
	case Footer:
		return "footer"
	case ColumnMetaData:
		return "column metadata"
	case DataPage:
		return "data page"
	case DictionaryPage:
		return "dictionary page"
	case DataPageHeader:
		return "data page header"
	case DictionaryPageHeader:
		return "dictionary page header"
	case ColumnIndex:
		return "column index"
	case OffsetIndex:
		return "offset index"
	case BloomFilterHeader:
		return "bloom filter header"
	case BloomFilterBitset:
		return "bloom filter bitset"
	}
	return fmt.Sprintf("module %d", m)
}

// Sizes of the parts of an encrypted module: the 4-byte little-endian
// length that precedes it, the nonce, the GCM tag.
const (
	LengthSize = 4
	NonceSize  = 12
	TagSize    = 16
	// GCMOverhead is what a GCM module adds to its plaintext, length
	// included; CTROverhead the same for a CTR module (no tag).
	GCMOverhead = LengthSize + NonceSize + TagSize
	CTROverhead = LengthSize + NonceSize
	// SignatureSize is the nonce and tag a plaintext footer is signed with.
	SignatureSize = NonceSize + TagSize
)

// MaxOrdinal is the largest row group, column or page ordinal a module AAD
// can hold (a signed 16-bit short, as the other implementations have it).
const MaxOrdinal = math.MaxInt16

// ErrAuth is returned when a module does not decrypt: the key or the AAD
// (file identity, prefix, module position) is wrong, or its bytes were
// changed.
var ErrAuth = errors.New("authentication failed (wrong key or AAD prefix, or tampered data)")

// ErrInvocations is returned once a key has encrypted 2^32 modules, the
// NIST SP 800-38D bound for random nonces.
var ErrInvocations = errors.New("encryption key used for 2^32 modules: use another key")

// AAD appends to dst the AAD of a module: the file AAD (prefix and file
// unique part), the module type, and for all but the footer the row group
// and column ordinals, then the page ordinal when page >= 0 (data pages
// and their headers).
func AAD(dst, fileAAD []byte, module byte, rowGroup, column, page int) ([]byte, error) {
	dst = append(dst, fileAAD...)
	dst = append(dst, module)
	if module == Footer {
		return dst, nil
	}
	if rowGroup < 0 || rowGroup > MaxOrdinal {
		return nil, fmt.Errorf("row group ordinal %d does not fit an encrypted file (at most %d)", rowGroup, MaxOrdinal)
	}
	if column < 0 || column > MaxOrdinal {
		return nil, fmt.Errorf("column ordinal %d does not fit an encrypted file (at most %d)", column, MaxOrdinal)
	}
	dst = binary.LittleEndian.AppendUint16(dst, uint16(rowGroup))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(column))
	if page >= 0 {
		if page > MaxOrdinal {
			return nil, fmt.Errorf("page ordinal %d does not fit an encrypted file (at most %d pages per column chunk)", page, MaxOrdinal)
		}
		dst = binary.LittleEndian.AppendUint16(dst, uint16(page))
	}
	return dst, nil
}

// Cipher encrypts and decrypts modules with one AES key. It is safe for
// concurrent use.
type Cipher struct {
	block cipher.Block
	gcm   cipher.AEAD
	// sealed counts the modules encrypted with the key.
	sealed atomic.Uint64
}

// NewCipher returns a Cipher for a 16, 24 or 32-byte AES key.
func NewCipher(key []byte) (*Cipher, error) {
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("AES key of %d bytes (want 16, 24 or 32)", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Cipher{block: block, gcm: gcm}, nil
}

// ModuleLength reads the 4-byte length that starts a module's bytes.
func ModuleLength(b []byte) (int64, error) {
	if len(b) < LengthSize {
		return 0, fmt.Errorf("encrypted module cut short: %d bytes", len(b))
	}
	return int64(binary.LittleEndian.Uint32(b)), nil
}

// split checks that b is one whole module (its length, then exactly as
// many bytes) of at least min bytes and returns what follows the length.
func split(b []byte, min int) ([]byte, error) {
	n, err := ModuleLength(b)
	if err != nil {
		return nil, err
	}
	if n != int64(len(b)-LengthSize) {
		return nil, fmt.Errorf("encrypted module says %d bytes, holds %d", n, len(b)-LengthSize)
	}
	if n < int64(min) {
		return nil, fmt.Errorf("encrypted module of %d bytes is shorter than its nonce and tag", n)
	}
	return b[LengthSize:], nil
}

// OpenGCM decrypts a GCM module b (its length, nonce, ciphertext and tag)
// whose AAD is aad, appending the plaintext to dst.
func (c *Cipher) OpenGCM(dst, b, aad []byte) ([]byte, error) {
	m, err := split(b, NonceSize+TagSize)
	if err != nil {
		return nil, err
	}
	out, err := c.gcm.Open(dst, m[:NonceSize], m[NonceSize:], aad)
	if err != nil {
		return nil, ErrAuth
	}
	return out, nil
}

// OpenCTR decrypts a CTR module b (its length, nonce and ciphertext),
// appending the plaintext to dst. CTR authenticates nothing: a wrong key
// gives garbage, which the layers above find corrupt.
func (c *Cipher) OpenCTR(dst, b []byte) ([]byte, error) {
	m, err := split(b, NonceSize)
	if err != nil {
		return nil, err
	}
	n := len(m) - NonceSize
	dst = grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	cipher.NewCTR(c.block, ctrIV(m[:NonceSize])).XORKeyStream(out, m[NonceSize:])
	return dst[:len(dst)+n], nil
}

// ctrIV is the CTR IV of a nonce: the nonce, then a 32-bit counter that
// starts at 1.
func ctrIV(nonce []byte) []byte {
	iv := make([]byte, aes.BlockSize)
	copy(iv, nonce)
	iv[aes.BlockSize-1] = 1
	return iv
}

func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n)
		copy(nb, b)
		return nb
	}
	return b
}

func (c *Cipher) count() error {
	if c.sealed.Add(1) > 1<<32 {
		return ErrInvocations
	}
	return nil
}

func nonce(b []byte) {
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail (Go 1.24+)
	}
}

// SealGCM appends to dst the GCM module of plaintext: its length, a fresh
// random nonce, the ciphertext and the tag.
func (c *Cipher) SealGCM(dst, plaintext, aad []byte) ([]byte, error) {
	if err := c.count(); err != nil {
		return nil, err
	}
	n := NonceSize + len(plaintext) + TagSize
	if int64(n) > math.MaxUint32 {
		return nil, fmt.Errorf("module of %d bytes is too large to encrypt", len(plaintext))
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	dst = grow(dst, n)
	start := len(dst)
	dst = dst[:start+NonceSize]
	nonce(dst[start:])
	return c.gcm.Seal(dst, dst[start:start+NonceSize], plaintext, aad), nil
}

// SealCTR appends to dst the CTR module of plaintext: its length, a fresh
// random nonce and the ciphertext.
func (c *Cipher) SealCTR(dst, plaintext []byte) ([]byte, error) {
	if err := c.count(); err != nil {
		return nil, err
	}
	n := NonceSize + len(plaintext)
	if int64(n) > math.MaxUint32 {
		return nil, fmt.Errorf("module of %d bytes is too large to encrypt", len(plaintext))
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	dst = grow(dst, n)
	start := len(dst)
	dst = dst[:start+n]
	nonce(dst[start : start+NonceSize])
	cipher.NewCTR(c.block, ctrIV(dst[start:start+NonceSize])).XORKeyStream(dst[start+NonceSize:], plaintext)
	return dst, nil
}

// Sign appends to dst the signature of a plaintext footer: a fresh nonce
// and the GCM tag of the footer under aad (the ciphertext is dropped).
func (c *Cipher) Sign(dst, footer, aad []byte) ([]byte, error) {
	if err := c.count(); err != nil {
		return nil, err
	}
	var n [NonceSize]byte
	nonce(n[:])
	sealed := c.gcm.Seal(nil, n[:], footer, aad)
	dst = append(dst, n[:]...)
	return append(dst, sealed[len(sealed)-TagSize:]...), nil
}

// Verify checks the signature sig (nonce and tag) of a plaintext footer.
func (c *Cipher) Verify(footer, sig, aad []byte) error {
	if len(sig) != SignatureSize {
		return fmt.Errorf("footer signature of %d bytes (want %d)", len(sig), SignatureSize)
	}
	sealed := c.gcm.Seal(nil, sig[:NonceSize], footer, aad)
	if subtle.ConstantTimeCompare(sealed[len(sealed)-TagSize:], sig[NonceSize:]) != 1 {
		return ErrAuth
	}
	return nil
}
