package driver

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan"
)

// Conn is a connection: a view of the shared engine with its own
// transaction.
type Conn struct {
	engine   *sqlplan.Engine
	readOnly bool
	tx       *sqlplan.Tx
	// sess holds the connection's own settings (SET SESSION, and a plain
	// SET of a setting DuckDB keeps per connection).
	sess   *sqlplan.Session
	closed bool
}

var (
	_ driver.Conn               = (*Conn)(nil)
	_ driver.ConnBeginTx        = (*Conn)(nil)
	_ driver.ConnPrepareContext = (*Conn)(nil)
	_ driver.QueryerContext     = (*Conn)(nil)
	_ driver.ExecerContext      = (*Conn)(nil)
	_ driver.NamedValueChecker  = (*Conn)(nil)
	_ driver.SessionResetter    = (*Conn)(nil)
	_ driver.Validator          = (*Conn)(nil)
	_ driver.Pinger             = (*Conn)(nil)
)

// ErrClosed is returned on a closed connection.
var ErrClosed = errors.New("carquet: connection closed")

func (c *Conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *Conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	s, err := c.engine.PrepareTx(ctx, query, c.tx)
	if err != nil {
		return nil, err
	}
	return &Stmt{conn: c, s: s}, nil
}

func (c *Conn) Close() error {
	if c.tx != nil {
		c.tx.Rollback()
		c.tx = nil
	}
	if !c.closed && c.sess != nil {
		c.sess.Close()
	}
	c.closed = true
	return nil
}

func (c *Conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx starts a transaction: its INSERTs are buffered and written at
// Commit, each table's rows in one atomic append.
func (c *Conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	if c.tx != nil {
		return nil, errors.New("carquet: a transaction is already open on this connection")
	}
	if opts.Isolation != driver.IsolationLevel(0) && opts.Isolation != driver.IsolationLevel(6) && opts.Isolation != driver.IsolationLevel(5) {
		return nil, errors.New("carquet: only the default, snapshot and serializable isolation levels are supported")
	}
	c.tx = c.engine.Begin(opts.ReadOnly)
	return &Tx{c: c}, nil
}

// Tx is a transaction.
type Tx struct{ c *Conn }

func (t *Tx) Commit() error {
	tx := t.c.tx
	t.c.tx = nil
	if tx == nil {
		return errors.New("carquet: the transaction is already finished")
	}
	return tx.Commit()
}

func (t *Tx) Rollback() error {
	tx := t.c.tx
	t.c.tx = nil
	if tx == nil {
		return errors.New("carquet: the transaction is already finished")
	}
	return tx.Rollback()
}

func (c *Conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	if last, err := c.runAllButLast(ctx, query, args); err != nil || last != "" {
		if err != nil {
			return nil, err
		}
		return c.QueryContext(ctx, last, nil)
	}
	if verb := sqlplan.TxControl(query); verb != "" && len(args) == 0 {
		if err := c.txControl(ctx, verb); err != nil {
			return nil, err
		}
		return &statusRows{name: "Success"}, nil
	}
	s, err := c.engine.PrepareTx(ctx, query, c.tx)
	if err != nil {
		return nil, err
	}
	return query1(ctx, c, s, args)
}

// runAllButLast runs, for a Query of several statements separated by
// semicolons (without arguments), every statement but the last, in
// order, as DuckDB does, and returns the last, whose rows the Query
// returns; "" for a Query of one statement.
func (c *Conn) runAllButLast(ctx context.Context, query string, args []driver.NamedValue) (string, error) {
	if strings.IndexByte(query, ';') < 0 {
		return "", nil
	}
	parts, err := sqlplan.Split(query)
	if err != nil || len(parts) < 2 {
		return "", err
	}
	if len(args) > 0 {
		return "", errors.New("carquet: arguments given with several statements")
	}
	for _, p := range parts[:len(parts)-1] {
		if _, err := c.ExecContext(ctx, p, nil); err != nil {
			return "", err
		}
	}
	return parts[len(parts)-1], nil
}

// ReturnsRows reports whether query (one statement) returns rows of its
// own: a SELECT, EXPLAIN, DESCRIBE, a write with RETURNING, or EXECUTE of
// a prepared statement that does. Tools that print results, such as the
// pqsql shell, reach it through (*sql.Conn).Raw to choose between Query
// and Exec without guessing from the statement's first word.
func (c *Conn) ReturnsRows(ctx context.Context, query string) (bool, error) {
	if c.closed {
		return false, driver.ErrBadConn
	}
	if sqlplan.TxControl(query) != "" {
		return false, nil
	}
	s, err := c.engine.PrepareTx(ctx, query, c.tx)
	if err != nil {
		return false, err
	}
	return s.In(c.sess).Returns(), nil
}

func query1(ctx context.Context, c *Conn, s *sqlplan.Stmt, args []driver.NamedValue) (_ driver.Rows, err error) {
	defer recoverInternal(&err)
	if !s.In(c.sess).Returns() {
		return queryStatus(ctx, c, s, args)
	}
	r, err := s.QuerySession(ctx, convertArgs(args), c.tx, c.sess)
	if err != nil {
		return nil, err
	}
	return newRows(r), nil
}

// ExecContext runs one statement, or several separated by semicolons
// (then without arguments).
func (c *Conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	var parts []string
	if strings.IndexByte(query, ';') >= 0 {
		var err error
		if parts, err = sqlplan.Split(query); err != nil {
			return nil, err
		}
	}
	if len(parts) > 1 {
		if len(args) > 0 {
			return nil, errors.New("carquet: arguments given with several statements")
		}
		var total int64
		for _, p := range parts {
			r, err := c.ExecContext(ctx, p, nil)
			if err != nil {
				return nil, err
			}
			n, _ := r.RowsAffected()
			total += n
		}
		return result(total), nil
	}
	if verb := sqlplan.TxControl(query); verb != "" && len(args) == 0 {
		return result(0), c.txControl(ctx, verb)
	}
	s, err := c.engine.PrepareTx(ctx, query, c.tx)
	if err != nil {
		return nil, err
	}
	return exec1(ctx, c, s, args)
}

// txControl runs BEGIN, COMMIT or ROLLBACK given as SQL on the
// connection's transaction, the one BeginTx starts.
func (c *Conn) txControl(ctx context.Context, verb string) error {
	if verb == "begin" {
		_, err := c.BeginTx(ctx, driver.TxOptions{})
		return err
	}
	if c.tx == nil {
		return errors.New("carquet: " + strings.ToUpper(verb) + ": no transaction is open")
	}
	t := &Tx{c: c}
	if verb == "commit" {
		return t.Commit()
	}
	return t.Rollback()
}

func exec1(ctx context.Context, c *Conn, s *sqlplan.Stmt, args []driver.NamedValue) (_ driver.Result, err error) {
	defer recoverInternal(&err)
	if s.In(c.sess).Returns() {
		// A query run through Exec: run it to the end and count its rows.
		r, err := s.QuerySession(ctx, convertArgs(args), c.tx, c.sess)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		var n int64
		for {
			b, err := r.Next()
			if err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, err
			}
			n += int64(b.N)
		}
		return result(n), nil
	}
	res, err := s.ExecSession(ctx, convertArgs(args), c.tx, c.sess)
	if err != nil {
		return nil, err
	}
	return result(res.RowsAffected), nil
}

