package file

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/testfiles"
)

// The keys of parquet-testing's encrypted files (data/README.md): the
// files in data/ use 128-bit keys, those in data/aes256 256-bit ones, with
// the key metadata "kf" for the footer and "kcN" for the columns.
var (
	footerKey128  = []byte("0123456789012345")
	columnKeys128 = map[string][]byte{
		"double_field": []byte("1234567890123450"),
		"float_field":  []byte("1234567890123451"),
	}
	footerKey256  = []byte("01234567890123456789012345678901")
	columnKeys256 = map[string][]byte{}
	// keysByMetadata is what a key retriever holds for both sizes.
	keysByMetadata = map[string][]byte{}
)

func init() {
	for i, c := range []string{"double_field", "float_field", "boolean_field", "int32_field", "ba_field", "flba_field", "int64_field.list.element", "int96_field"} {
		columnKeys256[c] = []byte(fmt.Sprintf("1234567890123456789012345678901%d", 2+i)[:32])
	}
	keysByMetadata["kf"] = footerKey128
	keysByMetadata["kc1"] = columnKeys128["double_field"]
	keysByMetadata["kc2"] = columnKeys128["float_field"]
}

func testKeys(dir string) (footer []byte, cols map[string][]byte) {
	if dir == "aes256" {
		return footerKey256, columnKeys256
	}
	return footerKey128, columnKeys128
}

// checkEncryptedRows checks the 50 rows every encrypted conformance file
// holds (the writers' test data): booleans alternate, int32 is the row
// number, float and double are multiples of 1.1 and 1.1111111.
func checkEncryptedRows(t *testing.T, f *File, rows [][]any) {
	t.Helper()
	if f.Schema.Leaves[0].Name == "double_field" {
		// The bloom filter file: other data.
		if len(rows) != 2000 {
			t.Fatalf("%d rows, want 2000", len(rows))
		}
		for i, r := range rows {
			if r[0] != float64(i)+0.5 || r[1] != float32(i)+0.25 || r[3] != fmt.Sprintf("name_%d", i) {
				t.Fatalf("row %d: %v", i, r)
			}
		}
		return
	}
	if len(rows) != 50 {
		t.Fatalf("%d rows, want 50", len(rows))
	}
	col := map[string]int{}
	for i, fl := range f.Schema.Root.Children {
		col[fl.Name] = i
	}
	for i, r := range rows {
		// int32_field is a TIME(MILLIS).
		want := map[string]any{"boolean_field": i%2 == 0, "int32_field": time.Time{}.Add(time.Duration(i) * time.Millisecond),
			"float_field": float32(i) * 1.1, "double_field": float64(i) * 1.1111111}
		for name, w := range want {
			if got := r[col[name]]; got != w {
				t.Fatalf("row %d: %s = %v (%T), want %v", i, name, got, got, w)
			}
		}
	}
}

