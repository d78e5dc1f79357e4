package scan

import (
	"context"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
)

// TestScanMemoryLimit: under Limits.MaxScanMemory a scan decodes fewer row
// groups at once (the budget's peak stays under the limit), returns the
// same rows in the same order, and a row group that alone needs more than
// the limit fails the scan with ErrLimit naming the file and row group.
func TestScanMemoryLimit(t *testing.T) {
	path := writeEvents(t, 200_000, 20_000, 5)
	read := func(limits file.Limits, req Request) ([]int64, *Scanner, error) {
		tbl, err := Open(path, Options{Limits: limits})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tbl.Close() })
		s, err := tbl.Scan(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var ts []int64
		for {
			b, err := s.Next()
			if err == io.EOF {
				return ts, s, nil
			}
			if err != nil {
				return ts, s, err
			}
			ts = append(ts, b.Columns[0].Int64s[:b.NumRows]...)
		}
	}
	for _, req := range []Request{
		{Columns: []string{"ts", "category", "amount"}, Threads: 4},
		{Columns: []string{"ts", "category", "amount"}, Threads: 4, Unordered: true},
		{Columns: []string{"ts", "user_id"}, Threads: 3, Filter: Compare{"user_id", Lt, int64(30_000)}},
	} {
		want, _, err := read(file.Limits{}, req)
		if err != nil {
			t.Fatal(err)
		}
		// Room for one row group and a half: never two at once.
		tbl, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := tbl.Scan(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		f, err := tbl.File(0)
		if err != nil {
			t.Fatal(err)
		}
		one := s.unitMemory(s.bindFile(0, f), f, &unit{rg: 0})
		s.Close()
		tbl.Close()
		limit := one + one/2
		got, s2, err := read(file.Limits{MaxScanMemory: limit}, req)
		if err != nil {
			t.Fatal(err)
		}
		if req.Unordered {
			slices.Sort(got)
			slices.Sort(want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: %d rows under the limit, %d without", req, len(got), len(want))
		}
		if s2.mem.peak > limit {
			t.Fatalf("%+v: %d bytes held at once, limit %d", req, s2.mem.peak, limit)
		}
		if one <= 0 || s2.mem.peak < one {
			t.Fatalf("%+v: peak %d, a row group estimated at %d", req, s2.mem.peak, one)
		}

		_, _, err = read(file.Limits{MaxScanMemory: one / 2}, req)
		if !errors.Is(err, file.ErrLimit) || !strings.Contains(err.Error(), "events.parquet") || !strings.Contains(err.Error(), "row group 0") {
			t.Fatalf("%+v: a limit below one row group gave %v", req, err)
		}
	}
}