type result int64

func (r result) LastInsertId() (int64, error) {
	return 0, errors.New("carquet: LastInsertId is not supported")
}
func (r result) RowsAffected() (int64, error) { return int64(r), nil }

func (c *Conn) ResetSession(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return nil
}

func (c *Conn) IsValid() bool { return !c.closed }

func (c *Conn) Ping(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return ctx.Err()
}

// CheckNamedValue accepts the argument types the engine understands
// natively (all Go integer and float types, uint64 above MaxInt64, our
// Decimal, *big.Int) and leaves the rest to database/sql's default
// conversion (driver.Valuer, sql.Null*).
func (c *Conn) CheckNamedValue(nv *driver.NamedValue) error {
	switch v := nv.Value.(type) {
	case nil, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, bool, string, []byte, time.Time:
		return nil
	case Decimal:
		nv.Value = value.Decimal{Unscaled: v.unscaled(), Scale: v.Scale}
		return nil
	case *big.Int:
		if v == nil {
			nv.Value = nil
			return nil
		}
		nv.Value = value.Decimal{Unscaled: new(big.Int).Set(v)}
		return nil
	}
	return driver.ErrSkip
}

func convertArgs(args []driver.NamedValue) []sqlplan.Arg {
	out := make([]sqlplan.Arg, len(args))
	for i, a := range args {
		out[i] = sqlplan.Arg{Name: a.Name, Ordinal: a.Ordinal, Value: a.Value}
	}
	return out
}

// Stmt is a prepared statement.
type Stmt struct {
	conn *Conn
	s    *sqlplan.Stmt
}

var (
	_ driver.StmtExecContext   = (*Stmt)(nil)
	_ driver.StmtQueryContext  = (*Stmt)(nil)
	_ driver.NamedValueChecker = (*Stmt)(nil)
)

func (s *Stmt) Close() error  { return nil }
func (s *Stmt) NumInput() int { return -1 }

func (s *Stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *Stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func (s *Stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return exec1(ctx, s.conn, s.s, args)
}

func (s *Stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return query1(ctx, s.conn, s.s, args)
}

func (s *Stmt) CheckNamedValue(nv *driver.NamedValue) error { return s.conn.CheckNamedValue(nv) }

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}
