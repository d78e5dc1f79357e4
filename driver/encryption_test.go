package driver

import (
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/file"
)

// encryptedFolder copies parquet-testing's encrypted files into a folder
// as tables: enc (encrypted footer, two column keys) and pt (plaintext
// footer, the same keys).
func encryptedFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for table, name := range map[string]string{
		"enc": "encrypt_columns_and_footer.parquet.encrypted",
		"pt":  "encrypt_columns_plaintext_footer.parquet.encrypted",
	} {
		b, err := os.ReadFile(testfiles.Path(t, "data/"+name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, table+".parquet"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestEncryptedDSN reads encrypted files with keys from the DSN, raw and
// in hex, and checks what reads without them.
func TestEncryptedDSN(t *testing.T) {
	dir := encryptedFolder(t)
	keys := url.Values{}
	keys.Set("encryption_footer_key", "0123456789012345")
	keys.Set("column_keys", "double_field:1234567890123450,float_field:hex:"+hex.EncodeToString([]byte("1234567890123451")))
	for _, mmap := range []string{"false", "true"} {
		db := openDSN(t, dir+"?"+keys.Encode()+"&mmap="+mmap)
		for _, table := range []string{"enc", "pt"} {
			var n int
			var maxF float64
			if err := db.QueryRow("SELECT count(*), max(float_field) FROM "+table+" WHERE double_field > 50").Scan(&n, &maxF); err != nil {
				t.Fatal(table, err)
			}
			if n != 4 || float32(maxF) != float32(49)*1.1 {
				t.Fatalf("%s: %d rows, max %v", table, n, maxF)
			}
		}
	}

	// Without keys: the plaintext footer's plaintext columns read, the
	// rest fail naming file and column.
	db := openDSN(t, dir)
	var n int
	if err := db.QueryRow("SELECT count(*) FROM pt WHERE boolean_field").Scan(&n); err != nil || n != 25 {
		t.Fatalf("plaintext columns: %d, %v", n, err)
	}
	err := db.QueryRow("SELECT sum(double_field) FROM pt").Scan(new(sql.NullFloat64))
	if !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), "pt.parquet") || !strings.Contains(err.Error(), "double_field") {
		t.Fatalf("encrypted column without its key: %v", err)
	}
	err = db.QueryRow("SELECT count(*) FROM enc").Scan(&n)
	if !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), "enc.parquet") {
		t.Fatalf("encrypted footer without its key: %v", err)
	}

	// A wrong column key.
	bad := url.Values{}
	bad.Set("encryption_footer_key", "0123456789012345")
	bad.Set("column_keys", "double_field:0000000000000000")
	db = openDSN(t, dir+"?"+bad.Encode())
	err = db.QueryRow("SELECT sum(double_field) FROM enc").Scan(new(sql.NullFloat64))
	if !errors.Is(err, ErrDecrypt) || !strings.Contains(err.Error(), "double_field") {
		t.Fatalf("wrong column key: %v", err)
	}
}

func TestEncryptionDSNOptions(t *testing.T) {
	cfg, err := ParseDSN("/d?encryption_footer_key=hex:" + strings.Repeat("ab", 32) + "&column_keys=a.b:0123456789abcdef,c:" + strings.Repeat("x", 24) + "&aad_prefix=t1")
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Decryption
	if len(d.FooterKey) != 32 || string(d.ColumnKeys["a.b"]) != "0123456789abcdef" || len(d.ColumnKeys["c"]) != 24 || string(d.AADPrefix) != "t1" {
		t.Fatalf("%+v", d)
	}
	for _, bad := range []string{"/d?encryption_footer_key=short", "/d?encryption_footer_key=hex:zz", "/d?column_keys=nokey",
		"/d?column_keys=a:0123456789abcdef,b:tooshort", "/d?column_keys=:0123456789abcdef"} {
		_, err := ParseDSN(bad)
		if err == nil {
			t.Errorf("%q: no error", bad)
		} else if strings.Contains(err.Error(), "0123456789abcdef") || strings.Contains(err.Error(), "tooshort") {
			t.Errorf("%q: the error shows a key: %v", bad, err)
		}
	}
}

