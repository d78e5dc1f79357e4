package textfile

import (
	"bufio"
	"math"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// COPY (query) TO 'x.json' writes the rows as JSON objects, one per line
// (or the elements of one array with ARRAY true), with DuckDB's
// rendering of values (to_json's: numbers and booleans bare, NULL as
// null, dates and times as strings, STRUCTs and MAPs as objects, LISTs
// as arrays, JSON as it is).

// JSONCopy is how COPY ... TO writes a JSON file. Begin, then
// WriteBatch for each batch, then End.
type JSONCopy struct {
	Array bool
	// DateFormat and TimestampFormat are strftime formats of DATE and
	// TIMESTAMP values; "" writes to_json's text.
	DateFormat, TimestampFormat string
	// ToJSON is to_json's text of a value of type t, not NULL: the
	// engine's rendering of nested values and scalars.
	ToJSON func(t vec.Type, v any) (string, error)

	keys  []string // each column's "name": of the objects
	types []vec.Type
	rows  int64
}

// Begin starts the file of rows of columns cols.
func (c *JSONCopy) Begin(w *bufio.Writer, cols []vec.NamedType) {
	c.keys, c.types, c.rows = make([]string, len(cols)), make([]vec.Type, len(cols)), 0
	for k, col := range cols {
		c.keys[k] = function.JSONQuote(col.Name) + ":"
		c.types[k] = col.Type
	}
	if c.Array {
		w.WriteString("[\n")
	}
}

// WriteBatch writes a batch's rows, an object each.
func (c *JSONCopy) WriteBatch(w *bufio.Writer, b *vec.Batch) error {
	for i := range b.N {
		if c.Array && c.rows > 0 {
			w.WriteString(",\n")
		}
		if c.Array {
			w.WriteByte('\t')
		}
		w.WriteByte('{')
		for k, col := range b.Cols {
			if k > 0 {
				w.WriteByte(',')
			}
			w.WriteString(c.keys[k])
			text, err := c.value(c.types[k], col, i)
			if err != nil {
				return err
			}
			w.WriteString(text)
		}
		w.WriteByte('}')
		if !c.Array {
			w.WriteByte('\n')
		}
		c.rows++
	}
	return nil
}

// End ends the file and returns how many rows it has.
func (c *JSONCopy) End(w *bufio.Writer) int64 {
	if c.Array {
		if c.rows > 0 {
			w.WriteByte('\n')
		}
		w.WriteString("]\n")
	}
	return c.rows
}

// value is row i of col, of type t, as to_json writes it (a JSON value
// as it is, a non-finite DOUBLE as DuckDB's Infinity, -Infinity or
// NaN), a DATE or TIMESTAMP in the format given.
func (c *JSONCopy) value(t vec.Type, col *vec.Col, i int) (string, error) {
	v := col.Get(i)
	switch {
	case v == nil:
		return "null", nil
	case t.Kind == vec.KString && t.JSON:
		return string(col.Str(i)), nil
	case t.Kind == vec.KFloat && math.IsInf(v.(float64), 1):
		return "Infinity", nil
	case t.Kind == vec.KFloat && math.IsInf(v.(float64), -1):
		return "-Infinity", nil
	case t.Kind == vec.KFloat && math.IsNaN(v.(float64)):
		return "NaN", nil
	case t.Kind == vec.KDate && c.DateFormat != "":
		return function.JSONQuote(function.Strftime(vec.DaysToTime(v.(int64)), c.DateFormat)), nil
	case t.Kind == vec.KTimestamp && c.TimestampFormat != "":
		return function.JSONQuote(function.Strftime(vec.StampToTime(t, v.(int64)), c.TimestampFormat)), nil
	}
	return c.ToJSON(t, v)
}