// TestEncryptedConformanceFiles reads every encrypted file of
// parquet-testing with its keys, given explicitly and through a key
// retriever, by mmap and by reads, and checks all their values agree.
func TestEncryptedConformanceFiles(t *testing.T) {
	files := []struct {
		dir, name string
		aad       string // AAD prefix to supply
	}{
		{"", "encrypt_columns_and_footer.parquet.encrypted", ""},
		{"", "encrypt_columns_and_footer_aad.parquet.encrypted", "tester"},
		{"", "encrypt_columns_and_footer_bloom_filter.parquet.encrypted", ""},
		{"", "encrypt_columns_and_footer_ctr.parquet.encrypted", ""},
		{"", "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", "tester"},
		{"", "encrypt_columns_plaintext_footer.parquet.encrypted", ""},
		{"", "uniform_encryption.parquet.encrypted", ""},
		{"aes256", "encrypt_columns_and_footer.parquet.encrypted", ""},
		{"aes256", "encrypt_columns_and_footer_ctr.parquet.encrypted", ""},
		{"aes256", "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", "tester"},
		{"aes256", "encrypt_columns_plaintext_footer.parquet.encrypted", ""},
		{"aes256", "uniform_encryption.parquet.encrypted", ""},
	}
	var reference [][]any
	for _, tc := range files {
		rel := filepath.Join("data", tc.dir, tc.name)
		t.Run(filepath.Join(tc.dir, tc.name), func(t *testing.T) {
			p := testfiles.Path(t, rel)
			footer, cols := testKeys(tc.dir)
			var aad []byte
			if tc.aad != "" {
				aad = []byte(tc.aad)
			}
			explicit := &Decryption{FooterKey: footer, ColumnKeys: cols, AADPrefix: aad}
			retrieved := &Decryption{AADPrefix: aad, Keys: KeyRetrieverFunc(func(m []byte) ([]byte, error) {
				if tc.dir == "aes256" {
					switch {
					case string(m) == "kf":
						return footerKey256, nil
					case strings.HasPrefix(string(m), "kc"):
						var n int
						fmt.Sscanf(string(m), "kc%d", &n)
						return []byte(fmt.Sprintf("1234567890123456789012345678901%d", n+1)[:32]), nil
					}
				}
				if k, ok := keysByMetadata[string(m)]; ok {
					return k, nil
				}
				return nil, fmt.Errorf("unknown key %q", m)
			})}
			for _, d := range []*Decryption{explicit, retrieved} {
				for _, mmap := range []bool{false, true} {
					for _, lazy := range []bool{false, true} {
						f, err := OpenFile(p, Options{Decryption: d, LazyColumns: lazy}, mmap)
						if err != nil {
							t.Fatal(err)
						}
						if enc, _ := f.Encrypted(); !enc {
							t.Fatal("Encrypted() = false")
						}
						rows := readRows(t, f, ReaderOptions{BatchSize: 7})
						checkEncryptedRows(t, f, rows)
						if strings.Contains(tc.name, "bloom") {
							// other data
						} else if reference == nil {
							reference = rows
						} else if !reflect.DeepEqual(rows, reference) {
							t.Fatalf("values differ from the first file's:\n%v\n%v", rows[1], reference[1])
						}
						// Page indexes and bloom filters of every column.
						for col := range f.Schema.Leaves {
							c, err := f.Chunk(0, col)
							if err != nil {
								t.Fatal(err)
							}
							if _, err := c.ColumnIndex(); err != nil {
								t.Fatal(err)
							}
							oi, err := c.OffsetIndex()
							if err != nil {
								t.Fatal(err)
							}
							if oi != nil && len(oi.PageLocations) == 0 {
								t.Fatal("empty offset index")
							}
							if _, err := c.BloomFilter(); err != nil {
								t.Fatal(err)
							}
						}
						// Row ranges: pages sought through the offset index.
						got := readRows(t, f, ReaderOptions{BatchSize: 4, Ranges: map[int][]RowRange{0: {{3, 9}, {40, 47}}}})
						want := append(append([][]any{}, rows[3:9]...), rows[40:47]...)
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("ranges: %v, want %v", got, want)
						}
						f.Close()
					}
				}
			}
		})
	}
}

