package driver

import (
	"context"
	"database/sql/driver"
	"io"
	"reflect"

	"github.com/carquet-go/carquet/sqlplan"
)

// A statement that returns no rows, run through Query, answers as DuckDB
// does: one that changes rows (INSERT, UPDATE, DELETE, COPY, CREATE
// TABLE AS, MERGE) a "Count" BIGINT column with one row, the rows it
// changed; another CREATE the same column with no row; anything else
// (SET, DROP, BEGIN, ...) a "Success" BOOLEAN column with no row. Code
// written for duckdb-go that runs DDL with db.Query keeps working.

// statusRows is that answer.
type statusRows struct {
	name  string // Count or Success
	count []int64
}

var _ driver.RowsColumnTypeDatabaseTypeName = (*statusRows)(nil)
var _ driver.RowsColumnTypeScanType = (*statusRows)(nil)

func (r *statusRows) Columns() []string { return []string{r.name} }
func (r *statusRows) Close() error      { return nil }

func (r *statusRows) Next(dest []driver.Value) error {
	if len(r.count) == 0 {
		return io.EOF
	}
	dest[0], r.count = r.count[0], r.count[1:]
	return nil
}

func (r *statusRows) ColumnTypeDatabaseTypeName(int) string {
	if r.name == "Count" {
		return "BIGINT"
	}
	return "BOOLEAN"
}

func (r *statusRows) ColumnTypeScanType(int) reflect.Type {
	if r.name == "Count" {
		return reflect.TypeOf(int64(0))
	}
	return reflect.TypeOf(false)
}

// queryStatus runs s, which returns no rows, for Query.
func queryStatus(ctx context.Context, c *Conn, s *sqlplan.Stmt, args []driver.NamedValue) (driver.Rows, error) {
	res, err := exec1(ctx, c, s, args)
	if err != nil {
		return nil, err
	}
	switch {
	case s.In(c.sess).ChangesRows():
		n, err := res.RowsAffected()
		if err != nil {
			return nil, err
		}
		return &statusRows{name: "Count", count: []int64{n}}, nil
	case s.In(c.sess).Creates():
		return &statusRows{name: "Count"}, nil
	}
	return &statusRows{name: "Success"}, nil
}
