package file

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/carquet-go/carquet/parquet/encryption"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/thrift"
)

// KeyRetriever finds a key by the key metadata a file stores for its
// footer or a column (Encryption.md section 4.3): a key id, a wrapped
// key, whatever the writer chose. Key returns a 16, 24 or 32-byte AES
// key, or an error when it has none for that metadata. It is called once
// per distinct key metadata of a file and must be safe for concurrent use
// when files are opened concurrently.
type KeyRetriever interface {
	Key(keyMetadata []byte) ([]byte, error)
}

// KeyRetrieverFunc adapts a function to KeyRetriever.
type KeyRetrieverFunc func(keyMetadata []byte) ([]byte, error)

// Key calls f.
func (f KeyRetrieverFunc) Key(keyMetadata []byte) ([]byte, error) { return f(keyMetadata) }

// Decryption holds what opening files with Parquet Modular Encryption
// takes: keys, given explicitly or found through a KeyRetriever, and the
// AAD prefix when the file does not store it.
//
// A file with an encrypted footer ("PARE") needs the footer key to open
// at all. A file with a plaintext footer opens without keys (its footer
// signature is then not checked) and reads its plaintext columns. An
// encrypted column whose key is missing or wrong fails when it is read,
// with an error naming it; the other columns read.
type Decryption struct {
	// FooterKey decrypts (or verifies the signature of) the footer, and
	// the columns encrypted with the footer key.
	FooterKey []byte
	// ColumnKeys holds column keys by dotted column path
	// ("a.b.list.element"), as the schema names the leaf.
	ColumnKeys map[string][]byte
	// Keys, when set, finds the keys FooterKey and ColumnKeys do not give,
	// from the key metadata stored in the file.
	Keys KeyRetriever
	// AADPrefix is the file's AAD prefix: required for files written
	// without storing it (supply_aad_prefix); for a file that stores one,
	// a different prefix is an error (the file is not the one expected).
	AADPrefix []byte
	// SkipFooterSignature turns off the check of a plaintext footer's
	// signature (made when the footer key is known).
	SkipFooterSignature bool
}

func (d *Decryption) footerKey(meta []byte) ([]byte, error) {
	if d == nil {
		return nil, nil
	}
	if d.FooterKey != nil {
		return d.FooterKey, nil
	}
	if d.Keys != nil {
		return d.Keys.Key(meta)
	}
	return nil, nil
}

// fileCrypto is the decryption state of an encrypted file.
type fileCrypto struct {
	ctr bool // AES_GCM_CTR_V1: pages in CTR mode
	// aad is the file AAD: prefix and unique part.
	aad []byte
	// alg, prefix and keyMeta are the algorithm as stored, the AAD
	// prefix in effect and the footer key's metadata: what a writer
	// appending to the file takes again (File.Encryption).
	alg     *format.EncryptionAlgorithm
	prefix  []byte
	keyMeta []byte
	// footer is the footer key's cipher; nil when it is not known (a
	// plaintext footer opened without it) — footerErr then says why.
	footer    *encryption.Cipher
	footerErr error
	// chunks holds per row group and leaf column how to decrypt the
	// chunk, or why it cannot be; nil for plaintext columns.
	chunks [][]*chunkCrypto
}

// chunkCrypto decrypts the modules of one column chunk.
type chunkCrypto struct {
	c       *encryption.Cipher
	err     error // no key, or the column metadata would not decrypt
	ctr     bool
	aad     []byte
	rg, col int
}

// aadOf is the module AAD of a module of the chunk (page < 0 for modules
// other than data pages and their headers).
func (cc *chunkCrypto) aadOf(module byte, page int) ([]byte, error) {
	return encryption.AAD(nil, cc.aad, module, cc.rg, cc.col, page)
}

// open decrypts a GCM module of the chunk.
func (cc *chunkCrypto) open(dst, b []byte, module byte, page int) ([]byte, error) {
	aad, err := cc.aadOf(module, page)
	if err != nil {
		return nil, err
	}
	out, err := cc.c.OpenGCM(dst, b, aad)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", encryption.ModuleName(module), ErrDecrypt, err)
	}
	return out, nil
}

// openPage decrypts a page (data or dictionary): CTR or GCM as the
// algorithm says.
func (cc *chunkCrypto) openPage(dst, b []byte, module byte, page int) ([]byte, error) {
	if !cc.ctr {
		return cc.open(dst, b, module, page)
	}
	out, err := cc.c.OpenCTR(dst, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", encryption.ModuleName(module), ErrCorrupt, err)
	}
	return out, nil
}