// TestEncryptedBloomFilter checks the decrypted bloom filters hold the
// values of their columns.
func TestEncryptedBloomFilter(t *testing.T) {
	p := testfiles.Path(t, "data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted")
	f, err := OpenFile(p, Options{Decryption: &Decryption{FooterKey: footerKey128, ColumnKeys: columnKeys128}}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	found := 0
	for col, leaf := range f.Schema.Leaves {
		c, err := f.Chunk(0, col)
		if err != nil {
			t.Fatal(err)
		}
		bf, err := c.BloomFilter()
		if err != nil {
			t.Fatal(err)
		}
		if bf == nil {
			continue
		}
		found++
		if leaf.Name != "double_field" && leaf.Name != "float_field" {
			continue
		}
		for i := range 2000 {
			if !bf.Check(bloomHashValue(leaf.Name, i)) {
				t.Fatalf("%s: value of row %d not in the bloom filter", leaf.Name, i)
			}
		}
	}
	if found < 2 {
		t.Fatalf("%d bloom filters, want those of double_field and float_field", found)
	}
}

// TestEncryptedWithoutKeys: what opens and reads without some keys, and
// the errors of what does not.
func TestEncryptedWithoutKeys(t *testing.T) {
	plain := testfiles.Path(t, "data/encrypt_columns_plaintext_footer.parquet.encrypted")
	enc := testfiles.Path(t, "data/encrypt_columns_and_footer.parquet.encrypted")

	// A plaintext footer opens without keys; its plaintext columns read,
	// its encrypted ones fail by name.
	f, err := OpenFile(plain, Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, f, ReaderOptions{Columns: []string{"int32_field", "boolean_field"}})
	if len(rows) != 50 || rows[9][1] != false || rows[8][1] != true {
		t.Fatalf("plaintext columns: %v", rows)
	}
	_, err = f.NewReader(ReaderOptions{Columns: []string{"double_field"}})
	if err == nil {
		var r *Reader
		r, _ = f.NewReader(ReaderOptions{Columns: []string{"double_field"}})
		_, err = r.Next()
	}
	wantErr(t, err, ErrEncrypted, "encrypt_columns_plaintext_footer", "double_field", "no key")
	f.Close()

	// An encrypted footer with its key but without column keys: the
	// columns of the footer key read, the others fail by name.
	f, err = OpenFile(enc, Options{Decryption: &Decryption{FooterKey: footerKey128}}, false)
	if err != nil {
		t.Fatal(err)
	}
	rows = readRows(t, f, ReaderOptions{Columns: []string{"int32_field"}})
	if len(rows) != 50 {
		t.Fatalf("%d rows", len(rows))
	}
	_, err = f.Chunk(0, leafIndex(t, f, "float_field"))
	wantErr(t, err, ErrEncrypted, "encrypt_columns_and_footer.parquet.encrypted", "column float_field")
	f.Close()

	// No keys at all for an encrypted footer.
	_, err = OpenFile(enc, Options{}, false)
	wantErr(t, err, ErrEncrypted, "encrypt_columns_and_footer.parquet.encrypted", "PARE")
}

// TestEncryptedWrongKeys: wrong keys and prefixes give ErrDecrypt naming
// the file, the column and the module, never garbage.
func TestEncryptedWrongKeys(t *testing.T) {
	enc := testfiles.Path(t, "data/encrypt_columns_and_footer.parquet.encrypted")
	plain := testfiles.Path(t, "data/encrypt_columns_plaintext_footer.parquet.encrypted")
	noAAD := testfiles.Path(t, "data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted")
	bad := []byte("0000000000000000")

	_, err := OpenFile(enc, Options{Decryption: &Decryption{FooterKey: bad}}, false)
	wantErr(t, err, ErrDecrypt, "encrypt_columns_and_footer.parquet.encrypted", "footer")

	_, err = OpenFile(plain, Options{Decryption: &Decryption{FooterKey: bad}}, false)
	wantErr(t, err, ErrDecrypt, "footer signature")
	if f, err := OpenFile(plain, Options{Decryption: &Decryption{FooterKey: bad, SkipFooterSignature: true}}, false); err != nil {
		t.Fatalf("SkipFooterSignature: %v", err)
	} else {
		f.Close()
	}

	f, err := OpenFile(enc, Options{Decryption: &Decryption{FooterKey: footerKey128, ColumnKeys: map[string][]byte{"double_field": bad, "float_field": columnKeys128["float_field"]}}}, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Chunk(0, leafIndex(t, f, "double_field"))
	wantErr(t, err, ErrDecrypt, "column double_field", "column metadata")
	if rows := readRows(t, f, ReaderOptions{Columns: []string{"float_field"}}); len(rows) != 50 {
		t.Fatalf("float_field: %d rows", len(rows))
	}
	f.Close()

	_, err = OpenFile(noAAD, Options{Decryption: &Decryption{FooterKey: footerKey128}}, false)
	wantErr(t, err, ErrEncrypted, "AAD prefix")
	_, err = OpenFile(noAAD, Options{Decryption: &Decryption{FooterKey: footerKey128, AADPrefix: []byte("other")}}, false)
	wantErr(t, err, ErrDecrypt, "footer")
	aadFile := testfiles.Path(t, "data/encrypt_columns_and_footer_aad.parquet.encrypted")
	_, err = OpenFile(aadFile, Options{Decryption: &Decryption{FooterKey: footerKey128, AADPrefix: []byte("other")}}, false)
	wantErr(t, err, ErrDecrypt, "AAD prefix")
	_, err = OpenFile(enc, Options{Decryption: &Decryption{FooterKey: footerKey128, AADPrefix: []byte("tester")}}, false)
	wantErr(t, err, ErrDecrypt, "without one")

	// A key of a wrong size.
	_, err = OpenFile(enc, Options{Decryption: &Decryption{FooterKey: []byte("short")}}, false)
	wantErr(t, err, ErrEncrypted, "AES key of 5 bytes")
}

// TestEncryptedTamperedPage flips one byte in each page of an encrypted
// column: every read must fail with ErrDecrypt naming the column and the
// module, never return values.
func TestEncryptedTamperedPage(t *testing.T) {
	p := testfiles.Path(t, "data/encrypt_columns_and_footer.parquet.encrypted")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	d := &Decryption{FooterKey: footerKey128, ColumnKeys: columnKeys128}
	f, err := Open(bytesReaderAt(data), int64(len(data)), Options{Decryption: d})
	if err != nil {
		t.Fatal(err)
	}
	col := leafIndex(t, f, "double_field")
	c, err := f.Chunk(0, col)
	if err != nil {
		t.Fatal(err)
	}
	start, n, err := c.ByteRange()
	if err != nil {
		t.Fatal(err)
	}
	for off := start; off < start+n; off += 7 {
		b := append([]byte(nil), data...)
		b[off] ^= 0x10
		f, err := Open(bytesReaderAt(b), int64(len(b)), Options{Name: "t.parquet", Decryption: d})
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.NewReader(ReaderOptions{Columns: []string{"double_field"}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Next()
		if !errors.Is(err, ErrDecrypt) && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: %v", off, err)
		}
		if !strings.Contains(err.Error(), "t.parquet") || !strings.Contains(err.Error(), "double_field") {
			t.Fatalf("byte %d flipped: error should name the file and column: %v", off, err)
		}
	}
}

func leafIndex(t *testing.T, f *File, name string) int {
	t.Helper()
	for i, l := range f.Schema.Leaves {
		if l.PathString() == name {
			return i
		}
	}
	t.Fatalf("no column %s", name)
	return -1
}

func wantErr(t *testing.T, err, kind error, texts ...string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want %v", err, kind)
	}
	for _, s := range texts {
		if !strings.Contains(err.Error(), s) {
			t.Fatalf("err %q should mention %q", err, s)
		}
	}
}

// bloomHashValue is the bloom filter hash of row i's value of the double
// or float column (their PLAIN encodings).
func bloomHashValue(name string, i int) uint64 {
	if name == "double_field" {
		return bloomHash(binary.LittleEndian.AppendUint64(nil, math.Float64bits(float64(i)+0.5)))
	}
	return bloomHash(binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(i)+0.25)))
}

