package writer

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/carquet-go/carquet/parquet/encryption"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
)

// Algorithm is a Parquet encryption algorithm.
type Algorithm int

const (
	// AesGcm (AES_GCM_V1) encrypts every module with AES GCM: pages are
	// authenticated too.
	AesGcm Algorithm = iota
	// AesGcmCtr (AES_GCM_CTR_V1) encrypts pages with AES CTR, faster but
	// unauthenticated, and the rest with GCM.
	AesGcmCtr
)

// ColumnKey is the key of an encrypted column and the metadata stored
// with it for readers to find it (a key id, say). A nil Key encrypts the
// column with the footer key.
type ColumnKey struct {
	Key, KeyMetadata []byte
}

// Encryption configures Parquet Modular Encryption of the file written
// (WithEncryption).
type Encryption struct {
	// FooterKey (16, 24 or 32 bytes) encrypts the footer, or signs it with
	// PlaintextFooter, and encrypts the columns that have no key of their
	// own. FooterKeyMetadata is stored for readers to find it.
	FooterKey, FooterKeyMetadata []byte
	// ColumnKeys names the encrypted columns by dotted leaf path, with
	// their keys; the other columns are written in plaintext. Nil
	// encrypts every column with the footer key.
	ColumnKeys map[string]ColumnKey
	// Algorithm is AesGcm (the default) or AesGcmCtr.
	Algorithm Algorithm
	// PlaintextFooter leaves the footer readable (and signed) so that
	// readers without keys, or without encryption support, read the
	// plaintext columns; the encrypted columns' statistics are then only
	// in their encrypted metadata.
	PlaintextFooter bool
	// AADPrefix identifies the file (a table name and partition, say):
	// readers can check it, and modules of one file do not pass for
	// another's. It is stored in the file unless DontStoreAADPrefix, when
	// readers must be given it.
	AADPrefix          []byte
	DontStoreAADPrefix bool
	// SharedColumnKeys lets ColumnKeys name columns the schema does not
	// have (keys kept for many tables' columns, as a database's are):
	// they are ignored instead of refused.
	SharedColumnKeys bool

	// fileUnique, when set, is the unique part of the file AAD: an
	// append takes the file's again.
	fileUnique []byte
}

// WithEncryption encrypts the file (Parquet Modular Encryption). Append
// keeps the file's encryption instead: see appendEncryption.
func WithEncryption(e Encryption) Option {
	return func(c *config) { c.encryption = &e }
}

// fileEncryptor holds the encryption state of a file being written.
type fileEncryptor struct {
	cfg    *Encryption
	footer *encryption.Cipher
	aad    []byte // prefix and file unique part
	alg    format.EncryptionAlgorithm
}

// columnEncryptor encrypts the modules of one column.
type columnEncryptor struct {
	fe       *fileEncryptor
	c        *encryption.Cipher
	ownKey   bool // a column key, not the footer key
	keyMeta  []byte
	col, rg  int
	aadBuf   []byte
	hdrBuf   []byte
	bodyBuf  []byte
	ctrPages bool
}

func newFileEncryptor(e *Encryption) (*fileEncryptor, error) {
	footer, err := encryption.NewCipher(e.FooterKey)
	if err != nil {
		return nil, fmt.Errorf("footer key: %w", err)
	}
	unique := e.fileUnique
	if unique == nil {
		unique = make([]byte, 8)
		if _, err := rand.Read(unique); err != nil {
			return nil, err
		}
	}
	fe := &fileEncryptor{cfg: e, footer: footer, aad: append(slices.Clone(e.AADPrefix), unique...)}
	var prefix []byte
	if !e.DontStoreAADPrefix {
		prefix = slices.Clone(e.AADPrefix)
	}
	// supply_aad_prefix is written always, false too, as Arrow C++
	// does: arrow-go's reader expects it.
	supply := format.Some(len(e.AADPrefix) > 0 && e.DontStoreAADPrefix)
	switch e.Algorithm {
	case AesGcm:
		fe.alg.AesGcmV1 = &format.AesGcmV1{AadPrefix: prefix, AadFileUnique: unique, SupplyAadPrefix: supply}
	case AesGcmCtr:
		fe.alg.AesGcmCtrV1 = &format.AesGcmCtrV1{AadPrefix: prefix, AadFileUnique: unique, SupplyAadPrefix: supply}
	default:
		return nil, fmt.Errorf("unknown encryption algorithm %d", e.Algorithm)
	}
	return fe, nil
}