// algorithm returns the file AAD parts and the mode of an algorithm.
func algorithm(a *format.EncryptionAlgorithm) (prefix, unique []byte, supply, ctr bool, err error) {
	switch {
	case a.AesGcmV1 != nil:
		g := a.AesGcmV1
		return g.AadPrefix, g.AadFileUnique, g.SupplyAadPrefix.Value, false, nil
	case a.AesGcmCtrV1 != nil:
		g := a.AesGcmCtrV1
		return g.AadPrefix, g.AadFileUnique, g.SupplyAadPrefix.Value, true, nil
	}
	return nil, nil, false, false, fmt.Errorf("%w: unknown encryption algorithm", ErrUnsupported)
}

// newFileCrypto sets up decryption for a file of algorithm a whose footer
// key has the given metadata. A missing footer key is an error only when
// required.
func (f *File) newFileCrypto(a *format.EncryptionAlgorithm, keyMeta []byte, required bool) (*fileCrypto, error) {
	prefix, unique, supply, ctr, err := algorithm(a)
	if err != nil {
		return nil, f.wrap(-1, "", -1, err)
	}
	d := f.opts.Decryption
	switch {
	case prefix != nil && d != nil && d.AADPrefix != nil && !bytes.Equal(prefix, d.AADPrefix):
		return nil, f.errorf(-1, "", -1, "%w: the file's AAD prefix %q is not the one given (%q)", ErrDecrypt, prefix, d.AADPrefix)
	case prefix == nil && d != nil && d.AADPrefix != nil:
		if !supply {
			// The identity asked for cannot be checked: refuse, rather
			// than pass a file that may be another.
			return nil, f.errorf(-1, "", -1, "%w: an AAD prefix was given, but the file was written without one", ErrDecrypt)
		}
		prefix = d.AADPrefix
	}
	if prefix == nil && supply {
		return nil, f.errorf(-1, "", -1, "%w: the file was written with an AAD prefix it does not store: give it (Decryption.AADPrefix)", ErrEncrypted)
	}
	fc := &fileCrypto{ctr: ctr, aad: append(append([]byte(nil), prefix...), unique...), alg: a, prefix: prefix, keyMeta: keyMeta}
	key, err := d.footerKey(keyMeta)
	switch {
	case err != nil:
		fc.footerErr = fmt.Errorf("%w: footer key (key metadata %s): %w", ErrEncrypted, metaString(keyMeta), err)
	case key == nil:
		fc.footerErr = fmt.Errorf("%w: no footer key (key metadata %s): give it (Options.Decryption)", ErrEncrypted, metaString(keyMeta))
	default:
		fc.footer, err = encryption.NewCipher(key)
		if err != nil {
			fc.footerErr = fmt.Errorf("%w: footer key: %w", ErrEncrypted, err)
		}
	}
	if fc.footerErr != nil {
		fc.footer = nil
		if required {
			return nil, f.wrap(-1, "", -1, fc.footerErr)
		}
	}
	return fc, nil
}

// decryptFooter decrypts the footer region of a "PARE" file: a
// FileCryptoMetaData, then the footer module.
func (f *File) decryptFooter(region []byte, start int64) ([]byte, error) {
	var cm format.FileCryptoMetaData
	r := thrift.NewReader(region)
	r.MaxAlloc = f.opts.MetadataMemory(len(region))
	if err := cm.Decode(r); err != nil {
		return nil, f.errorf(-1, "", start, "%w: file crypto metadata: %w", ErrCorrupt, err)
	}
	fc, err := f.newFileCrypto(&cm.EncryptionAlgorithm, cm.KeyMetadata, true)
	if err != nil {
		return nil, err
	}
	f.crypt = fc
	off := start + int64(r.Offset())
	aad, _ := encryption.AAD(nil, fc.aad, encryption.Footer, 0, 0, -1)
	plain, err := fc.footer.OpenGCM(nil, region[r.Offset():], aad)
	if err != nil {
		return nil, f.errorf(-1, "", off, "footer: %w: %w", ErrDecrypt, err)
	}
	return plain, nil
}

