package thrift

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/errs"
)

// Type is a compact-protocol wire type, as found in field headers and
// collection headers.
type Type uint8

const (
	Stop      Type = 0
	BoolTrue  Type = 1
	BoolFalse Type = 2
	Byte      Type = 3
	I16       Type = 4
	I32       Type = 5
	I64       Type = 6
	Double    Type = 7
	Binary    Type = 8
	List      Type = 9
	Set       Type = 10
	Map       Type = 11
	Struct    Type = 12
	// Bool is how a boolean is named in a collection header; as a field
	// header the value itself is folded into the type (BoolTrue/BoolFalse).
	Bool = BoolTrue
)

func (t Type) String() string {
	switch t {
	case Stop:
		return "stop"
	case BoolTrue, BoolFalse:
		return "bool"
	case Byte:
		return "byte"
	case I16:
		return "i16"
	case I32:
		return "i32"
	case I64:
		return "i64"
	case Double:
		return "double"
	case Binary:
		return "binary"
	case List:
		return "list"
	case Set:
		return "set"
	case Map:
		return "map"
	case Struct:
		return "struct"
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// ExtensionFieldID is the field id reserved by BinaryProtocolExtensions.md
// for a binary blob of extension bytes appended to any struct.
const ExtensionFieldID = 32767

// ExtensionFieldIDAsRead is the id a compact-protocol reader decodes from
// the extension header the spec prescribes (08 FF FF 01): the spec writes
// 32767 as a plain ULEB128, and the compact protocol reads long-form ids as
// zigzag varints, which turns it into -16384. Both spellings are accepted.
const ExtensionFieldIDAsRead = -16384

// MaxDepth bounds struct and collection nesting on decode. parquet.thrift
// nests at most a handful of levels; hostile input may nest millions.
const MaxDepth = 64

// ErrTruncated reports input that ended inside a value.
// It is a kind of errs.ErrCorrupt.
var ErrTruncated = errs.New("thrift: truncated input", errs.ErrCorrupt)

// Error describes a decoding failure at a byte offset of the input.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("thrift: %s at byte %d", e.Msg, e.Offset) }

// Unwrap makes every malformed-input error errors.Is(err, errs.ErrCorrupt).
func (e *Error) Unwrap() error { return errs.ErrCorrupt }