// column returns the encryptor of leaf column col at path, nil when the
// column is not encrypted.
func (fe *fileEncryptor) column(path string, col int, ciphers map[string]*encryption.Cipher) (*columnEncryptor, error) {
	ce := &columnEncryptor{fe: fe, c: fe.footer, col: col, ctrPages: fe.alg.AesGcmCtrV1 != nil}
	if fe.cfg.ColumnKeys != nil {
		k, ok := fe.cfg.ColumnKeys[path]
		if !ok {
			return nil, nil
		}
		if k.Key != nil {
			c, ok := ciphers[string(k.Key)]
			if !ok {
				var err error
				if c, err = encryption.NewCipher(k.Key); err != nil {
					return nil, fmt.Errorf("column %s: key: %w", path, err)
				}
				ciphers[string(k.Key)] = c
			}
			ce.c, ce.ownKey, ce.keyMeta = c, true, k.KeyMetadata
		}
	}
	if col > encryption.MaxOrdinal {
		return nil, fmt.Errorf("an encrypted file holds at most %d columns", encryption.MaxOrdinal+1)
	}
	return ce, nil
}

// seal appends the GCM module of b to dst.
func (ce *columnEncryptor) seal(dst, b []byte, module byte, page int) ([]byte, error) {
	aad, err := encryption.AAD(ce.aadBuf[:0], ce.fe.aad, module, ce.rg, ce.col, page)
	if err != nil {
		return nil, err
	}
	ce.aadBuf = aad
	return ce.c.SealGCM(dst, b, aad)
}

// sealPage appends the module of a page body: CTR or GCM.
func (ce *columnEncryptor) sealPage(dst, b []byte, module byte, page int) ([]byte, error) {
	if ce.ctrPages {
		if page > encryption.MaxOrdinal {
			return nil, fmt.Errorf("page ordinal %d does not fit an encrypted file (at most %d pages per column chunk)", page, encryption.MaxOrdinal)
		}
		return ce.c.SealCTR(dst, b)
	}
	return ce.seal(dst, b, module, page)
}

// page encrypts a page: its body, and its header once the body's size
// and CRC are set in it. It returns the header and body to write.
func (ce *columnEncryptor) page(h *format.PageHeader, body []byte, ordinal int, checksum bool) (hdr, encBody []byte, err error) {
	bodyModule, hdrModule := encryption.DataPage, encryption.DataPageHeader
	if h.Type == format.DictionaryPage {
		bodyModule, hdrModule, ordinal = encryption.DictionaryPage, encryption.DictionaryPageHeader, -1
	}
	if ce.bodyBuf, err = ce.sealPage(ce.bodyBuf[:0], body, bodyModule, ordinal); err != nil {
		return nil, nil, err
	}
	h.CompressedPageSize = int32(len(ce.bodyBuf))
	h.CRC = format.Opt[int32]{}
	if checksum {
		h.CRC = format.Some(int32(crc32.ChecksumIEEE(ce.bodyBuf)))
	}
	plain := format.Marshal(nil, h)
	if ce.hdrBuf, err = ce.seal(ce.hdrBuf[:0], plain, hdrModule, ordinal); err != nil {
		return nil, nil, err
	}
	return ce.hdrBuf, ce.bodyBuf, nil
}

// encryptChunk sets the crypto metadata of a column chunk of the footer.
// Its metadata is encrypted (Encryption.md 5.3) unless the footer is,
// with the same key: when the column has a key of its own, or the footer
// is plaintext.
func (ce *columnEncryptor) encryptChunk(cc *format.ColumnChunk, rg int, plaintextFooter bool) error {
	md := cc.MetaData
	if !ce.ownKey {
		cc.CryptoMetadata = &format.ColumnCryptoMetaData{EncryptionWithFooterKey: &format.EncryptionWithFooterKey{}}
		if !plaintextFooter {
			return nil
		}
	} else {
		cc.CryptoMetadata = &format.ColumnCryptoMetaData{EncryptionWithColumnKey: &format.EncryptionWithColumnKey{
			PathInSchema: slices.Clone(md.PathInSchema), KeyMetadata: ce.keyMeta}}
	}
	ce.rg = rg
	enc, err := ce.seal(nil, format.Marshal(nil, md), encryption.ColumnMetaData, -1)
	if err != nil {
		return err
	}
	cc.EncryptedColumnMetadata = enc
	if !plaintextFooter {
		cc.MetaData = nil
		return nil
	}
	// The plaintext footer keeps what readers without the key need to
	// find the chunk, not its statistics.
	stripped := *md
	stripped.Statistics, stripped.EncodingStats, stripped.SizeStatistics = nil, nil, nil
	cc.MetaData = &stripped
	return nil
}

// appendFooter appends the encrypted tail of a file: for an encrypted
// footer the FileCryptoMetaData and the footer module, for a plaintext
// one the footer and its signature; then their length and the magic.
func (fe *fileEncryptor) appendFooter(dst []byte, meta *format.FileMetaData) ([]byte, error) {
	aad, _ := encryption.AAD(nil, fe.aad, encryption.Footer, 0, 0, -1)
	start := len(dst)
	var err error
	if fe.cfg.PlaintextFooter {
		meta.EncryptionAlgorithm = &fe.alg
		meta.FooterSigningKeyMetadata = fe.cfg.FooterKeyMetadata
		dst = format.Marshal(dst, meta)
		if dst, err = fe.footer.Sign(dst, dst[start:], aad); err != nil {
			return nil, err
		}
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(dst)-start))
		return append(dst, magic...), nil
	}
	cm := format.FileCryptoMetaData{EncryptionAlgorithm: fe.alg, KeyMetadata: fe.cfg.FooterKeyMetadata}
	dst = format.Marshal(dst, &cm)
	if dst, err = fe.footer.SealGCM(dst, format.Marshal(nil, meta), aad); err != nil {
		return nil, err
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(dst)-start))
	return append(dst, magicEncrypted...), nil
}

