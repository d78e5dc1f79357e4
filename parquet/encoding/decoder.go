package encoding

import "github.com/carquet-go/carquet/parquet/format"

// Every decoder follows one protocol. Reset points it at the encoded values
// of one page (the bytes after the levels, decompressed) and the number of
// values the caller expects there (the page's non-null count); it checks
// the encoding's header and that the data can plausibly hold that many.
// Decode appends up to n values to dst (fewer only when fewer remain) and
// returns the extended slice. Skip(n) passes over n values, without
// producing them where the encoding allows; skipping past the end is an
// error. Remaining says how many values are left. Decoders can be reused
// across pages by calling Reset again; they keep their scratch buffers.

// Int32Decoder decodes INT32 values.
type Int32Decoder interface {
	Reset(src []byte, numValues int) error
	Decode(dst []int32, n int) ([]int32, error)
	Skip(n int) error
	Remaining() int
}

// Int64Decoder decodes INT64 values.
type Int64Decoder interface {
	Reset(src []byte, numValues int) error
	Decode(dst []int64, n int) ([]int64, error)
	Skip(n int) error
	Remaining() int
}

// Float32Decoder decodes FLOAT values.
type Float32Decoder interface {
	Reset(src []byte, numValues int) error
	Decode(dst []float32, n int) ([]float32, error)
	Skip(n int) error
	Remaining() int
}

// Float64Decoder decodes DOUBLE values.
type Float64Decoder interface {
	Reset(src []byte, numValues int) error
	Decode(dst []float64, n int) ([]float64, error)
	Skip(n int) error
	Remaining() int
}

// BoolDecoder decodes BOOLEAN values.
type BoolDecoder interface {
	Reset(src []byte, numValues int) error
	Decode(dst []bool, n int) ([]bool, error)
	Skip(n int) error
	Remaining() int
}

// Int96Decoder decodes INT96 values as their 12 little-endian bytes.
type Int96Decoder interface {
	Reset(src []byte, numValues int) error
	Decode(dst [][12]byte, n int) ([][12]byte, error)
	Skip(n int) error
	Remaining() int
}

// ByteArrayDecoder decodes BYTE_ARRAY values Arrow-style: the bytes of each
// value are appended to data and the end offset of each value to offsets.
// If offsets is empty, the start offset len(data) (so 0 for empty data) is
// appended first; otherwise its last entry must equal len(data). Offsets
// are int32, so data cannot grow past 2 GiB (an error says so).
type ByteArrayDecoder interface {
	Reset(src []byte, numValues int) error
	Decode(data []byte, offsets []int32, n int) ([]byte, []int32, error)
	Skip(n int) error
	Remaining() int
}

// FixedLenDecoder decodes FIXED_LEN_BYTE_ARRAY values of the width given at
// construction, appending width bytes per value to dst.
type FixedLenDecoder interface {
	Reset(src []byte, numValues int) error
	Decode(dst []byte, n int) ([]byte, error)
	Skip(n int) error
	Remaining() int
	Width() int
}

// Dictionary-encoded pages (PLAIN_DICTIONARY, RLE_DICTIONARY) are decoded
// with the New*DictDecoder constructors, which need the dictionary; the
// New*Decoder functions below refuse them.

// NewInt32Decoder returns a decoder for INT32 values in the encoding enc.
func NewInt32Decoder(enc format.Encoding) (Int32Decoder, error) {
	switch enc {
	case format.Plain:
		return &plainDecoder[int32]{enc: enc}, nil
	case format.DeltaBinaryPacked:
		return &DeltaInt32Decoder{}, nil
	case format.ByteStreamSplit:
		return &bssDecoder[int32]{}, nil
	}
	return nil, unsupportedFor(enc, format.Int32)
}

