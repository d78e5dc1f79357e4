package compress

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// This file holds a test-only reader of just enough of the Parquet footer
// and page headers (compact Thrift, decoded generically) to reach every
// compressed page of the conformance files. The real reader lives
// elsewhere; this one exists so the codecs can be tested on their own.

// tstruct is a decoded Thrift struct: field id → value (int64, float64,
// bool, []byte, []any, map... or tstruct).
type tstruct map[int16]any

type tdecoder struct {
	b   []byte
	pos int
}

var errThrift = errors.New("bad thrift")

func (d *tdecoder) byte1() (byte, error) {
	if d.pos >= len(d.b) {
		return 0, errThrift
	}
	c := d.b[d.pos]
	d.pos++
	return c, nil
}

func (d *tdecoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.b[d.pos:])
	if n <= 0 {
		return 0, errThrift
	}
	d.pos += n
	return v, nil
}

func (d *tdecoder) zigzag() (int64, error) {
	u, err := d.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

func (d *tdecoder) value(typ byte, depth int) (any, error) {
	if depth > 32 {
		return nil, errThrift
	}
	switch typ {
	case 1:
		return true, nil
	case 2:
		return false, nil
	case 3:
		c, err := d.byte1()
		return int64(int8(c)), err
	case 4, 5, 6:
		return d.zigzag()
	case 7:
		if d.pos+8 > len(d.b) {
			return nil, errThrift
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.pos:]))
		d.pos += 8
		return v, nil
	case 8:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.b)-d.pos) {
			return nil, errThrift
		}
		v := d.b[d.pos : d.pos+int(n)]
		d.pos += int(n)
		return v, nil
	case 9, 10:
		h, err := d.byte1()
		if err != nil {
			return nil, err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = d.uvarint(); err != nil {
				return nil, err
			}
		}
		if n > uint64(len(d.b)) {
			return nil, errThrift
		}
		list := make([]any, 0, n)
		for range n {
			var v any
			if h&15 == 1 || h&15 == 2 {
				c, err := d.byte1()
				if err != nil {
					return nil, err
				}
				v = c == 1
			} else if v, err = d.value(h&15, depth+1); err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case 11:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.b)) {
			return nil, errThrift
		}
		if n == 0 {
			return [][2]any{}, nil
		}
		kv, err := d.byte1()
		if err != nil {
			return nil, err
		}
		m := make([][2]any, 0, n)
		for range n {
			k, err := d.value(kv>>4, depth+1)
			if err != nil {
				return nil, err
			}
			v, err := d.value(kv&15, depth+1)
			if err != nil {
				return nil, err
			}
			m = append(m, [2]any{k, v})
		}
		return m, nil
	case 12:
		return d.structure(depth + 1)
	}
	return nil, fmt.Errorf("%w: type %d", errThrift, typ)
}

func (d *tdecoder) structure(depth int) (tstruct, error) {
	s := tstruct{}
	var last int16
	for {
		h, err := d.byte1()
		if err != nil {
			return nil, err
		}
		if h == 0 {
			return s, nil
		}
		id := last + int16(h>>4)
		if h>>4 == 0 {
			v, err := d.zigzag()
			if err != nil {
				return nil, err
			}
			id = int16(v)
		}
		v, err := d.value(h&15, depth)
		if err != nil {
			return nil, err
		}
		s[id] = v
		last = id
	}
}

func (s tstruct) int(id int16) (int64, bool) {
	v, ok := s[id].(int64)
	return v, ok
}

func (s tstruct) sub(id int16) tstruct {
	v, _ := s[id].(tstruct)
	return v
}

// testingRoot finds the shared parquet-testing checkout relative to the
// module root.
func testingRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	root := filepath.Join(dir, "..", "shared", "parquet-testing")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("parquet-testing not available: %v", err)
	}
	return root
}

// page is one page body as stored: what Decode gets.
type page struct {
	column    int
	offset    int64
	codec     format.CompressionCodec
	body      []byte // compressed part
	size      int    // uncompressed size of body
	pageType  int64
	levels    []byte // v2: uncompressed level bytes preceding body
	plainBody bool   // v2 page with is_compressed = false
}

// filePages lists every page of every column chunk of a Parquet file.
func filePages(data []byte) ([]page, error) {
	if len(data) < 12 || string(data[len(data)-4:]) != "PAR1" {
		return nil, errors.New("not a plaintext-footer parquet file")
	}
	flen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if flen > len(data)-12 {
		return nil, errors.New("bad footer length")
	}
	d := &tdecoder{b: data[len(data)-8-flen : len(data)-8]}
	fmd, err := d.structure(0)
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	var pages []page
	rgs, _ := fmd[4].([]any)
	for _, rg := range rgs {
		cols, _ := rg.(tstruct)[1].([]any)
		for ci, cc := range cols {
			md := cc.(tstruct).sub(3)
			if md == nil {
				return nil, errors.New("column chunk without metadata")
			}
			codec, _ := md.int(4)
			start, _ := md.int(9)
			if dict, ok := md.int(11); ok && dict > 0 && dict < start {
				start = dict
			}
			total, _ := md.int(7)
			if start < 4 || total < 0 || start+total > int64(len(data)) {
				return nil, fmt.Errorf("column %d: bad chunk range %d+%d", ci, start, total)
			}
			chunk := data[start : start+total]
			for pos := 0; pos < len(chunk); {
				hd := &tdecoder{b: chunk[pos:]}
				ph, err := hd.structure(0)
				if err != nil {
					return nil, fmt.Errorf("column %d page header at %d: %w", ci, start+int64(pos), err)
				}
				typ, _ := ph.int(1)
				usize, _ := ph.int(2)
				csize, _ := ph.int(3)
				bodyStart := pos + hd.pos
				if csize < 0 || int64(bodyStart)+csize > int64(len(chunk)) {
					return nil, fmt.Errorf("column %d page at %d: bad size", ci, start+int64(pos))
				}
				body := chunk[bodyStart : bodyStart+int(csize)]
				p := page{column: ci, offset: start + int64(pos), codec: format.CompressionCodec(codec),
					body: body, size: int(usize), pageType: typ}
				if v2 := ph.sub(8); typ == 3 && v2 != nil {
					dl, _ := v2.int(5)
					rl, _ := v2.int(6)
					lv := int(dl + rl)
					if lv > len(body) || lv > int(usize) {
						return nil, fmt.Errorf("column %d page at %d: bad level sizes", ci, p.offset)
					}
					p.levels, p.body, p.size = body[:lv], body[lv:], int(usize)-lv
					if c, ok := v2[7].(bool); ok && !c {
						p.plainBody = true
					}
				}
				pages = append(pages, p)
				pos = bodyStart + int(csize)
			}
		}
	}
	return pages, nil
}
