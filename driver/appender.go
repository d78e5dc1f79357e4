package driver

import (
	"fmt"

	"github.com/carquet-go/carquet/sqlplan"
)

// Appender loads rows into a table in bulk (see sqlplan.Appender): rows
// go straight to the table's Parquet writer, full row groups at a time,
// and Close commits them all atomically. It is reached from database/sql
// through Conn.Raw:
//
//	conn, err := db.Conn(ctx)
//	...
//	err = conn.Raw(func(dc any) error {
//		app, err := driver.NewAppender(dc, "events")
//		if err != nil {
//			return err
//		}
//		for _, e := range events {
//			if err := app.AppendRow(e.ID, e.Name, e.At); err != nil {
//				app.Abort()
//				return err
//			}
//		}
//		return app.Close()
//	})
type Appender = sqlplan.Appender

// NewAppender opens an Appender of table on the connection dc, the value
// database/sql's Conn.Raw passes (a *Conn of this driver).
func NewAppender(dc any, table string) (*Appender, error) {
	c, ok := dc.(*Conn)
	if !ok {
		return nil, fmt.Errorf("carquet: NewAppender needs a carquet connection (from sql.Conn.Raw), not %T", dc)
	}
	if c.closed {
		return nil, fmt.Errorf("carquet: the connection is closed")
	}
	if c.readOnly {
		return nil, fmt.Errorf("carquet: cannot append to %q: the connection is read-only", table)
	}
	return c.engine.NewAppender(table)
}

// ErrAppenderClosed is returned by an Appender's methods after Close or
// Abort.
var ErrAppenderClosed = sqlplan.ErrAppenderClosed
