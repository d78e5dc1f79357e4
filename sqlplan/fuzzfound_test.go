package sqlplan

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestFuzzFound holds the inputs FuzzQuery found that failed, reduced, with
// what they must give.
func TestFuzzFound(t *testing.T) {
	e, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q, want string // want: the value, or "error: <part of the message>"
	}{
		{"SELECT '' + 1", "error: "},
		{"SELECT 1 + 'x'", "error: "},
		{"SELECT '2' + 1", "3"},
		{"SELECT 1.5 + '2'", "3.5"},
	} {
		got, err := queryOne(e, tc.q)
		if err != nil {
			got = "error: " + err.Error()
		}
		if strings.Contains(got, "internal error") || !strings.HasPrefix(got, tc.want) ||
			!strings.HasPrefix(tc.want, "error: ") && got != tc.want {
			t.Errorf("%s: %s, want %s", tc.q, got, tc.want)
		}
	}
}

// queryOne runs a query of one row and one column and prints the value.
func queryOne(e *Engine, q string) (string, error) {
	s, err := e.Prepare(q)
	if err != nil {
		return "", err
	}
	rows, err := s.Query(context.Background(), nil)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	b, err := rows.Next()
	if err != nil {
		return "", err
	}
	if b.N != 1 || len(b.Cols) != 1 {
		return "", io.ErrUnexpectedEOF
	}
	return fmt.Sprint(b.Cols[0].Value(0)), nil
}