// TestFuzzDecryptSeeds checks that the written seeds of FuzzDecrypt
// decrypt whole with its keys, so that fuzzing starts from files that
// reach every module.
func TestFuzzDecryptSeeds(t *testing.T) {
	paths, _ := filepath.Glob("testdata/fuzz/FuzzDecrypt/written-*")
	if len(paths) == 0 {
		t.Fatal("no written seeds")
	}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		body, ok := strings.CutPrefix(string(raw), "go test fuzz v1\n[]byte(")
		body, ok2 := strings.CutSuffix(body, ")\n")
		data, err := strconv.Unquote(body)
		if !ok || !ok2 || err != nil {
			t.Fatalf("%s: not a corpus file: %v", p, err)
		}
		read := false
		for _, d := range fuzzDecryptions {
			f, err := Open(strings.NewReader(data), int64(len(data)), Options{Decryption: d})
			if err != nil {
				continue
			}
			if rows := readRows(t, f, ReaderOptions{}); len(rows) != 14 {
				t.Fatalf("%s: %d rows", p, len(rows))
			}
			read = true
		}
		if !read {
			t.Fatalf("%s: no key set of FuzzDecrypt opens it", p)
		}
	}
}

// externalKeyMaterial is a key retriever for parquet-java's key tools
// with external key material (PKMT1, double wrapping), as written by its
// InMemoryKMS test client: the file's key metadata names an entry of a
// JSON file beside it, holding the data key wrapped by a key encryption
// key, itself wrapped by a master key — each with AES GCM (nonce,
// ciphertext and tag, base64), the AADs being the master key id and the
// key encryption key id.
type externalKeyMaterial struct {
	material map[string]string
	master   map[string][]byte
}

