// Package variant implements the Parquet Variant type: the binary encoding
// of semi-structured values (VariantEncoding.md) and the reconstruction of
// shredded Variant columns (VariantShredding.md).
//
// A Variant is two byte strings: metadata (a dictionary of object field
// names) and value (a self-describing tree of primitives, arrays and
// objects whose field names are dictionary ids). This package
//
//   - decodes them into plain Go values (Decode; the Go type of each Variant
//     type is listed in types.go) and renders them as JSON (ToJSON), which
//     the SQL layer uses for display;
//   - encodes Go values, or JSON text, into Variants (Encode, EncodeUnsorted,
//     FromJSON, AppendValue, MetadataBuilder), which the writer uses for
//     Variant columns;
//   - rebuilds the Variant of a shredded column group from its value and
//     typed_value pieces (Unshred): the column assembly reads the shredded
//     columns of a row into a Shredded tree, describes their schema with a
//     ShreddedType, and gets back the value bytes.
//
// Input is untrusted: every length and offset is checked, nesting is
// limited to MaxDepth, element counts must fit the bytes that hold them,
// and decoding work is bounded by the input size (offsets that make
// elements share bytes are rejected rather than decoded again and again).
// Errors wrap ErrInvalid (malformed bytes) or ErrShredded (shredding rules
// broken); nothing panics.
//
// The package is a leaf: it imports only the standard library.
package variant
