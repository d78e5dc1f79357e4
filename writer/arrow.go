package writer

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// The ARROW:schema footer entry: base64 of an encapsulated Arrow IPC
// message (continuation marker 0xFFFFFFFF, metadata length, a Message
// flatbuffer holding a Schema, padding to 8 bytes), as Arrow's Parquet
// writers store it so that their readers restore exact Arrow types (time
// zones, unsigned and small integers, half floats, decimal widths). The
// flatbuffer is encoded here by hand: the tables below follow Arrow's
// Message.fbs and Schema.fbs field order.

const arrowSchemaKey = "ARROW:schema"

// Arrow flatbuffer enums.
const (
	arrowMetadataV5      = 4
	arrowHeaderSchema    = 1
	arrowTypeNull        = 1
	arrowTypeInt         = 2
	arrowTypeFloat       = 3
	arrowTypeBinary      = 4
	arrowTypeUtf8        = 5
	arrowTypeBool        = 6
	arrowTypeDecimal     = 7
	arrowTypeDate        = 8
	arrowTypeTime        = 9
	arrowTypeTimestamp   = 10
	arrowTypeList        = 12
	arrowTypeStruct      = 13
	arrowTypeFixedBinary = 15
	arrowTypeMap         = 17

	arrowHalf, arrowSingle, arrowDouble = 0, 1, 2
	arrowDateDay                        = 0
	arrowSecond, arrowMilli             = 0, 1
	arrowMicro, arrowNano               = 2, 3
)

// fbTable is a flatbuffer table under construction: scalar fields and
// references to other objects, by vtable slot.
type fbTable struct {
	fields []fbField
}

type fbField struct {
	slot int
	size int // 1, 2, 4 or 8 for scalars; 4 for references
	val  uint64
	ref  any // *fbTable, fbString or fbVector
}

type fbString string

type fbVector []*fbTable

func (t *fbTable) scalar(slot, size int, v uint64) *fbTable {
	t.fields = append(t.fields, fbField{slot: slot, size: size, val: v})
	return t
}

func (t *fbTable) ref(slot int, o any) *fbTable {
	t.fields = append(t.fields, fbField{slot: slot, size: 4, ref: o})
	return t
}

// fbEncoder lays objects out front to back: every reference points to a
// later position, as flatbuffers' unsigned offsets require.
type fbEncoder struct {
	buf []byte
}

func (e *fbEncoder) align(n int) {
	for len(e.buf)%n != 0 {
		e.buf = append(e.buf, 0)
	}
}

func (e *fbEncoder) patch(at, target int) {
	binary.LittleEndian.PutUint32(e.buf[at:], uint32(target-at))
}

func (e *fbEncoder) write(o any) int {
	switch o := o.(type) {
	case *fbTable:
		return e.table(o)
	case fbString:
		e.align(4)
		pos := len(e.buf)
		e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(o)))
		e.buf = append(e.buf, o...)
		e.buf = append(e.buf, 0)
		return pos
	case fbVector:
		e.align(4)
		pos := len(e.buf)
		e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(o)))
		slots := len(e.buf)
		e.buf = append(e.buf, make([]byte, 4*len(o))...)
		for i, t := range o {
			e.patch(slots+4*i, e.write(t))
		}
		return pos
	}
	panic(fmt.Sprintf("flatbuffer: cannot encode %T", o))
}