// verifyFooter checks the signature of a plaintext footer: n bytes of
// Thrift followed by the 28-byte signature.
func (f *File) verifyFooter(footer []byte, n int, start int64) error {
	fc := f.crypt
	if fc.footer == nil || f.opts.Decryption.SkipFooterSignature {
		return nil
	}
	if len(footer)-n != encryption.SignatureSize {
		return f.errorf(-1, "", start+int64(n), "%w: plaintext footer of %d bytes followed by %d bytes, not a %d-byte signature", ErrCorrupt, n, len(footer)-n, encryption.SignatureSize)
	}
	aad, _ := encryption.AAD(nil, fc.aad, encryption.Footer, 0, 0, -1)
	if err := fc.footer.Verify(footer[:n], footer[n:], aad); err != nil {
		return f.errorf(-1, "", start+int64(n), "footer signature: %w: %w", ErrDecrypt, err)
	}
	return nil
}

// cipherCache holds the ciphers of one file by key, so that columns
// sharing a key share one cipher, and the retriever is asked once per key
// metadata.
type cipherCache struct {
	byKey  map[string]*encryption.Cipher
	byMeta map[string]keyResult
}

type keyResult struct {
	key []byte
	err error
}

// setupColumns prepares the decryption of every encrypted column chunk:
// its key, and its column metadata decrypted where it is stored
// encrypted. A chunk whose key is missing or wrong keeps its error for
// when it is read.
func (f *File) setupColumns() error {
	fc := f.crypt
	cache := cipherCache{byKey: map[string]*encryption.Cipher{}, byMeta: map[string]keyResult{}}
	fc.chunks = make([][]*chunkCrypto, len(f.Meta.RowGroups))
	for i := range f.Meta.RowGroups {
		g := &f.Meta.RowGroups[i]
		ord := i
		if o, ok := g.Ordinal.Get(); ok {
			ord = int(o)
		}
		for col := range g.Columns {
			cc := &g.Columns[col]
			if cc.CryptoMetadata == nil {
				if cc.EncryptedColumnMetadata != nil {
					return f.errorf(i, f.Schema.Leaves[col].PathString(), -1, "%w: encrypted column metadata without crypto metadata", ErrCorrupt)
				}
				continue
			}
			if fc.chunks[i] == nil {
				fc.chunks[i] = make([]*chunkCrypto, len(g.Columns))
			}
			st, err := f.columnCrypto(&cache, i, ord, col, cc)
			if err != nil {
				return err
			}
			fc.chunks[i][col] = st
		}
	}
	return nil
}

func (f *File) columnCrypto(cache *cipherCache, rg, ord, col int, cc *format.ColumnChunk) (*chunkCrypto, error) {
	fc := f.crypt
	path := f.Schema.Leaves[col].PathString()
	st := &chunkCrypto{ctr: fc.ctr, aad: fc.aad, rg: ord, col: col}
	if ord < 0 || ord > encryption.MaxOrdinal || col > encryption.MaxOrdinal {
		return nil, f.errorf(rg, path, -1, "%w: row group ordinal %d or column ordinal %d out of range for an encrypted file", ErrCorrupt, ord, col)
	}
	cm := cc.CryptoMetadata
	switch {
	case cm.EncryptionWithFooterKey != nil:
		st.c = fc.footer
		if st.c == nil {
			st.err = fc.footerErr
		}
	case cm.EncryptionWithColumnKey != nil:
		ck := cm.EncryptionWithColumnKey
		if len(ck.PathInSchema) > 0 && joinPath(ck.PathInSchema) != path {
			return nil, f.errorf(rg, path, -1, "%w: crypto metadata names column %s", ErrCorrupt, joinPath(ck.PathInSchema))
		}
		key, err := f.columnKey(cache, path, ck.KeyMetadata)
		switch {
		case err != nil:
			st.err = err
		default:
			c, ok := cache.byKey[string(key)]
			if !ok {
				if c, err = encryption.NewCipher(key); err != nil {
					st.err = fmt.Errorf("%w: column key: %w", ErrEncrypted, err)
				}
				cache.byKey[string(key)] = c
			}
			st.c = c
		}
	default:
		return nil, f.errorf(rg, path, -1, "%w: column crypto metadata of an unknown kind", ErrUnsupported)
	}
	if st.err != nil || cc.EncryptedColumnMetadata == nil {
		return st, nil
	}
	if int64(len(cc.EncryptedColumnMetadata)) > f.opts.MetadataMemory(len(f.footer)) {
		return nil, f.errorf(rg, path, -1, "encrypted column metadata of %d bytes is %w", len(cc.EncryptedColumnMetadata), ErrLimit)
	}
	plain, err := st.open(nil, cc.EncryptedColumnMetadata, encryption.ColumnMetaData, -1)
	if err != nil {
		st.err = err
		return st, nil
	}
	md := new(format.ColumnMetaData)
	r := thrift.NewReader(plain)
	r.MaxAlloc = f.opts.MetadataMemory(len(plain))
	if err := md.Decode(r); err != nil {
		return nil, f.errorf(rg, path, -1, "%w: decrypted column metadata: %w", ErrCorrupt, err)
	}
	cc.MetaData = md
	return st, nil
}

