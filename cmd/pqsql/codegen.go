package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/carquet-go/carquet/objstore"
	pqformat "github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

func runCodegen(e *env, args []string) error {
	fs := newFlags(e, "codegen", "codegen [-package NAME] [-type NAME] [-o FILE] FILE",
		`Generate Go code for a Parquet file's schema: a struct with one field per
column (nullable columns as pointers, lists as slices, maps as maps, structs
as nested structs) and two functions that read files of that schema with
carquet's parquet/file reader: Read<Type>s(path) returns every row,
Scan<Type>s(path, fn) streams them. The code needs only the module
github.com/carquet-go/carquet.`,
		`pqsql codegen -package events -o events/rows.go data/events.parquet
		 pqsql codegen -type Event data/events.parquet`)
	pkg := fs.String("package", "", "package name (default: from the file name)")
	typ := fs.String("type", "Row", "name of the row struct")
	out := fs.String("o", "", "output `FILE` (default stdout)")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	f, err := openFile(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	// A URL's options (credentials among them) stay out of the code.
	src, _, _ := strings.Cut(pos[0], "?")
	if !objstore.IsURL(pos[0]) {
		src = pos[0]
	}
	lfs, err := f.Schema.LogicalFields()
	if err != nil {
		return err
	}
	name := *pkg
	if name == "" {
		name = packageName(src)
	}
	if !isIdent(name) {
		return fmt.Errorf("codegen: %q is not a valid package name: %w", name, errUsage)
	}
	if !isIdent(*typ) || !unicode.IsUpper([]rune(*typ)[0]) {
		return fmt.Errorf("codegen: %q is not an exported type name: %w", *typ, errUsage)
	}
	code, err := generate(name, *typ, filepath.Base(src), lfs)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = e.stdout.Write(code)
		return err
	}
	return os.WriteFile(*out, code, 0o644)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

func packageName(path string) string {
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	var b strings.Builder
	for _, r := range base {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "rows" + s
	}
	return s
}

var initialisms = map[string]string{"id": "ID", "url": "URL", "uri": "URI", "json": "JSON", "uuid": "UUID", "http": "HTTP",
	"ip": "IP", "sql": "SQL", "api": "API", "utc": "UTC", "csv": "CSV", "xml": "XML", "html": "HTML"}

// goName turns a column name into an exported Go identifier:
// user_id → UserID, "2nd value" → F2ndValue.
func goName(s string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	var b strings.Builder
	for _, w := range words {
		if up, ok := initialisms[strings.ToLower(w)]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		b.WriteRune(unicode.ToUpper(r[0]))
		b.WriteString(string(r[1:]))
	}
	out := b.String()
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "F" + out
	}
	return out
}

// gen builds the generated file.
type gen struct {
	structs bytes.Buffer // nested struct types and converters
	funcs   int
	names   map[string]bool
	imports map[string]bool
}

func (g *gen) unique(base string) string {
	n := base
	for i := 2; g.names[n]; i++ {
		n = fmt.Sprintf("%s%d", base, i)
	}
	g.names[n] = true
	return n
}

