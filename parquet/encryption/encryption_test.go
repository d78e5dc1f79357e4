package encryption

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// TestAAD checks the module AAD layout of Encryption.md 4.4.2: file AAD,
// module type, then little-endian 16-bit row group, column and page
// ordinals where the module has them.
func TestAAD(t *testing.T) {
	file := []byte("prefix-unique")
	for _, tc := range []struct {
		module      byte
		rg, col, pg int
		want        []byte
		wantErr     bool
	}{
		{Footer, 5, 6, 7, []byte{Footer}, false},
		{ColumnMetaData, 1, 2, -1, []byte{ColumnMetaData, 1, 0, 2, 0}, false},
		{DataPage, 0x102, 0x304, 0x506, []byte{DataPage, 2, 1, 4, 3, 6, 5}, false},
		{DataPageHeader, 0, 0, 0, []byte{DataPageHeader, 0, 0, 0, 0, 0, 0}, false},
		{DictionaryPageHeader, 3, 4, -1, []byte{DictionaryPageHeader, 3, 0, 4, 0}, false},
		{BloomFilterBitset, MaxOrdinal, MaxOrdinal, -1, []byte{BloomFilterBitset, 0xff, 0x7f, 0xff, 0x7f}, false},
		{DataPage, MaxOrdinal + 1, 0, 0, nil, true},
		{DataPage, 0, MaxOrdinal + 1, 0, nil, true},
		{DataPage, 0, 0, MaxOrdinal + 1, nil, true},
		{OffsetIndex, -1, 0, -1, nil, true},
	} {
		got, err := AAD(nil, file, tc.module, tc.rg, tc.col, tc.pg)
		if tc.wantErr {
			if err == nil {
				t.Errorf("%s %d/%d/%d: no error", ModuleName(tc.module), tc.rg, tc.col, tc.pg)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, append(append([]byte{}, file...), tc.want...)) {
			t.Errorf("%s: %x, %v", ModuleName(tc.module), got, err)
		}
	}
}

func TestGCMModules(t *testing.T) {
	for _, n := range []int{16, 24, 32} {
		c, err := NewCipher(bytes.Repeat([]byte{7}, n))
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{0, 1, 100, 5000} {
			plain := bytes.Repeat([]byte{'x'}, size)
			aad := []byte("aad")
			m, err := c.SealGCM([]byte("keep"), plain, aad)
			if err != nil {
				t.Fatal(err)
			}
			if string(m[:4]) != "keep" || binary.LittleEndian.Uint32(m[4:]) != uint32(len(m)-8) || len(m)-4 != size+GCMOverhead {
				t.Fatalf("module layout: %d bytes for %d", len(m), size)
			}
			m = m[4:]
			got, err := c.OpenGCM(nil, m, aad)
			if err != nil || !bytes.Equal(got, plain) {
				t.Fatalf("open: %v", err)
			}
			if _, err := c.OpenGCM(nil, m, []byte("other")); !errors.Is(err, ErrAuth) {
				t.Fatalf("wrong AAD: %v", err)
			}
			bad := bytes.Clone(m)
			bad[len(bad)-1] ^= 1
			if _, err := c.OpenGCM(nil, bad, aad); !errors.Is(err, ErrAuth) {
				t.Fatalf("tampered: %v", err)
			}
			// A length that disagrees with the bytes, a module cut short.
			if _, err := c.OpenGCM(nil, m[:len(m)-1], aad); err == nil {
				t.Fatal("short module opened")
			}
			if _, err := c.OpenGCM(nil, m[:3], aad); err == nil {
				t.Fatal("3 bytes opened")
			}
		}
	}
	if _, err := NewCipher(make([]byte, 15)); err == nil {
		t.Fatal("15-byte key accepted")
	}
}

func TestCTRModules(t *testing.T) {
	c, _ := NewCipher([]byte("0123456789012345"))
	plain := bytes.Repeat([]byte("parquet "), 100)
	m, err := c.SealCTR(nil, plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != len(plain)+CTROverhead || bytes.Contains(m, []byte("parquet")) {
		t.Fatal("CTR module layout")
	}
	got, err := c.OpenCTR([]byte("pre"), m)
	if err != nil || !bytes.Equal(got, append([]byte("pre"), plain...)) {
		t.Fatalf("CTR open: %v", err)
	}
	// Two encryptions of the same bytes differ (fresh nonces).
	m2, _ := c.SealCTR(nil, plain)
	if bytes.Equal(m, m2) {
		t.Fatal("nonce reused")
	}
}

func TestFooterSignature(t *testing.T) {
	c, _ := NewCipher([]byte("0123456789012345"))
	footer := []byte("a footer")
	sig, err := c.Sign(nil, footer, []byte("aad"))
	if err != nil || len(sig) != SignatureSize {
		t.Fatal(err)
	}
	if err := c.Verify(footer, sig, []byte("aad")); err != nil {
		t.Fatal(err)
	}
	if err := c.Verify([]byte("a fooTer"), sig, []byte("aad")); !errors.Is(err, ErrAuth) {
		t.Fatalf("changed footer: %v", err)
	}
	if err := c.Verify(footer, sig[:27], []byte("aad")); err == nil {
		t.Fatal("short signature accepted")
	}
}

func TestInvocationLimit(t *testing.T) {
	c, _ := NewCipher([]byte("0123456789012345"))
	c.sealed.Store(1 << 32)
	if _, err := c.SealGCM(nil, nil, nil); !errors.Is(err, ErrInvocations) {
		t.Fatalf("past 2^32 modules: %v", err)
	}
}
