package schema

import (
	"errors"
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
)

// Kind says how a node's values are shaped once levels are assembled.
type Kind uint8

const (
	// Primitive is a leaf column.
	Primitive Kind = iota
	// Struct is a group whose children are its fields.
	Struct
	// List is a list; Element() is its element node.
	List
	// Map is a map; Key() and Value() are its key and value nodes.
	Map
)

func (k Kind) String() string {
	return [...]string{"primitive", "struct", "list", "map"}[k]
}

// Node is one field of the schema tree.
type Node struct {
	Name       string
	Repetition format.FieldRepetitionType
	// Physical, TypeLength: leaves only.
	Physical   format.Type
	TypeLength int
	// Logical is the node's logical type: the element's LogicalType, or one
	// derived from its ConvertedType for files that predate LogicalType.
	// Nil when the node has none.
	Logical   *format.LogicalType
	Converted format.Opt[format.ConvertedType]
	FieldID   format.Opt[int32]
	// SchemaElement is the footer element the node was built from.
	SchemaElement *format.SchemaElement

	Parent   *Node
	Children []*Node
	// Path is the dotted path from the root's children down to this node.
	Path []string
	// MaxDef and MaxRep are the maximum definition and repetition levels of
	// values at this node.
	MaxDef, MaxRep int16
	// Column is the index of the leaf column (0-based, in schema order),
	// or -1 for groups.
	Column int
	// SQLType is the SQL type a writer recorded for a top-level leaf in
	// the footer's ColumnTypesKey metadata when the Parquet type does not
	// say it (TIMESTAMP_S is a TIMESTAMP(MICROS) and BIT a UTF8 string, as
	// DuckDB writes them); "" otherwise.
	SQLType string
	// Kind and the nodes it names are set by classify.
	Kind    Kind
	element *Node // List: the element node
	key     *Node // Map: key node
	value   *Node // Map: value node, nil for a map without values
	// repeatedLevel is the repeated node that carries a List's or Map's
	// repetition (the node itself for an unannotated repeated field).
	repeatedLevel *Node
}

// IsLeaf reports whether n is a primitive column.
func (n *Node) IsLeaf() bool { return n.Column >= 0 }

// Element is the element node of a List.
func (n *Node) Element() *Node { return n.element }

// Key is the key node of a Map.
func (n *Node) Key() *Node { return n.key }

// Value is the value node of a Map, or nil when the map has no values.
func (n *Node) Value() *Node { return n.value }

// RepeatedLevel is the repeated node whose repetition level separates the
// entries of a List or Map.
func (n *Node) RepeatedLevel() *Node { return n.repeatedLevel }

// PathString is the path joined with dots.
func (n *Node) PathString() string { return strings.Join(n.Path, ".") }

// Optional reports whether the node may be null.
func (n *Node) Optional() bool { return n.Repetition == format.Optional }

// Schema is the tree of a file's schema.
type Schema struct {
	Root *Node
	// Leaves are the primitive columns in file order; a column chunk's
	// index within a row group is its leaf's Column.
	Leaves   []*Node
	Elements []format.SchemaElement
}

// MaxNodes bounds the number of schema elements accepted from a footer.
const maxDepth = 256

// ErrInvalid marks a schema that does not describe a valid tree.
var ErrInvalid = errors.New("invalid schema")

// FromElements builds the tree of a footer's schema list. The first element
// is the root.
func FromElements(elems []format.SchemaElement) (*Schema, error) {
	if len(elems) == 0 {
		return nil, fmt.Errorf("%w: no elements", ErrInvalid)
	}
	s := &Schema{Elements: elems}
	pos := 0
	root, err := s.build(elems, &pos, nil, 0)
	if err != nil {
		return nil, err
	}
	if pos != len(elems) {
		return nil, fmt.Errorf("%w: %d elements follow the end of the root's children", ErrInvalid, len(elems)-pos)
	}
	s.Root = root
	root.Path = nil
	classify(root, false)
	return s, nil
}