// primitiveGoType is the Go type value.Primitive returns for a leaf.
func (g *gen) primitiveGoType(n *schema.Node) string {
	lt := n.Logical
	timeT := func() string { g.imports["time"] = true; return "time.Time" }
	decT := func() string { g.imports["value"] = true; return "value.Decimal" }
	switch n.Physical {
	case pqformat.Boolean:
		return "bool"
	case pqformat.Int32, pqformat.Int64:
		if lt != nil {
			switch {
			case lt.Date != nil, lt.Time != nil, lt.Timestamp != nil:
				return timeT()
			case lt.Decimal != nil:
				return decT()
			case lt.Integer != nil:
				t := map[int8]string{8: "int8", 16: "int16", 32: "int32", 64: "int64"}[lt.Integer.BitWidth]
				if t == "" {
					t = "int64"
				}
				if !lt.Integer.IsSigned {
					t = "u" + t
				}
				return t
			}
		}
		if n.Physical == pqformat.Int32 {
			return "int32"
		}
		return "int64"
	case pqformat.Int96:
		return timeT()
	case pqformat.Float:
		return "float32"
	case pqformat.Double:
		return "float64"
	}
	if lt != nil {
		switch {
		case lt.String != nil, lt.Enum != nil, lt.JSON != nil:
			return "string"
		case lt.Decimal != nil:
			return decT()
		case lt.UUID != nil && n.TypeLength == 16:
			return "string"
		case lt.Float16 != nil && n.TypeLength == 2:
			return "float32"
		}
	}
	if n.Converted.Set && n.Converted.Value == pqformat.Interval && n.TypeLength == 12 {
		g.imports["value"] = true
		return "value.Interval"
	}
	return "[]byte"
}

// typeOf returns the Go type of a field and the name of a function that
// converts what value.Get returns for it (an any) into that type.
func (g *gen) typeOf(f *schema.Field, owner string) (goType, conv string) {
	switch f.Kind {
	case schema.Primitive:
		t := g.primitiveGoType(f.Node)
		if f.Nullable && t != "[]byte" {
			return "*" + t, "asPtr[" + t + "]"
		}
		return t, "as[" + t + "]"
	case schema.Struct:
		name := g.unique(owner + goName(f.Name))
		var fields, assigns strings.Builder
		used := map[string]bool{}
		for _, c := range f.Children {
			fn := goName(c.Name)
			for i := 2; used[fn]; i++ {
				fn = fmt.Sprintf("%s%d", goName(c.Name), i)
			}
			used[fn] = true
			ct, cc := g.typeOf(c, name)
			fmt.Fprintf(&fields, "\t%s %s `parquet:%q`\n", fn, ct, c.Name)
			fmt.Fprintf(&assigns, "\tout.%s = %s(m[%q])\n", fn, cc, c.Name)
		}
		fmt.Fprintf(&g.structs, "\n// %s is the struct column %s.\ntype %s struct {\n%s}\n", name, f.Name, name, fields.String())
		conv := "conv" + name
		fmt.Fprintf(&g.structs, "\nfunc %s(v any) (out %s) {\n\tm, _ := v.(map[string]any)\n%s\treturn out\n}\n", conv, name, assigns.String())
		if f.Nullable {
			pconv := "convPtr" + name
			fmt.Fprintf(&g.structs, "\nfunc %s(v any) *%s {\n\tif v == nil {\n\t\treturn nil\n\t}\n\tout := %s(v)\n\treturn &out\n}\n", pconv, name, conv)
			return "*" + name, pconv
		}
		return name, conv
	case schema.List:
		et, ec := g.typeOf(f.Children[0], owner+goName(f.Name))
		g.funcs++
		conv := fmt.Sprintf("convList%d", g.funcs)
		fmt.Fprintf(&g.structs, "\nfunc %s(v any) []%s {\n\tl, ok := v.([]any)\n\tif !ok {\n\t\treturn nil\n\t}\n\tout := make([]%s, len(l))\n\tfor i, x := range l {\n\t\tout[i] = %s(x)\n\t}\n\treturn out\n}\n",
			conv, et, et, ec)
		return "[]" + et, conv
	case schema.Map:
		kt, kc := g.typeOf(f.Children[0], owner+goName(f.Name)+"Key")
		kt = strings.TrimPrefix(kt, "*")
		kc = strings.Replace(kc, "asPtr[", "as[", 1)
		if kt == "[]byte" {
			kt, kc = "string", "as[string]"
		}
		vt, vc := "struct{}", "asEmpty"
		if len(f.Children) > 1 {
			vt, vc = g.typeOf(f.Children[1], owner+goName(f.Name)+"Value")
		}
		g.funcs++
		conv := fmt.Sprintf("convMap%d", g.funcs)
		fmt.Fprintf(&g.structs, `
func %[1]s(v any) map[%[2]s]%[3]s {
	switch m := v.(type) {
	case map[string]any:
		out := make(map[%[2]s]%[3]s, len(m))
		for k, x := range m {
			out[%[4]s(k)] = %[5]s(x)
		}
		return out
	case map[any]any:
		out := make(map[%[2]s]%[3]s, len(m))
		for k, x := range m {
			out[%[4]s(k)] = %[5]s(x)
		}
		return out
	}
	return nil
}
`, conv, kt, vt, kc, vc)
		return "map[" + kt + "]" + vt, conv
	}
	return "any", "asAny"
}