// encryptionOf opens the file at path with keys d and returns how it is
// encrypted, and per column whether its chunks are plaintext ("plain"),
// under the footer key ("footer") or under a key of their own ("own").
func encryptionOf(t *testing.T, path string, d *file.Decryption) (file.Encryption, map[string]string) {
	t.Helper()
	f, err := file.OpenFile(path, file.Options{Name: path, Decryption: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc, ok := f.Encryption()
	if !ok {
		return enc, nil
	}
	cols := map[string]string{}
	for _, rg := range f.Meta.RowGroups {
		for col, leaf := range f.Schema.Leaves {
			kind := "plain"
			if cm := rg.Columns[col].CryptoMetadata; cm != nil && cm.EncryptionWithColumnKey != nil {
				kind = "own"
			} else if cm != nil {
				kind = "footer"
			}
			if prev, ok := cols[leaf.PathString()]; ok && prev != kind {
				t.Fatalf("%s: column %s is %s in one row group, %s in another", path, leaf.PathString(), prev, kind)
			}
			cols[leaf.PathString()] = kind
		}
	}
	return enc, cols
}

// TestEncryptedWrites: a database with keys in its DSN writes encrypted
// files on CREATE TABLE, CREATE TABLE AS, INSERT and COPY TO (the columns
// column_keys names under their keys, the others in plaintext, the footer
// encrypted, the AAD prefix stored), reads them back, and keeps plaintext
// files plaintext on INSERT. Missing or wrong keys fail naming the file
// and the column, and change nothing.
func TestEncryptedWrites(t *testing.T) {
	dir := t.TempDir()
	const footerKey, secretKey = "0123456789012345", "secret-column-key-24byte"
	keys := url.Values{}
	keys.Set("encryption_footer_key", footerKey)
	keys.Set("column_keys", "secret:"+secretKey+",other_table_column:"+secretKey)
	keys.Set("aad_prefix", "db1")
	db := openDSN(t, dir+"?"+keys.Encode())
	plainDB := openDSN(t, dir)
	dec := &file.Decryption{FooterKey: []byte(footerKey), ColumnKeys: map[string][]byte{"secret": []byte(secretKey)}}

	// A plaintext table, written before the keys were given.
	mustExec(t, plainDB, "CREATE TABLE plain (id INTEGER, secret VARCHAR)")
	mustExec(t, plainDB, "INSERT INTO plain VALUES (1, 'a')")

	mustExec(t, db, "CREATE TABLE t (id INTEGER, secret VARCHAR, note VARCHAR)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 's1', 'n1'), (2, NULL, 'n2')")
	mustExec(t, db, "INSERT INTO t SELECT i, 's' || CAST(i AS VARCHAR), NULL FROM range(3, 1001) r(i)")
	mustExec(t, db, "CREATE TABLE t2 AS SELECT id * 2 AS id, secret FROM t WHERE id <= 10")
	mustExec(t, db, "COPY (SELECT id, secret, note FROM t WHERE id > 990) TO 'copy.parquet'")
	mustExec(t, db, "INSERT INTO plain VALUES (2, 'b')")

	for _, c := range []struct {
		file  string
		count int
		cols  map[string]string
	}{
		{"t.parquet", 1000, map[string]string{"id": "plain", "secret": "own", "note": "plain"}},
		{"t2.parquet", 10, map[string]string{"id": "plain", "secret": "own"}},
		{"copy.parquet", 10, map[string]string{"id": "plain", "secret": "own", "note": "plain"}},
	} {
		path := filepath.Join(dir, c.file)
		enc, cols := encryptionOf(t, path, dec)
		if cols == nil || enc.PlaintextFooter || string(enc.AADPrefix) != "db1" || enc.Algorithm.AesGcmV1 == nil {
			t.Fatalf("%s: %+v", c.file, enc)
		}
		for col, kind := range c.cols {
			if cols[col] != kind {
				t.Errorf("%s: column %s is %s, want %s", c.file, col, cols[col], kind)
			}
		}
		var n int
		var sum int64
		if err := db.QueryRow("SELECT count(*), sum(length(secret)) FROM '"+c.file+"'").Scan(&n, &sum); err != nil || n != c.count {
			t.Fatalf("%s: %d rows, %v", c.file, n, err)
		}
		// Without keys the footer does not open.
		err := plainDB.QueryRow("SELECT count(*) FROM '" + c.file + "'").Scan(&n)
		if !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), c.file) {
			t.Fatalf("%s without keys: %v", c.file, err)
		}
	}
	var secret sql.NullString
	var note string
	if err := db.QueryRow("SELECT secret, note FROM t WHERE id = 2").Scan(&secret, &note); err != nil || secret.Valid || note != "n2" {
		t.Fatalf("row 2: %v %q %v", secret, note, err)
	}
	if err := db.QueryRow("SELECT secret FROM t WHERE id = 1000").Scan(&secret); err != nil || secret.String != "s1000" {
		t.Fatalf("row 1000: %v %v", secret, err)
	}

	// The plaintext table stayed plaintext, and reads without keys.
	if _, cols := encryptionOf(t, filepath.Join(dir, "plain.parquet"), nil); cols != nil {
		t.Fatal("INSERT encrypted a plaintext file")
	}
	var n int
	if err := plainDB.QueryRow("SELECT count(*) FROM plain").Scan(&n); err != nil || n != 2 {
		t.Fatalf("plain: %d, %v", n, err)
	}

	// A wrong column key: reading the column and inserting fail naming
	// the file and the column; the table keeps its rows.
	bad := url.Values{}
	bad.Set("encryption_footer_key", footerKey)
	bad.Set("column_keys", "secret:wrong-column-key-24bytes")
	badDB := openDSN(t, dir+"?"+bad.Encode())
	err := badDB.QueryRow("SELECT max(secret) FROM t").Scan(&secret)
	if !errors.Is(err, ErrDecrypt) || !strings.Contains(err.Error(), "t.parquet") || !strings.Contains(err.Error(), "secret") {
		t.Fatalf("wrong key, read: %v", err)
	}
	_, err = badDB.Exec("INSERT INTO t VALUES (5000, 'x', 'y')")
	if err == nil || !strings.Contains(err.Error(), "t.parquet") || !strings.Contains(err.Error(), "secret") {
		t.Fatalf("wrong key, insert: %v", err)
	}
	// The footer key alone: the column's key is missing.
	footerOnly := url.Values{}
	footerOnly.Set("encryption_footer_key", footerKey)
	_, err = openDSN(t, dir+"?"+footerOnly.Encode()).Exec("INSERT INTO t VALUES (5000, 'x', 'y')")
	if !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), "t.parquet") || !strings.Contains(err.Error(), "secret") {
		t.Fatalf("missing key, insert: %v", err)
	}
	if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil || n != 1000 {
		t.Fatalf("after failed inserts: %d rows, %v", n, err)
	}
}
