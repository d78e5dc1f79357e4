package writer

import "testing"

// TestPageClasses: a buffer from getPageBuf holds n bytes and at most a
// quarter more, and put back it serves every later request of its class.
func TestPageClasses(t *testing.T) {
	for n := minPooledPage; n < 1<<22; n += n/97 + 1 {
		c := pageClass(n)
		size := pageClassSize(c)
		if size < n || 4*(size-n) > size {
			t.Fatalf("n=%d: class %d of %d bytes", n, c, size)
		}
		if c > 0 && pageClassSize(c-1) >= n {
			t.Fatalf("n=%d: class %d of %d bytes, the class below (%d bytes) holds it", n, c, size, pageClassSize(c-1))
		}
		if back := pageClass(size+1) - 1; back != c {
			t.Fatalf("n=%d: a buffer of class %d goes back to class %d", n, c, back)
		}
	}
	b := getPageBuf(5000)
	if cap(b) < 5000 || len(b) != 0 {
		t.Fatalf("getPageBuf(5000): len %d cap %d", len(b), cap(b))
	}
	if n := pageClass(1 << 30); n >= len(pagePools) {
		t.Fatalf("class %d of 1 GiB is out of the pools", n)
	}
}