func (e *externalKeyMaterial) Key(meta []byte) ([]byte, error) {
	var km struct {
		KeyMaterialType string `json:"keyMaterialType"`
		InternalStorage bool   `json:"internalStorage"`
		KeyReference    string `json:"keyReference"`
	}
	if err := json.Unmarshal(meta, &km); err != nil || km.InternalStorage || km.KeyMaterialType != "PKMT1" {
		return nil, fmt.Errorf("key metadata %q: not external PKMT1 key material", meta)
	}
	var m struct {
		MasterKeyID        string `json:"masterKeyID"`
		WrappedDEK         string `json:"wrappedDEK"`
		DoubleWrapping     bool   `json:"doubleWrapping"`
		KeyEncryptionKeyID string `json:"keyEncryptionKeyID"`
		WrappedKEK         string `json:"wrappedKEK"`
	}
	if err := json.Unmarshal([]byte(e.material[km.KeyReference]), &m); err != nil || !m.DoubleWrapping {
		return nil, fmt.Errorf("key material %q: %v", km.KeyReference, err)
	}
	master, ok := e.master[m.MasterKeyID]
	if !ok {
		return nil, fmt.Errorf("no master key %q", m.MasterKeyID)
	}
	kek, err := unwrapKey(m.WrappedKEK, master, []byte(m.MasterKeyID))
	if err != nil {
		return nil, err
	}
	kekID, err := base64.StdEncoding.DecodeString(m.KeyEncryptionKeyID)
	if err != nil {
		return nil, err
	}
	return unwrapKey(m.WrappedDEK, kek, kekID)
}

func unwrapKey(wrapped string, key, aad []byte) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(wrapped)
	if err != nil || len(b) < 12+16 {
		return nil, fmt.Errorf("wrapped key: %v", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return gcm.Open(nil, b[:12], b[12:], aad)
}

// TestExternalKeyMaterial reads the file parquet-java encrypted with
// external key material, through a key retriever that unwraps it.
func TestExternalKeyMaterial(t *testing.T) {
	p := testfiles.Path(t, "data/external_key_material_java.parquet.encrypted")
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(p), "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"))
	if err != nil {
		t.Fatal(err)
	}
	km := &externalKeyMaterial{master: map[string][]byte{"kf": footerKey128, "kc1": columnKeys128["double_field"], "kc2": columnKeys128["float_field"]}}
	if err := json.Unmarshal(raw, &km.material); err != nil {
		t.Fatal(err)
	}
	f, err := OpenFile(p, Options{Decryption: &Decryption{Keys: km}}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := readRows(t, f, ReaderOptions{})
	if len(rows) != 100 {
		t.Fatalf("%d rows, want 100", len(rows))
	}
	for i, r := range rows {
		if want := fmt.Sprintf("%c%d", 'a'+i%10, i); r[0] != int32(i) || r[1] != want {
			t.Fatalf("row %d: %v, want [%d %s]", i, r, i, want)
		}
	}
}
