package sqlplan

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/writer"
)

// TestEnumTypesLastInCatalog: CREATE TYPE is kept in the folder's catalog
// file, so that another engine over the folder resolves the name (in a
// cast and in CREATE TABLE), and DROP TYPE takes it out for both.
func TestEnumTypesLastInCatalog(t *testing.T) {
	dir := t.TempDir()
	e1, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e1.Close()
	exec(t, e1, "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')")
	exec(t, e1, "CREATE TYPE score AS DECIMAL(5,1)")
	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	got := queryAll(t, e2, "SELECT 'ok'::mood, typeof('ok'::mood), typeof(1::score)")
	if fmt.Sprint(got) != "[[ok ENUM('sad', 'ok', 'happy') DECIMAL(5,1)]]" {
		t.Fatalf("second engine: %v", got)
	}
	exec(t, e2, "CREATE TABLE t (m mood)")
	exec(t, e1, "DROP TYPE mood")
	if err := queryErr(t, e2, "SELECT 'ok'::mood"); err == nil || !strings.Contains(err.Error(), "Type with name mood does not exist!") {
		t.Fatalf("after DROP TYPE in the other engine: %v", err)
	}
	// The table keeps its ENUM: its values are in its file.
	exec(t, e2, "INSERT INTO t VALUES ('happy'), ('sad')")
	if got := queryAll(t, e2, "SELECT m FROM t ORDER BY m"); fmt.Sprint(got) != "[[sad] [happy]]" {
		t.Fatalf("table after DROP TYPE: %v", got)
	}
}

// TestEnumColumnStorage: an ENUM column is a dictionary-encoded
// BYTE_ARRAY with the ENUM logical type, read back as codes in the
// declared order; the scan's vector is the codes, not the text.
func TestEnumColumnStorage(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (m ENUM('z', 'y', 'x'), i INTEGER)")
	exec(t, e, "INSERT INTO t SELECT (['x', 'y', 'z'])[1 + i % 3], i FROM range(3000) r(i)")
	got := queryAll(t, e, "SELECT type, logical_type FROM parquet_schema('t.parquet') WHERE name = 'm'")
	if fmt.Sprint(got) != "[[BYTE_ARRAY EnumType()]]" {
		t.Fatalf("schema: %v", got)
	}
	got = queryAll(t, e, "SELECT DISTINCT encodings FROM parquet_metadata('t.parquet') WHERE path_in_schema = 'm'")
	if len(got) != 1 || !strings.Contains(fmt.Sprint(got[0][0]), "RLE_DICTIONARY") {
		t.Fatalf("encodings: %v", got)
	}
	// Declared order: z < y < x.
	got = queryAll(t, e, "SELECT m, count(*), min(i) FROM t WHERE m < 'x'::ENUM('z', 'y', 'x') GROUP BY m ORDER BY m")
	if fmt.Sprint(got) != "[[z 1000 2] [y 1000 1]]" {
		t.Fatalf("order: %v", got)
	}
	// The column moves as codes (Col.I), in every batch.
	s, err := e.Prepare("SELECT m FROM t")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.Query(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for {
		b, err := rows.Next()
		if err != nil {
			break
		}
		c := b.Cols[0]
		if c.T.Kind != KEnum || c.I == nil || c.Off != nil || c.Dict != nil {
			t.Fatalf("ENUM column as %+v", c.T)
		}
	}
}

// TestEnumFromOtherWriters: a file whose column has the ENUM logical
// type but not carquet's record of its values (another writer's) reads
// as VARCHAR, as DuckDB reads it.
func TestEnumFromOtherWriters(t *testing.T) {
	dir := t.TempDir()
	sch, err := writer.NewSchema(writer.Enum("m"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.Create(filepath.Join(dir, "other.parquet"), sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRows([][]any{{"b"}, {nil}, {"a"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	got := queryAll(t, e, "SELECT m, typeof(m) FROM other ORDER BY m")
	if fmt.Sprint(got) != "[[a VARCHAR] [b VARCHAR] [<nil> VARCHAR]]" {
		t.Fatalf("got %v", got)
	}
	// Cast to an ENUM, the text takes the declared order.
	got = queryAll(t, e, "SELECT m::ENUM('b', 'a') AS x FROM other ORDER BY x")
	if fmt.Sprint(got) != "[[b] [a] [<nil>]]" {
		t.Fatalf("cast: %v", got)
	}
}

// TestEnumErrors: bad CREATE TYPE and DROP TYPE statements and values are
// errors that say what is wrong.
func TestEnumErrors(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TYPE mood AS ENUM ('sad', 'ok')")
	for q, want := range map[string]string{
		"CREATE TYPE e AS ENUM ('a', NULL)":         "ENUM takes string literals",
		"CREATE TYPE e AS ENUM ('a'":                "unterminated ENUM",
		"CREATE TYPE e AS ENUM (SELECT 1)":          "is not supported",
		"CREATE TYPE e AS nosuch":                   "Type with name nosuch does not exist!",
		"CREATE TYPE e":                             "expected CREATE TYPE name AS type",
		"DROP TYPE a b":                             "DROP TYPE takes one type name",
		"SELECT 'ok'::mood::ENUM('sad')":            "can't be cast because the value is out of range",
		"SELECT CAST(1.5 AS ENUM('a'))":             "Unimplemented type for cast (DECIMAL(2,1) -> ENUM('a'))",
		"SELECT 'x'::NOSUCH":                        "Type with name NOSUCH does not exist!",
		"CREATE TABLE t (a mood, b ENUM('x', 'x'))": "Attempted to create ENUM type with duplicate value x",
	} {
		s, err := e.Prepare(q)
		switch {
		case err == nil && strings.HasPrefix(q, "SELECT"):
			_, err = queryRows(t, e, q)
		case err == nil:
			_, err = s.Exec(t.Context(), nil, nil)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", q, err, want)
		}
	}
}

// TestEnumEqualityWithText: = and <> with text compare codes when the
// text is a value of the ENUM, and as text when it is none (no error);
// NULL stays NULL.
func TestEnumEqualityWithText(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (m ENUM('a', 'b'), i INTEGER)")
	exec(t, e, "INSERT INTO t VALUES ('a', 1), ('b', 2), (NULL, 3)")
	got := queryAll(t, e, "SELECT i, m = 'a', m <> 'a', m = 'zz', m <> 'zz', 'b' = m FROM t ORDER BY i")
	if s := fmt.Sprint(got); s != "[[1 true false false true false] [2 false true false true true] [3 <nil> <nil> <nil> <nil> <nil>]]" {
		t.Fatalf("got %s", s)
	}
	if got := queryAll(t, e, "SELECT i FROM t WHERE m <> 'a' ORDER BY i"); fmt.Sprint(got) != "[[2]]" {
		t.Fatalf("filter: %v", got)
	}
}