func (e *fbEncoder) table(t *fbTable) int {
	// Inline layout: the soffset to the vtable, then the fields by
	// decreasing size, so each is aligned when the table is 8-aligned.
	fields := slices.Clone(t.fields)
	slices.SortStableFunc(fields, func(a, b fbField) int { return b.size - a.size })
	nslots := 0
	for _, f := range fields {
		nslots = max(nslots, f.slot+1)
	}
	offs := make([]int, len(fields))
	size := 4
	for i, f := range fields {
		for size%f.size != 0 {
			size++
		}
		offs[i] = size
		size += f.size
	}
	// The vtable goes right before the table (the table's soffset is
	// positive: vtable = table - soffset).
	e.align(2)
	vt := len(e.buf)
	vtSize := 4 + 2*nslots
	e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(vtSize))
	e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(size))
	entries := len(e.buf)
	e.buf = append(e.buf, make([]byte, 2*nslots)...)
	e.align(8)
	tpos := len(e.buf)
	e.buf = append(e.buf, make([]byte, size)...)
	binary.LittleEndian.PutUint32(e.buf[tpos:], uint32(int32(tpos-vt)))
	for i, f := range fields {
		binary.LittleEndian.PutUint16(e.buf[entries+2*f.slot:], uint16(offs[i]))
		at := tpos + offs[i]
		switch f.size {
		case 1:
			e.buf[at] = byte(f.val)
		case 2:
			binary.LittleEndian.PutUint16(e.buf[at:], uint16(f.val))
		case 4:
			binary.LittleEndian.PutUint32(e.buf[at:], uint32(f.val))
		case 8:
			binary.LittleEndian.PutUint64(e.buf[at:], f.val)
		}
	}
	for i, f := range fields {
		if f.ref != nil {
			e.patch(tpos+offs[i], e.write(f.ref))
		}
	}
	return tpos
}

// finish encodes root as a flatbuffer (root offset first).
func (e *fbEncoder) finish(root *fbTable) []byte {
	e.buf = append(e.buf[:0], 0, 0, 0, 0)
	e.patch(0, e.write(root))
	return e.buf
}

// arrowSchemaValue builds the ARROW:schema entry for the logical fields.
func arrowSchemaValue(s *schema.Schema, fields []*schema.Field) (string, error) {
	var fv fbVector
	for _, f := range fields {
		t, err := arrowField(f, f.Name)
		if err != nil {
			return "", err
		}
		fv = append(fv, t)
	}
	sch := (&fbTable{}).ref(1, fv)
	msg := (&fbTable{}).scalar(0, 2, arrowMetadataV5).scalar(1, 1, arrowHeaderSchema).ref(2, sch)
	var enc fbEncoder
	fb := enc.finish(msg)
	for len(fb)%8 != 0 {
		fb = append(fb, 0)
	}
	out := make([]byte, 0, 8+len(fb))
	out = binary.LittleEndian.AppendUint32(out, 0xFFFFFFFF)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(fb)))
	out = append(out, fb...)
	return base64.StdEncoding.EncodeToString(out), nil
}

func arrowFieldTable(name string, nullable bool, typ byte, typeTable *fbTable, children fbVector) *fbTable {
	t := (&fbTable{}).ref(0, fbString(name))
	nb := uint64(0)
	if nullable {
		nb = 1
	}
	t.scalar(1, 1, nb).scalar(2, 1, uint64(typ)).ref(3, typeTable)
	if children == nil {
		children = fbVector{}
	}
	return t.ref(5, children)
}

// arrowField maps one logical field to an Arrow Field table, the way Arrow
// reads the Parquet type back.
func arrowField(f *schema.Field, name string) (*fbTable, error) {
	switch f.Kind {
	case schema.Struct:
		var kids fbVector
		for _, c := range f.Children {
			k, err := arrowField(c, c.Name)
			if err != nil {
				return nil, err
			}
			kids = append(kids, k)
		}
		return arrowFieldTable(name, f.Nullable, arrowTypeStruct, &fbTable{}, kids), nil
	case schema.List:
		el, err := arrowField(f.Children[0], f.Children[0].Name)
		if err != nil {
			return nil, err
		}
		return arrowFieldTable(name, f.Nullable, arrowTypeList, &fbTable{}, fbVector{el}), nil
	case schema.Map:
		var kids fbVector
		for _, c := range f.Children {
			k, err := arrowField(c, c.Name)
			if err != nil {
				return nil, err
			}
			kids = append(kids, k)
		}
		if len(kids) == 1 {
			return nil, fmt.Errorf("map %q without values has no Arrow type", name)
		}
		entries := arrowFieldTable("key_value", false, arrowTypeStruct, &fbTable{}, kids)
		return arrowFieldTable(name, f.Nullable, arrowTypeMap, (&fbTable{}).scalar(0, 1, 0), fbVector{entries}), nil
	}
	typ, tt, err := arrowPrimitive(f.Node)
	if err != nil {
		return nil, err
	}
	return arrowFieldTable(name, f.Nullable, typ, tt, nil), nil
}