func generate(pkg, typ, source string, fields []*schema.Field) ([]byte, error) {
	g := &gen{names: map[string]bool{typ: true}, imports: map[string]bool{}}
	var body, assigns, cols strings.Builder
	used := map[string]bool{}
	for i, f := range fields {
		fn := goName(f.Name)
		for k := 2; used[fn]; k++ {
			fn = fmt.Sprintf("%s%d", goName(f.Name), k)
		}
		used[fn] = true
		t, conv := g.typeOf(f, typ)
		fmt.Fprintf(&body, "\t%s %s `parquet:%q`\n", fn, t, f.Name)
		fmt.Fprintf(&assigns, "\t\t\trow.%s = %s(value.Get(fields[%d], b.Columns[%d], i))\n", fn, conv, i, i)
		fmt.Fprintf(&cols, "%q, ", f.Name)
	}
	var src bytes.Buffer
	fmt.Fprintf(&src, "// Code generated by pqsql codegen from %s; DO NOT EDIT.\n\npackage %s\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"io\"\n", source, pkg)
	if g.imports["time"] {
		src.WriteString("\t\"time\"\n")
	}
	src.WriteString("\n\t\"github.com/carquet-go/carquet/parquet/file\"\n\t\"github.com/carquet-go/carquet/parquet/value\"\n)\n")
	fmt.Fprintf(&src, `
// %[1]s is one row of %[2]s.
type %[1]s struct {
%[3]s}

// %[1]sColumns are the file's top-level columns, in the order of %[1]s's fields.
var %[1]sColumns = []string{%[4]s}

// Read%[1]ss reads every row of the Parquet file at path.
func Read%[1]ss(path string) ([]%[1]s, error) {
	var rows []%[1]s
	err := Scan%[1]ss(path, func(r *%[1]s) error {
		rows = append(rows, *r)
		return nil
	})
	return rows, err
}

// Scan%[1]ss calls fn for each row of the Parquet file at path, in order,
// reading it batch by batch. The row is reused: copy it to keep it. An
// error from fn stops the scan and is returned.
func Scan%[1]ss(path string, fn func(*%[1]s) error) error {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{Columns: %[1]sColumns})
	if err != nil {
		return err
	}
	fields := r.Fields()
	if len(fields) != len(%[1]sColumns) {
		return fmt.Errorf("%%s: %%d columns, want %%d", path, len(fields), len(%[1]sColumns))
	}
	var row %[1]s
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		for i := 0; i < b.NumRows; i++ {
			row = %[1]s{}
%[5]s			if err := fn(&row); err != nil {
				return err
			}
		}
	}
}

func as[T any](v any) T {
	t, _ := v.(T)
	return t
}

func asPtr[T any](v any) *T {
	t, ok := v.(T)
	if !ok {
		return nil
	}
	return &t
}

func asEmpty(any) struct{} { return struct{}{} }

func asAny(v any) any { return v }
`, typ, source, body.String(), strings.TrimSuffix(cols.String(), ", "), assigns.String())
	src.Write(g.structs.Bytes())
	out, err := format.Source(src.Bytes())
	if err != nil {
		return nil, fmt.Errorf("codegen: generated code does not parse (a bug): %w\n%s", err, src.Bytes())
	}
	return out, nil
}
