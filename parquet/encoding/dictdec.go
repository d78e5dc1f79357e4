package encoding

import "github.com/carquet-go/carquet/parquet/format"

// Dictionary decoders read the indices of a PLAIN_DICTIONARY or
// RLE_DICTIONARY data page and write the dictionary values they name
// straight into the caller's slice, in batches of at most dictBatch
// indices. The dictionary is the column chunk's dictionary page decoded
// with the PLAIN decoder of the same type; it is not copied.

const dictBatch = 1024

type dictDecoder[T any] struct {
	idx     DictIndexDecoder
	dict    []T
	scratch []int32
}

func (d *dictDecoder[T]) Reset(src []byte, numValues int) error { return d.idx.Reset(src, numValues) }
func (d *dictDecoder[T]) Remaining() int                        { return d.idx.Remaining() }
func (d *dictDecoder[T]) Skip(n int) error                      { return d.idx.Skip(n) }

func (d *dictDecoder[T]) Decode(dst []T, n int) ([]T, error) {
	n = max(0, min(n, d.idx.Remaining()))
	for n > 0 {
		k := min(n, dictBatch)
		var err error
		d.scratch, err = d.idx.Decode(d.scratch[:0], k)
		if err == nil || len(d.scratch) > 0 {
			var gerr error
			dst, gerr = gatherFixed(dst, d.dict, d.scratch)
			if err == nil {
				err = gerr
			}
		}
		if err != nil {
			return dst, err
		}
		n -= k
	}
	return dst, nil
}

// NewInt32DictDecoder returns a decoder of dictionary-encoded INT32 pages.
func NewInt32DictDecoder(dict []int32) Int32Decoder { return &dictDecoder[int32]{dict: dict} }

// NewInt64DictDecoder returns a decoder of dictionary-encoded INT64 pages.
func NewInt64DictDecoder(dict []int64) Int64Decoder { return &dictDecoder[int64]{dict: dict} }

// NewFloat32DictDecoder returns a decoder of dictionary-encoded FLOAT pages.
func NewFloat32DictDecoder(dict []float32) Float32Decoder { return &dictDecoder[float32]{dict: dict} }

// NewFloat64DictDecoder returns a decoder of dictionary-encoded DOUBLE pages.
func NewFloat64DictDecoder(dict []float64) Float64Decoder { return &dictDecoder[float64]{dict: dict} }

// NewInt96DictDecoder returns a decoder of dictionary-encoded INT96 pages.
func NewInt96DictDecoder(dict [][12]byte) Int96Decoder { return &dictDecoder[[12]byte]{dict: dict} }

// NewBoolDictDecoder returns a decoder of dictionary-encoded BOOLEAN pages
// (legal, though no common writer produces them).
func NewBoolDictDecoder(dict []bool) BoolDecoder { return &dictDecoder[bool]{dict: dict} }

type byteArrayDictDecoder struct {
	idx         DictIndexDecoder
	dictData    []byte
	dictOffsets []int32
	scratch     []int32
}

// NewByteArrayDictDecoder returns a decoder of dictionary-encoded
// BYTE_ARRAY pages; the dictionary is in the form a ByteArrayDecoder
// produces (dictOffsets has one entry more than the dictionary).
func NewByteArrayDictDecoder(dictData []byte, dictOffsets []int32) ByteArrayDecoder {
	return &byteArrayDictDecoder{dictData: dictData, dictOffsets: dictOffsets}
}

func (d *byteArrayDictDecoder) Reset(src []byte, numValues int) error {
	return d.idx.Reset(src, numValues)
}
func (d *byteArrayDictDecoder) Remaining() int   { return d.idx.Remaining() }
func (d *byteArrayDictDecoder) Skip(n int) error { return d.idx.Skip(n) }

func (d *byteArrayDictDecoder) Decode(data []byte, offsets []int32, n int) ([]byte, []int32, error) {
	n = max(0, min(n, d.idx.Remaining()))
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(data)))
	}
	for n > 0 {
		k := min(n, dictBatch)
		var err error
		d.scratch, err = d.idx.Decode(d.scratch[:0], k)
		if err == nil || len(d.scratch) > 0 {
			var gerr error
			data, offsets, gerr = GatherByteArray(data, offsets, d.dictData, d.dictOffsets, d.scratch)
			if err == nil {
				err = gerr
			}
		}
		if err != nil {
			return data, offsets, err
		}
		n -= k
	}
	return data, offsets, nil
}

type fixedLenDictDecoder struct {
	idx     DictIndexDecoder
	dict    []byte
	width   int
	scratch []int32
}

// NewFixedLenDictDecoder returns a decoder of dictionary-encoded
// FIXED_LEN_BYTE_ARRAY pages; dict holds the entries back to back.
func NewFixedLenDictDecoder(dict []byte, width int) (FixedLenDecoder, error) {
	if width <= 0 {
		return nil, &Error{Encoding: format.RLEDictionary, Offset: -1, Msg: "bad FIXED_LEN_BYTE_ARRAY width", Err: ErrUnsupported}
	}
	return &fixedLenDictDecoder{dict: dict, width: width}, nil
}

func (d *fixedLenDictDecoder) Width() int { return d.width }
func (d *fixedLenDictDecoder) Reset(src []byte, numValues int) error {
	return d.idx.Reset(src, numValues)
}
func (d *fixedLenDictDecoder) Remaining() int   { return d.idx.Remaining() }
func (d *fixedLenDictDecoder) Skip(n int) error { return d.idx.Skip(n) }

func (d *fixedLenDictDecoder) Decode(dst []byte, n int) ([]byte, error) {
	n = max(0, min(n, d.idx.Remaining()))
	for n > 0 {
		k := min(n, dictBatch)
		var err error
		d.scratch, err = d.idx.Decode(d.scratch[:0], k)
		if err == nil || len(d.scratch) > 0 {
			var gerr error
			dst, gerr = GatherFixedLen(dst, d.dict, d.width, d.scratch)
			if err == nil {
				err = gerr
			}
		}
		if err != nil {
			return dst, err
		}
		n -= k
	}
	return dst, nil
}