// NewInt64Decoder returns a decoder for INT64 values in the encoding enc.
func NewInt64Decoder(enc format.Encoding) (Int64Decoder, error) {
	switch enc {
	case format.Plain:
		return &plainDecoder[int64]{enc: enc}, nil
	case format.DeltaBinaryPacked:
		return &DeltaInt64Decoder{}, nil
	case format.ByteStreamSplit:
		return &bssDecoder[int64]{}, nil
	}
	return nil, unsupportedFor(enc, format.Int64)
}

// NewFloat32Decoder returns a decoder for FLOAT values in the encoding enc.
func NewFloat32Decoder(enc format.Encoding) (Float32Decoder, error) {
	switch enc {
	case format.Plain:
		return &plainDecoder[float32]{enc: enc}, nil
	case format.ByteStreamSplit:
		return &bssDecoder[float32]{}, nil
	case format.ALP:
		return &ALPFloat32Decoder{}, nil
	}
	return nil, unsupportedFor(enc, format.Float)
}

// NewFloat64Decoder returns a decoder for DOUBLE values in the encoding enc.
func NewFloat64Decoder(enc format.Encoding) (Float64Decoder, error) {
	switch enc {
	case format.Plain:
		return &plainDecoder[float64]{enc: enc}, nil
	case format.ByteStreamSplit:
		return &bssDecoder[float64]{}, nil
	case format.ALP:
		return &ALPFloat64Decoder{}, nil
	}
	return nil, unsupportedFor(enc, format.Double)
}

// NewBoolDecoder returns a decoder for BOOLEAN values: PLAIN (bit-packed)
// or RLE (a 4-byte length, then the hybrid at bit width 1, as both data
// page versions store it).
func NewBoolDecoder(enc format.Encoding) (BoolDecoder, error) {
	switch enc {
	case format.Plain:
		return &plainBoolDecoder{}, nil
	case format.RLE:
		return &rleBoolDecoder{}, nil
	}
	return nil, unsupportedFor(enc, format.Boolean)
}

// NewInt96Decoder returns a decoder for INT96 values (PLAIN only).
func NewInt96Decoder(enc format.Encoding) (Int96Decoder, error) {
	if enc == format.Plain {
		return &plainDecoder[[12]byte]{enc: enc}, nil
	}
	return nil, unsupportedFor(enc, format.Int96)
}

// NewByteArrayDecoder returns a decoder for BYTE_ARRAY values.
func NewByteArrayDecoder(enc format.Encoding) (ByteArrayDecoder, error) {
	switch enc {
	case format.Plain:
		return &plainByteArrayDecoder{}, nil
	case format.DeltaLengthByteArray:
		return &DeltaLengthByteArrayDecoder{}, nil
	case format.DeltaByteArray:
		return &DeltaByteArrayDecoder{}, nil
	}
	return nil, unsupportedFor(enc, format.ByteArray)
}

// NewFixedLenDecoder returns a decoder for FIXED_LEN_BYTE_ARRAY values of
// the given width (from the schema, at least 1).
func NewFixedLenDecoder(enc format.Encoding, width int) (FixedLenDecoder, error) {
	if width <= 0 || width > maxInt32 {
		return nil, &Error{Encoding: enc, Offset: -1, Msg: "bad FIXED_LEN_BYTE_ARRAY width", Err: ErrUnsupported}
	}
	switch enc {
	case format.Plain:
		return &plainFixedDecoder{width: width}, nil
	case format.DeltaByteArray:
		return &deltaByteArrayFixedDecoder{width: width}, nil
	case format.ByteStreamSplit:
		return &bssFixedDecoder{width: width}, nil
	}
	return nil, unsupportedFor(enc, format.FixedLenByteArray)
}

func unsupportedFor(enc format.Encoding, t format.Type) error {
	if enc == format.PlainDictionary || enc == format.RLEDictionary {
		return &Error{Encoding: enc, Offset: -1, Msg: "dictionary pages need a dictionary decoder (New" + "*DictDecoder) for " + t.String(), Err: ErrUnsupported}
	}
	return unsupported(enc, t.String())
}
