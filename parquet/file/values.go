package file

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/encoding"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
)

// KindOf is the vector kind that holds values of a physical type.
func KindOf(t format.Type) vector.Kind {
	switch t {
	case format.Boolean:
		return vector.Bool
	case format.Int32:
		return vector.Int32
	case format.Int64:
		return vector.Int64
	case format.Int96:
		return vector.Int96
	case format.Float:
		return vector.Float32
	case format.Double:
		return vector.Float64
	case format.ByteArray:
		return vector.ByteArray
	case format.FixedLenByteArray:
		return vector.FixedLenByteArray
	}
	return vector.Invalid
}

// valueDecoder decodes the non-null values of one data page into a dense
// vector of the column's kind.
type valueDecoder interface {
	reset(data []byte, numValues int) error
	// read appends n values to out.
	read(out *vector.Vector, n int) error
	skip(n int) error
}

// plainishDecoder wraps the encoding package's typed decoders for every
// encoding other than dictionary.
type plainishDecoder struct {
	kind vector.Kind
	i32  encoding.Int32Decoder
	i64  encoding.Int64Decoder
	f32  encoding.Float32Decoder
	f64  encoding.Float64Decoder
	b    encoding.BoolDecoder
	i96  encoding.Int96Decoder
	ba   encoding.ByteArrayDecoder
	fl   encoding.FixedLenDecoder
}

