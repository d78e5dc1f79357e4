package bloom

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A test-only generic compact-Thrift decoder (the same as the one in
// parquet/compress's tests), enough to walk a footer to a column's
// bloom_filter_offset. The real Thrift structs live in parquet/format.

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