func (s *Schema) build(elems []format.SchemaElement, pos *int, parent *Node, depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%w: nesting deeper than %d", ErrInvalid, maxDepth)
	}
	i := *pos
	if i >= len(elems) {
		return nil, fmt.Errorf("%w: the schema ends inside group %q", ErrInvalid, parent.Name)
	}
	e := &elems[i]
	*pos = i + 1
	n := &Node{
		Name:          e.Name,
		SchemaElement: e,
		Parent:        parent,
		Column:        -1,
		Converted:     e.ConvertedType,
		FieldID:       e.FieldID,
	}
	if parent != nil {
		n.Repetition = e.RepetitionType.Or(format.Optional)
		n.Path = append(append([]string(nil), parent.Path...), e.Name)
		n.MaxDef, n.MaxRep = parent.MaxDef, parent.MaxRep
		switch n.Repetition {
		case format.Optional:
			n.MaxDef++
		case format.Repeated, format.Vector:
			n.MaxDef++
			n.MaxRep++
		case format.Required:
		default:
			return nil, fmt.Errorf("%w: element %d (%s) has repetition %v", ErrInvalid, i, e.Name, n.Repetition)
		}
	} else {
		n.Repetition = format.Required
	}
	nc := int(e.NumChildren.Value)
	isGroup := e.NumChildren.Set && (nc > 0 || !e.Type.Set)
	if parent == nil && !isGroup && len(elems) == 1 {
		isGroup = true // a root with no columns at all
	}
	if isGroup {
		if nc < 0 || nc > len(elems)-*pos {
			return nil, fmt.Errorf("%w: element %d (%s) claims %d children, only %d elements follow", ErrInvalid, i, e.Name, nc, len(elems)-*pos)
		}
		n.Kind = Struct
		n.Children = make([]*Node, 0, nc)
		for c := 0; c < nc; c++ {
			child, err := s.build(elems, pos, n, depth+1)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, child)
		}
	} else {
		if parent == nil {
			return nil, fmt.Errorf("%w: the root element %q is not a group", ErrInvalid, e.Name)
		}
		if !e.Type.Set {
			return nil, fmt.Errorf("%w: leaf %q has no physical type", ErrInvalid, n.PathString())
		}
		n.Physical = e.Type.Value
		if n.Physical < format.Boolean || n.Physical > format.FixedLenByteArray {
			return nil, fmt.Errorf("%w: leaf %q has unknown physical type %v", ErrInvalid, n.PathString(), n.Physical)
		}
		n.TypeLength = int(e.TypeLength.Value)
		if n.Physical == format.FixedLenByteArray && (n.TypeLength <= 0 || n.TypeLength > 1<<20) {
			return nil, fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY leaf %q has length %d", ErrInvalid, n.PathString(), n.TypeLength)
		}
		n.Column = len(s.Leaves)
		s.Leaves = append(s.Leaves, n)
	}
	n.Logical = logicalOf(e)
	return n, nil
}

// Lookup finds the node at a path of field names, or nil.
func (s *Schema) Lookup(path ...string) *Node {
	n := s.Root
	for _, name := range path {
		var next *Node
		for _, c := range n.Children {
			if c.Name == name {
				next = c
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// Column returns the leaf with the given dotted path, or nil.
func (s *Schema) Column(dotted string) *Node {
	for _, l := range s.Leaves {
		if l.PathString() == dotted {
			return l
		}
	}
	return nil
}

// Fields are the top-level fields of the schema.
func (s *Schema) Fields() []*Node { return s.Root.Children }

// LeavesUnder appends the leaves below (or at) n to dst, in column order.
func LeavesUnder(dst []*Node, n *Node) []*Node {
	if n.IsLeaf() {
		return append(dst, n)
	}
	for _, c := range n.Children {
		dst = LeavesUnder(dst, c)
	}
	return dst
}

// ColumnTypesKey is the footer key-value metadata entry that records the
// SQL types of columns their Parquet types do not convey: "name=TYPE"
// pairs, one a line.
const ColumnTypesKey = "carquet.column_types"

// ApplySQLTypes sets the SQLType of the top-level leaves named in v (the
// value of a ColumnTypesKey entry).
func (s *Schema) ApplySQLTypes(v string) {
	for _, line := range strings.Split(v, "\n") {
		name, typ, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		for _, c := range s.Root.Children {
			if c.Name == name && c.IsLeaf() {
				c.SQLType = typ
			}
		}
	}
}
