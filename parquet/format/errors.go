package format

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/thrift"
)

//go:generate go run ./internal/gen

// DecodeError reports where in the metadata a decoding failure happened:
// the chain of struct fields leading to it, and the thrift error below.
type DecodeError struct {
	Path string // e.g. "FileMetaData.row_groups > RowGroup.columns > ColumnChunk.meta_data"
	Err  error
}

func (e *DecodeError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// wrap prefixes err with the struct field being decoded, building a path
// from the outermost struct inwards as the error travels up.
func wrap(structName, fieldName string, err error) error {
	here := structName
	if fieldName != "" {
		here += "." + fieldName
	}
	if de, ok := err.(*DecodeError); ok {
		return &DecodeError{Path: here + " > " + de.Path, Err: de.Err}
	}
	return &DecodeError{Path: here, Err: err}
}

// errField reports a field of a strict struct (page headers) given twice,
// with the wrong wire type, or missing.
func errField(r *thrift.Reader, what string) error {
	return &thrift.Error{Offset: r.Offset(), Msg: "field " + what}
}

func errElemType(r *thrift.Reader, t thrift.Type) error {
	return &thrift.Error{Offset: r.Offset(), Msg: fmt.Sprintf("unexpected list element type %s", t)}
}

// Unmarshal decodes one struct from the start of buf and returns the
// number of bytes it took.
func Unmarshal(buf []byte, v interface{ Decode(*thrift.Reader) error }) (int, error) {
	r := thrift.NewReader(buf)
	err := v.Decode(r)
	return r.Offset(), err
}

// UnmarshalAliased is Unmarshal for footers: strings share buf's memory
// instead of copying it (buf must never change while the result is in
// use), and the many small per-column objects come from a few large blocks.
func UnmarshalAliased(buf []byte, v interface{ Decode(*thrift.Reader) error }) (int, error) {
	r := thrift.NewReader(buf)
	r.AliasStrings = true
	r.Arena = &arena{}
	err := v.Decode(r)
	return r.Offset(), err
}

// Marshal appends the encoding of v to dst.
func Marshal(dst []byte, v interface{ Encode(*thrift.Writer) }) []byte {
	w := thrift.NewWriter(dst)
	v.Encode(w)
	return w.Bytes()
}