func arrowUnit(u format.TimeUnit) uint64 {
	switch {
	case u.Millis != nil:
		return arrowMilli
	case u.Micros != nil:
		return arrowMicro
	}
	return arrowNano
}

func arrowInt(bits int, signed bool) (byte, *fbTable) {
	s := uint64(0)
	if signed {
		s = 1
	}
	return arrowTypeInt, (&fbTable{}).scalar(0, 4, uint64(bits)).scalar(1, 1, s)
}

func arrowPrimitive(n *schema.Node) (byte, *fbTable, error) {
	lt := n.Logical
	if lt != nil {
		switch {
		case lt.String != nil, lt.Enum != nil, lt.JSON != nil:
			return arrowTypeUtf8, &fbTable{}, nil
		case lt.Integer != nil:
			t, tt := arrowInt(int(lt.Integer.BitWidth), lt.Integer.IsSigned)
			return t, tt, nil
		case lt.Decimal != nil:
			bits := uint64(128)
			if lt.Decimal.Precision > 38 {
				bits = 256
			}
			return arrowTypeDecimal, (&fbTable{}).scalar(0, 4, uint64(lt.Decimal.Precision)).
				scalar(1, 4, uint64(uint32(lt.Decimal.Scale))).scalar(2, 4, bits), nil
		case lt.Date != nil:
			return arrowTypeDate, (&fbTable{}).scalar(0, 2, arrowDateDay), nil
		case lt.Time != nil:
			bits := uint64(64)
			if lt.Time.Unit.Millis != nil {
				bits = 32
			}
			return arrowTypeTime, (&fbTable{}).scalar(0, 2, arrowUnit(lt.Time.Unit)).scalar(1, 4, bits), nil
		case lt.Timestamp != nil:
			t := (&fbTable{}).scalar(0, 2, arrowUnit(lt.Timestamp.Unit))
			if lt.Timestamp.IsAdjustedToUTC {
				t.ref(1, fbString("UTC"))
			}
			return arrowTypeTimestamp, t, nil
		case lt.Float16 != nil:
			return arrowTypeFloat, (&fbTable{}).scalar(0, 2, arrowHalf), nil
		case lt.Unknown != nil:
			return arrowTypeNull, &fbTable{}, nil
		}
	}
	switch n.Physical {
	case format.Boolean:
		return arrowTypeBool, &fbTable{}, nil
	case format.Int32:
		t, tt := arrowInt(32, true)
		return t, tt, nil
	case format.Int64:
		t, tt := arrowInt(64, true)
		return t, tt, nil
	case format.Int96:
		return arrowTypeTimestamp, (&fbTable{}).scalar(0, 2, arrowNano), nil
	case format.Float:
		return arrowTypeFloat, (&fbTable{}).scalar(0, 2, arrowSingle), nil
	case format.Double:
		return arrowTypeFloat, (&fbTable{}).scalar(0, 2, arrowDouble), nil
	case format.ByteArray:
		return arrowTypeBinary, &fbTable{}, nil
	case format.FixedLenByteArray:
		return arrowTypeFixedBinary, (&fbTable{}).scalar(0, 4, uint64(n.TypeLength)), nil
	}
	return 0, nil, fmt.Errorf("column %s: no Arrow type for %v", n.PathString(), n.Physical)
}