func newValueDecoder(t format.Type, width int, enc format.Encoding) (valueDecoder, error) {
	d := &plainishDecoder{kind: KindOf(t)}
	var err error
	switch t {
	case format.Boolean:
		d.b, err = encoding.NewBoolDecoder(enc)
	case format.Int32:
		d.i32, err = encoding.NewInt32Decoder(enc)
	case format.Int64:
		d.i64, err = encoding.NewInt64Decoder(enc)
	case format.Int96:
		d.i96, err = encoding.NewInt96Decoder(enc)
	case format.Float:
		d.f32, err = encoding.NewFloat32Decoder(enc)
	case format.Double:
		d.f64, err = encoding.NewFloat64Decoder(enc)
	case format.ByteArray:
		d.ba, err = encoding.NewByteArrayDecoder(enc)
	case format.FixedLenByteArray:
		d.fl, err = encoding.NewFixedLenDecoder(enc, width)
	default:
		err = fmt.Errorf("unknown physical type %v", t)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

func (d *plainishDecoder) reset(data []byte, n int) error {
	switch d.kind {
	case vector.Bool:
		return d.b.Reset(data, n)
	case vector.Int32:
		return d.i32.Reset(data, n)
	case vector.Int64:
		return d.i64.Reset(data, n)
	case vector.Int96:
		return d.i96.Reset(data, n)
	case vector.Float32:
		return d.f32.Reset(data, n)
	case vector.Float64:
		return d.f64.Reset(data, n)
	case vector.ByteArray:
		return d.ba.Reset(data, n)
	default:
		return d.fl.Reset(data, n)
	}
}

func (d *plainishDecoder) read(out *vector.Vector, n int) error {
	var err error
	before := out.Len
	switch d.kind {
	case vector.Bool:
		out.Bools, err = d.b.Decode(out.Bools, n)
		out.Len = len(out.Bools)
	case vector.Int32:
		out.Int32s, err = d.i32.Decode(out.Int32s, n)
		out.Len = len(out.Int32s)
	case vector.Int64:
		out.Int64s, err = d.i64.Decode(out.Int64s, n)
		out.Len = len(out.Int64s)
	case vector.Int96:
		out.Int96s, err = d.i96.Decode(out.Int96s, n)
		out.Len = len(out.Int96s)
	case vector.Float32:
		out.Float32s, err = d.f32.Decode(out.Float32s, n)
		out.Len = len(out.Float32s)
	case vector.Float64:
		out.Float64s, err = d.f64.Decode(out.Float64s, n)
		out.Len = len(out.Float64s)
	case vector.ByteArray:
		out.Data, out.Offsets, err = d.ba.Decode(out.Data, out.Offsets, n)
		out.Len = len(out.Offsets) - 1
	default:
		out.Data, err = d.fl.Decode(out.Data, n)
		out.Len = len(out.Data) / out.Width
	}
	if err == nil && out.Len-before != n {
		err = fmt.Errorf("%w: page ended after %d of %d values", ErrCorrupt, out.Len-before, n)
	}
	return err
}

func (d *plainishDecoder) skip(n int) error {
	switch d.kind {
	case vector.Bool:
		return d.b.Skip(n)
	case vector.Int32:
		return d.i32.Skip(n)
	case vector.Int64:
		return d.i64.Skip(n)
	case vector.Int96:
		return d.i96.Skip(n)
	case vector.Float32:
		return d.f32.Skip(n)
	case vector.Float64:
		return d.f64.Skip(n)
	case vector.ByteArray:
		return d.ba.Skip(n)
	default:
		return d.fl.Skip(n)
	}
}

// dictDecoder decodes dictionary indices and gathers the values they name.
type dictDecoder struct {
	dict    *vector.Vector
	idx     encoding.DictIndexDecoder
	indices []int32
	// maxBytes bounds the value bytes of the vector read into (the
	// batch); longest is the dictionary's longest value, -1 until known.
	maxBytes int64
	longest  int
}

// checkRoom refuses to gather n values into out when they could take its
// value bytes above maxBytes: a few bits of RLE index per value can name a
// dictionary entry of megabytes.
func (d *dictDecoder) checkRoom(out *vector.Vector, n int) error {
	dict := d.dict
	if dict.Kind != vector.ByteArray && dict.Kind != vector.FixedLenByteArray || d.maxBytes <= 0 {
		return nil
	}
	if d.longest < 0 {
		d.longest = dict.Width
		if dict.Kind == vector.ByteArray {
			d.longest = 0
			for i := 1; i < len(dict.Offsets); i++ {
				d.longest = max(d.longest, int(dict.Offsets[i]-dict.Offsets[i-1]))
			}
		}
	}
	if int64(len(out.Data))+int64(n)*int64(d.longest) <= d.maxBytes {
		return nil // the common case: no pass over the indices
	}
	total := int64(len(out.Data))
	for _, i := range d.indices {
		if i >= 0 && int(i)+1 < len(dict.Offsets) {
			total += int64(dict.Offsets[i+1] - dict.Offsets[i])
		} else if dict.Kind == vector.FixedLenByteArray {
			total += int64(dict.Width)
		}
	}
	if total > d.maxBytes {
		return fmt.Errorf("%d dictionary values would take a batch to %d bytes: %w (MaxBatchBytes %d); read with a smaller batch size",
			n, total, ErrLimit, d.maxBytes)
	}
	return nil
}

func (d *dictDecoder) reset(data []byte, n int) error { return d.idx.Reset(data, n) }

func (d *dictDecoder) skip(n int) error { return d.idx.Skip(n) }

// readCodes appends n dictionary indices to out.Codes, checked against the
// dictionary's size, and makes out a coded vector of d's dictionary.
func (d *dictDecoder) readCodes(out *vector.Vector, n int) error {
	at := len(out.Codes)
	codes, err := d.idx.Decode(out.Codes, n)
	if err != nil {
		return err
	}
	if len(codes)-at != n {
		return fmt.Errorf("%w: page ended after %d of %d dictionary indices", ErrCorrupt, len(codes)-at, n)
	}
	if err := encoding.CheckIndices(codes[at:], d.dict.Len); err != nil {
		return err
	}
	out.Codes, out.Dict = codes, d.dict
	out.Len += n
	return nil
}

func (d *dictDecoder) read(out *vector.Vector, n int) error {
	var err error
	d.indices, err = d.idx.Decode(d.indices[:0], n)
	if err != nil {
		return err
	}
	if len(d.indices) != n {
		return fmt.Errorf("%w: page ended after %d of %d dictionary indices", ErrCorrupt, len(d.indices), n)
	}
	if err := d.checkRoom(out, n); err != nil {
		return err
	}
	dict := d.dict
	switch dict.Kind {
	case vector.Bool:
		out.Bools, err = encoding.GatherBool(out.Bools, dict.Bools, d.indices)
	case vector.Int32:
		out.Int32s, err = encoding.GatherInt32(out.Int32s, dict.Int32s, d.indices)
	case vector.Int64:
		out.Int64s, err = encoding.GatherInt64(out.Int64s, dict.Int64s, d.indices)
	case vector.Int96:
		out.Int96s, err = encoding.GatherInt96(out.Int96s, dict.Int96s, d.indices)
	case vector.Float32:
		out.Float32s, err = encoding.GatherFloat32(out.Float32s, dict.Float32s, d.indices)
	case vector.Float64:
		out.Float64s, err = encoding.GatherFloat64(out.Float64s, dict.Float64s, d.indices)
	case vector.ByteArray:
		out.Data, out.Offsets, err = encoding.GatherByteArray(out.Data, out.Offsets, dict.Data, dict.Offsets, d.indices)
	case vector.FixedLenByteArray:
		out.Data, err = encoding.GatherFixedLen(out.Data, dict.Data, dict.Width, d.indices)
	}
	if err != nil {
		return err
	}
	out.Len += n
	return nil
}