var magicEncrypted = []byte("PARE")

// decryption is the keys of e as a reader takes them; nil for nil.
func (e *Encryption) decryption() *file.Decryption {
	if e == nil {
		return nil
	}
	d := &file.Decryption{FooterKey: e.FooterKey, AADPrefix: e.AADPrefix, ColumnKeys: map[string][]byte{}}
	for path, k := range e.ColumnKeys {
		if k.Key != nil {
			d.ColumnKeys[path] = k.Key
		}
	}
	return d
}

// appendEncryption makes the options of an append to old keep the
// file's encryption. A plaintext file's new row groups are plaintext,
// WithEncryption or not. An encrypted file's are encrypted as its others:
// with its algorithm, file AAD (so that its modules keep their identity),
// footer mode and footer key metadata, and each column in plaintext, with
// the footer key or with its own key (and key metadata) as in the file;
// given (WithEncryption) holds the keys, which must be the file's.
func appendEncryption(old *file.File, given *Encryption, opts []Option) ([]Option, error) {
	fe, ok := old.Encryption()
	if !ok {
		return append(opts, func(c *config) { c.encryption = nil }), nil
	}
	if given == nil || given.FooterKey == nil {
		return nil, fmt.Errorf("%w: appending to an encrypted file takes its footer key (WithEncryption)", file.ErrEncrypted)
	}
	e := Encryption{FooterKey: given.FooterKey, FooterKeyMetadata: fe.FooterKeyMetadata, PlaintextFooter: fe.PlaintextFooter,
		AADPrefix: fe.AADPrefix, ColumnKeys: map[string]ColumnKey{}}
	var stored []byte
	switch a := fe.Algorithm; {
	case a.AesGcmV1 != nil:
		stored, e.fileUnique = a.AesGcmV1.AadPrefix, a.AesGcmV1.AadFileUnique
	case a.AesGcmCtrV1 != nil:
		stored, e.fileUnique, e.Algorithm = a.AesGcmCtrV1.AadPrefix, a.AesGcmCtrV1.AadFileUnique, AesGcmCtr
	}
	e.DontStoreAADPrefix = stored == nil && e.AADPrefix != nil
	if e.fileUnique == nil {
		// newFileEncryptor would draw a new one: the file's modules
		// would no longer pass for its own.
		e.fileUnique = []byte{}
	}
	rgs := old.Meta.RowGroups
	for col, leaf := range old.Schema.Leaves {
		path := leaf.PathString()
		var first *format.ColumnCryptoMetaData
		for rg := range rgs {
			cm := rgs[rg].Columns[col].CryptoMetadata
			if rg == 0 {
				first = cm
			} else if !sameColumnCrypto(first, cm) {
				return nil, fmt.Errorf("column %s is encrypted differently in row groups 0 and %d: appending to it is %w", path, rg, file.ErrUnsupported)
			}
			if cm != nil {
				// The chunk's key is checked: a missing or wrong one
				// fails here, naming the column.
				if _, err := old.Chunk(rg, col); err != nil {
					return nil, err
				}
			}
		}
		switch {
		case len(rgs) == 0:
			// No row group says: as given.
			if k, ok := given.ColumnKeys[path]; ok || given.ColumnKeys == nil {
				e.ColumnKeys[path] = k
			}
		case first == nil:
		case first.EncryptionWithColumnKey != nil:
			e.ColumnKeys[path] = ColumnKey{Key: given.ColumnKeys[path].Key, KeyMetadata: first.EncryptionWithColumnKey.KeyMetadata}
		default:
			e.ColumnKeys[path] = ColumnKey{}
		}
	}
	return append(opts, WithEncryption(e)), nil
}

// sameColumnCrypto reports whether two chunks of a column are encrypted
// alike: both plaintext, both with the footer key, or both with a column
// key of the same metadata.
func sameColumnCrypto(a, b *format.ColumnCryptoMetaData) bool {
	switch {
	case a == nil || b == nil:
		return a == b
	case a.EncryptionWithColumnKey != nil && b.EncryptionWithColumnKey != nil:
		return bytes.Equal(a.EncryptionWithColumnKey.KeyMetadata, b.EncryptionWithColumnKey.KeyMetadata)
	}
	return (a.EncryptionWithFooterKey != nil) == (b.EncryptionWithFooterKey != nil)
}