func joinPath(p []string) string {
	var b bytes.Buffer
	for i, s := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// columnKey is the key of the column at path: the one given for it, or
// the retriever's for its key metadata.
func (f *File) columnKey(cache *cipherCache, path string, meta []byte) ([]byte, error) {
	d := f.opts.Decryption
	if d != nil {
		if k, ok := d.ColumnKeys[path]; ok {
			return k, nil
		}
	}
	if d == nil || d.Keys == nil {
		return nil, fmt.Errorf("%w: no key for the column (key metadata %s): give it (Decryption.ColumnKeys or Keys)", ErrEncrypted, metaString(meta))
	}
	if r, ok := cache.byMeta[string(meta)]; ok {
		return r.key, r.err
	}
	k, err := d.Keys.Key(meta)
	if err == nil && k == nil {
		err = fmt.Errorf("no key")
	}
	if err != nil {
		err = fmt.Errorf("%w: column key (key metadata %s): %w", ErrEncrypted, metaString(meta), err)
	}
	cache.byMeta[string(meta)] = keyResult{k, err}
	return k, err
}

// chunkCrypto returns how to decrypt the chunk, nil for a plaintext one.
func (f *File) chunkCrypto(rg, col int) *chunkCrypto {
	if f.crypt == nil || f.crypt.chunks[rg] == nil {
		return nil
	}
	return f.crypt.chunks[rg][col]
}

// Encrypted reports whether the file uses Parquet Modular Encryption, and
// whether its footer is encrypted (else it is plaintext and signed).
func (f *File) Encrypted() (encrypted, footerEncrypted bool) {
	if f.crypt == nil {
		return false, false
	}
	return true, f.footerEncrypted
}

// Encryption is how an encrypted file was written.
type Encryption struct {
	// Algorithm is the file's, as stored: its AAD prefix is nil when the
	// file does not store it.
	Algorithm format.EncryptionAlgorithm
	// AADPrefix is the prefix in effect: the stored one, or the one given
	// (Decryption.AADPrefix).
	AADPrefix []byte
	// FooterKeyMetadata is stored with the footer (encrypted) or its
	// signing key (plaintext).
	FooterKeyMetadata []byte
	PlaintextFooter   bool
}

// Encryption returns how the file is encrypted, for a writer that appends
// to it (new modules must use the file's algorithm and AAD); ok is false
// for a plaintext file.
func (f *File) Encryption() (e Encryption, ok bool) {
	if f.crypt == nil {
		return e, false
	}
	return Encryption{Algorithm: *f.crypt.alg, AADPrefix: f.crypt.prefix, FooterKeyMetadata: f.crypt.keyMeta, PlaintextFooter: !f.footerEncrypted}, true
}

// readModule reads the encrypted module at off: its 4-byte length, then
// that many bytes, at most limit in all.
func (c *Chunk) readModule(off, limit int64, what string) ([]byte, error) {
	lb, err := c.File.ReadRange(off, encryption.LengthSize)
	if err != nil {
		return nil, c.wrap(off, fmt.Errorf("%s: %w", what, err))
	}
	n, _ := encryption.ModuleLength(lb)
	if n+encryption.LengthSize > limit {
		return nil, c.errorf(off, "%w: encrypted %s of %d bytes", ErrCorrupt, what, n)
	}
	b, err := c.File.ReadRange(off, n+encryption.LengthSize)
	if err != nil {
		return nil, c.wrap(off, fmt.Errorf("%s: %w", what, err))
	}
	return b, nil
}

// seekOrdinal sets the ordinal of the data page at off, where a seek
// goes: its place in the offset index, or 0 at the chunk's start.
func (it *PageIterator) seekOrdinal(off int64) error {
	if it.ords != nil {
		locs := it.ords.PageLocations
		i := sort.Search(len(locs), func(i int) bool { return locs[i].Offset >= off })
		if i < len(locs) && locs[i].Offset == off {
			it.ordinal = i
			return nil
		}
	}
	if off == it.start {
		it.ordinal = 0
		return nil
	}
	return it.c.errorf(off, "%w: seek to a page of an encrypted column chunk that its offset index does not list", ErrCorrupt)
}

// nextEncrypted is Next for an encrypted chunk: each page header is a
// module of its own (its length, then the encrypted header), and each page
// body one more.
func (it *PageIterator) nextEncrypted() (*Page, error) {
	cr := it.c.crypt
	for {
		if it.Offset() >= it.end {
			return nil, it.c.errorf(it.Offset(), "%w: column chunk ended before all %d values were read", ErrCorrupt, it.c.Meta.NumValues)
		}
		if err := it.load(); err != nil {
			return nil, err
		}
		off := it.Offset()
		avail := it.buf[it.pos:]
		var hlen int64 = encryption.LengthSize
		if len(avail) >= encryption.LengthSize {
			n, _ := encryption.ModuleLength(avail)
			hlen += n
		}
		if hlen > it.end-off {
			return nil, it.c.errorf(off, "%w: encrypted page header of %d bytes overruns the column chunk (%d bytes left)", ErrCorrupt, hlen, it.end-off)
		}
		if int64(len(avail)) < hlen || len(avail) < encryption.LengthSize {
			if it.windowed() {
				if err := it.loadAt(off, max(hlen, 2*int64(len(avail)))); err != nil {
					return nil, err
				}
				continue
			}
			return nil, it.c.errorf(off, "%w: encrypted page header overruns the column chunk", ErrCorrupt)
		}
		hb, err := it.openHeader(off, avail[:hlen])
		if err != nil {
			return nil, err
		}
		it.hdr = format.PageHeader{}
		it.r.Reset(hb)
		if err := it.hdr.Decode(&it.r); err != nil {
			return nil, it.c.errorf(off, "%w: page header: %w", ErrCorrupt, err)
		}
		h := &it.hdr
		body, reload, err := it.takeBody(off, it.pos+int(hlen), h)
		if err != nil {
			return nil, err
		}
		if reload {
			continue
		}
		var p *Page
		switch h.Type {
		case format.DictionaryPage:
			if it.plain, err = cr.openPage(it.plain[:0], body, encryption.DictionaryPage, -1); err != nil {
				return nil, it.c.wrap(off, err)
			}
			p, err = it.dictionaryPage(off, it.plain)
		case format.DataPage, format.DataPageV2:
			if it.plain, err = cr.openPage(it.plain[:0], body, encryption.DataPage, it.ordinal); err != nil {
				return nil, it.c.wrap(off, fmt.Errorf("page %d: %w", it.ordinal, err))
			}
			it.ordinal++
			if h.Type == format.DataPage {
				p, err = it.dataPageV1(off, it.plain)
			} else {
				p, err = it.dataPageV2(off, it.plain)
			}
		default:
			continue // index pages and unknown types, skipped
		}
		if err != nil {
			return nil, err
		}
		// The decryption buffer is reused by the next page.
		p.InFile = false
		return p, nil
	}
}

// openHeader decrypts the page header module b at off. The first page of
// a chunk may be a dictionary page or a data page, whose headers have AADs
// of different module types: the column metadata says which to expect,
// and the other is tried when it is wrong.
func (it *PageIterator) openHeader(off int64, b []byte) ([]byte, error) {
	cr := it.c.crypt
	first := off == it.start && it.ordinal == 0
	dict := false
	if first {
		d, ok := it.c.Meta.DictionaryPageOffset.Get()
		dict = ok && d > 0 && d <= it.c.Meta.DataPageOffset || hasDictionaryEncoding(it.c.Meta) && it.c.Meta.DataPageOffset > it.start
	}
	try := func(dict bool) ([]byte, error) {
		if dict {
			return cr.open(nil, b, encryption.DictionaryPageHeader, -1)
		}
		return cr.open(nil, b, encryption.DataPageHeader, it.ordinal)
	}
	hb, err := try(dict)
	if err != nil && first {
		if hb2, err2 := try(!dict); err2 == nil {
			return hb2, nil
		}
	}
	if err != nil {
		if !dict {
			err = fmt.Errorf("page %d: %w", it.ordinal, err)
		}
		return nil, it.c.wrap(off, err)
	}
	return hb, nil
}

// metaString shows key metadata in an error message, cut short if long.
func metaString(m []byte) string {
	if len(m) > 64 {
		return fmt.Sprintf("%q...", m[:64])
	}
	return fmt.Sprintf("%q", m)
}
