package schema

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/format"
)

// Field is a node of the logical tree that readers assemble values into:
// structs, lists, maps and primitives as an Arrow-like reader sees them,
// with the levels at which each is present. It is derived from the
// physical tree, resolving legacy list forms and unannotated repeated
// fields (which are required lists of required elements).
type Field struct {
	Name     string
	Kind     Kind
	Nullable bool
	// Node is the physical node behind this field: the leaf of a primitive,
	// the group of a struct, the annotated group (or the unannotated repeated
	// field) of a list or map.
	Node *Node
	// Children: Struct fields; List: the element; Map: key, then value (the
	// value is absent for a map without values).
	Children []*Field
	// DefLevel is the definition level at or above which this field's value
	// is not null (its ancestors' and its own optional levels).
	DefLevel int16
	// For List and Map: an entry exists at definition levels >= EntryDefLevel,
	// and a repetition level below RepLevel starts a new list.
	EntryDefLevel int16
	RepLevel      int16
	// Leaf is the leaf column index of a primitive, -1 otherwise.
	Leaf int
}

// LogicalFields builds the logical tree of the schema's top-level fields.
func (s *Schema) LogicalFields() ([]*Field, error) {
	out := make([]*Field, 0, len(s.Root.Children))
	for _, c := range s.Root.Children {
		f, err := buildField(c, false)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// LogicalField builds the logical field of one top-level node.
func LogicalField(n *Node) (*Field, error) { return buildField(n, false) }

// buildField maps a physical node to its logical field. consumed says the
// node's repetition was already taken by an enclosing list or map (it is
// that list's repeated level), so it is a required element, not a list.
func buildField(n *Node, consumed bool) (*Field, error) {
	f := &Field{Name: n.Name, Node: n, DefLevel: n.MaxDef, Leaf: -1}
	if n.Repetition == format.Vector {
		return nil, fmt.Errorf("column %q: VECTOR repetition is not supported", n.PathString())
	}
	if !consumed && n.Repetition == format.Repeated && n.Parent != nil {
		// An unannotated repeated field: a required list of required elements.
		elem, err := buildField(n, true)
		if err != nil {
			return nil, err
		}
		return &Field{Name: n.Name, Kind: List, Node: n, Children: []*Field{elem},
			DefLevel: n.MaxDef - 1, EntryDefLevel: n.MaxDef, RepLevel: n.MaxRep, Leaf: -1}, nil
	}
	f.Nullable = !consumed && n.Optional()
	switch {
	case n.IsLeaf():
		f.Kind = Primitive
		f.Leaf = n.Column
	case n.Kind == List:
		r := n.repeatedLevel
		f.Kind = List
		f.EntryDefLevel, f.RepLevel = r.MaxDef, r.MaxRep
		elem, err := buildField(n.element, n.element == r)
		if err != nil {
			return nil, err
		}
		f.Children = []*Field{elem}
	case n.Kind == Map:
		r := n.repeatedLevel
		f.Kind = Map
		f.EntryDefLevel, f.RepLevel = r.MaxDef, r.MaxRep
		k, err := buildField(n.key, false)
		if err != nil {
			return nil, err
		}
		f.Children = []*Field{k}
		if n.value != nil {
			v, err := buildField(n.value, false)
			if err != nil {
				return nil, err
			}
			f.Children = append(f.Children, v)
		}
	default:
		f.Kind = Struct
		for _, c := range n.Children {
			cf, err := buildField(c, false)
			if err != nil {
				return nil, err
			}
			f.Children = append(f.Children, cf)
		}
	}
	return f, nil
}
