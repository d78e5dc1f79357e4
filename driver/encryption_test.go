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
