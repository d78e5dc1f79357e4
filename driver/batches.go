package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/carquet-go/carquet/sqlplan"
)

// QueryBatches runs a query on the connection dc, the value database/sql's
// Conn.Raw passes (a *Conn of this driver), and returns the engine's own
// result: batches of typed column slices (sqlplan.Batch) instead of rows
// of Go values. Columnar consumers (the Arrow bridge in the module
// github.com/carquet-go/carquet/arrow) read it without converting each
// value. The batches' slices belong to the engine: read them, do not
// change them; the caller closes the Rows. Arguments are those QueryContext
// takes, positional.
func QueryBatches(ctx context.Context, dc any, query string, args ...any) (_ *sqlplan.Rows, err error) {
	defer recoverInternal(&err)
	c, ok := dc.(*Conn)
	if !ok {
		return nil, fmt.Errorf("carquet: QueryBatches needs a carquet connection (from sql.Conn.Raw), not %T", dc)
	}
	if c.closed {
		return nil, ErrClosed
	}
	nvs := make([]driver.NamedValue, len(args))
	for i, a := range args {
		nv := driver.NamedValue{Ordinal: i + 1, Value: a}
		if na, ok := a.(sql.NamedArg); ok {
			nv.Name, nv.Value = na.Name, na.Value
		}
		if err := c.CheckNamedValue(&nv); err != nil {
			if !errors.Is(err, driver.ErrSkip) {
				return nil, err
			}
			v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
			if err != nil {
				return nil, fmt.Errorf("carquet: argument %d: %w", i+1, err)
			}
			nv.Value = v
		}
		nvs[i] = nv
	}
	s, err := c.engine.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if !s.In(c.sess).Returns() {
		return nil, errors.New("carquet: the statement returns no rows (use Exec)")
	}
	return s.QuerySession(ctx, convertArgs(nvs), c.tx, c.sess)
}
