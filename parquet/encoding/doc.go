// Package encoding implements every Parquet value encoding of
// Encodings.md and AlpEncoding.md, in both directions, for every physical
// type each applies to: PLAIN, the RLE/bit-packing hybrid (levels,
// dictionary indices, booleans), the deprecated BIT_PACKED levels,
// PLAIN_DICTIONARY/RLE_DICTIONARY indices, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and ALP.
//
// It sits between the page layer and the kernels: the page reader hands a
// decompressed page body to a stateful decoder (Int32Decoder,
// ByteArrayDecoder, LevelDecoder, DictIndexDecoder, ...) that writes
// straight into the caller's typed slices, in as many batches as it likes,
// and can skip values without materialising them; the column writer
// appends encoded bytes to its page buffer with the Append* functions and
// builds dictionaries with the Dict types. Byte arrays are kept Arrow-style
// as one []byte of concatenated values plus []int32 offsets.
//
// Hot loops call package simd (bit unpacking, dictionary gather,
// BYTE_STREAM_SPLIT, delta prefix sums). This package imports only simd,
// parquet/format and the standard library.
//
// Every decoder treats its input as hostile: corrupt data yields an *Error
// (wrapping ErrCorrupt) naming the encoding and byte offset, never a panic,
// a hang, or an allocation sized by a number read from the data.
package encoding
