package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	carquet "github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/objstore"
	// s3:// paths: the shell reads and writes tables in S3 and
	// S3-compatible stores.
	"github.com/carquet-go/carquet/internal/cli/lineedit"
	"github.com/carquet-go/carquet/internal/cli/output"
	_ "github.com/carquet-go/carquet/objstore/s3"
	"golang.org/x/term"
)

const shellAbout = `Open the carquet SQL driver on PATH (a folder: every Parquet file in it is a
table named by its base name, every sub-folder of Parquet files a table
read with hive partitions; or one file; default: the current folder) and
run SQL:

  - SQL arguments or -c: run them and exit;
  - SQL on stdin (not a terminal): run it as a script, without prompts or
    colours, and exit;
  - otherwise the interactive shell: line editing (arrows, Ctrl-A/E/K/U/W,
    Ctrl-R history search), multi-line statements ended by ";", history kept
    in $PQSQL_HISTORY, $XDG_STATE_HOME/pqsql/history or ~/.pqsql_history,
    Tab completion of keywords, tables and columns, Ctrl-C cancels the
    running query, Ctrl-D exits.

A failing statement prints "Error: ..." on stderr and makes the exit status 1
(-bail stops at the first). Output: a box table on a terminal, CSV when piped,
or the mode chosen by a flag or .mode. BEGIN, COMMIT and ROLLBACK run a
transaction (its INSERTs are written at COMMIT, all or none; one left open
at exit is rolled back).`

const dotHelp = `.tables [PATTERN]        list tables (LIKE pattern)
.schema [TABLE]          show tables' columns as CREATE TABLE statements
.mode [MODE]             output mode: box, table, markdown, line, csv, tsv, json, jsonl
.timer on|off            print the wall time and row count after each statement
.output [FILE]           send results to FILE (no FILE: back to stdout)
.read FILE               run the SQL script in FILE
.explain [on|off|SQL]    toggle printing the plan of each query and write first, or show SQL's plan
.maxrows N               rows the table modes show at most (0: all)
.nullvalue TEXT          text shown for NULL in the table modes
.bail on|off             stop a script at the first error
.echo on|off             print each statement before running it
.open PATH               open another folder or file
.help                    this text
.quit, .exit             leave (Ctrl-D too)`

func shellUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: pqsql [flags] [PATH] [SQL...]\n\n%s\n\nflags:\n", shellAbout)
	fs := newFlags(&env{stdout: w}, "pqsql", "", "", "")
	shellFlags(fs)
	fmt.Fprint(w, flagList(fs.FlagSet))
	fmt.Fprintf(w, "\ndot-commands (at the start of a line):\n%s\n", indent(dotHelp, "  "))
	fmt.Fprint(w, `
examples:
  pqsql data/
  pqsql data/ "SELECT category, count(*) FROM events GROUP BY 1"
  pqsql -c "SELECT count(*) FROM events WHERE ts >= '2024-01-01'" -json data/
  pqsql -bail data/ < script.sql > out.csv
`)
}

func indent(s, by string) string {
	return by + strings.ReplaceAll(s, "\n", "\n"+by)
}

// shellOptions are the shell's flags.
type shellOptions struct {
	cmds      stringList
	bail      bool
	readonly  bool
	threads   int
	echo      bool
	timer     bool
	noHistory bool
	maxRows   int
	of        *outFlags
}

func shellFlags(fs *cmdFlags) *shellOptions {
	o := &shellOptions{}
	fs.Var(&o.cmds, "c", "run `SQL` (statements or dot-commands) and exit; may be repeated")
	fs.BoolVar(&o.bail, "bail", false, "stop at the first failing statement")
	fs.BoolVar(&o.readonly, "readonly", false, "open the data read-only (mode=ro)")
	fs.IntVar(&o.threads, "threads", 0, "row groups decoded at once (default: the driver's)")
	fs.BoolVar(&o.echo, "echo", false, "print each statement before running it")
	fs.BoolVar(&o.timer, "timer", false, "print wall time and rows after each statement")
	fs.BoolVar(&o.noHistory, "no-history", false, "do not read or write the history file")
	fs.IntVar(&o.maxRows, "maxrows", 10000, "rows the table modes show at most (0: all)")
	o.of = fs.outputFlags()
	return o
}

// looksLikePath tells the PATH argument from SQL: an existing file or
// folder, a glob, or a word without spaces.
func looksLikePath(s string) bool {
	if objstore.IsURL(s) {
		return true
	}
	if _, err := os.Stat(s); err == nil {
		return true
	}
	if strings.ContainsAny(s, " \t\n") {
		switch firstWord(s) {
		case "SELECT", "WITH", "INSERT", "CREATE", "DROP", "DESCRIBE", "DESC", "EXPLAIN", "SHOW", "VALUES",
			"FROM", "BEGIN", "COMMIT", "ROLLBACK", "DELETE", "UPDATE", "SET", "PRAGMA", "TABLE":
			return false
		}
	}
	return strings.ContainsAny(s, "*?[") || !strings.ContainsAny(s, " \t\n;")
}

func runShell(e *env, args []string) error {
	fs := newFlags(e, "pqsql", "[flags] [PATH] [SQL...]", shellAbout, "")
	o := shellFlags(fs)
	fs.printHelpFn = shellUsage
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	path := "."
	if len(pos) > 0 && looksLikePath(pos[0]) {
		path, pos = pos[0], pos[1:]
	}
	return startShell(e, path, o, strings.Join(pos, " "), "")
}

// startShell opens PATH and runs the SQL given, stdin's script, or the
// interactive shell (with banner printed first).
func startShell(e *env, path string, o *shellOptions, sqlText, banner string) error {
	sh, err := openShell(e, path, o)
	if err != nil {
		return err
	}
	defer sh.close()
	err = sh.run(sqlText, banner)
	if errors.Is(err, errBail) {
		return errFailed // the error is already printed
	}
	return err
}

func (sh *shell) run(sqlText, banner string) error {
	e, o := sh.e, sh.o
	switch {
	case len(o.cmds) > 0 || sqlText != "":
		for _, c := range o.cmds {
			if err := sh.runText(c, "-c"); err != nil {
				return err
			}
		}
		if sqlText != "" {
			if err := sh.runText(sqlText, "argument"); err != nil {
				return err
			}
		}
	case !e.stdinTTY || !e.stdoutTTY:
		if err := sh.runLines(e.stdin, "stdin"); err != nil {
			return err
		}
	default:
		if banner != "" {
			fmt.Fprint(e.stdout, banner)
		}
		return sh.interactive()
	}
	if sh.failed {
		return errFailed
	}
	return nil
}

// shell runs SQL statements and dot-commands against one connection.
type shell struct {
	e    *env
	path string
	o    *shellOptions
	db   *sql.DB
	conn *sql.Conn
	// tx is the transaction BEGIN opened (COMMIT or ROLLBACK ends it);
	// statements run in it meanwhile.
	tx       *sql.Tx
	mode     output.Mode
	out      io.Writer
	outFile  *os.File
	outTTY   bool
	timer    bool
	explain  bool
	bail     bool
	echo     bool
	maxRows  int
	null     string
	failed   bool
	quit     bool
	ed       *lineedit.Editor
	cat      *catalog
	depth    int // .read nesting
	interact bool
	// cur cancels the running statement (Ctrl-C in the interactive shell).
	cur atomic.Pointer[context.CancelFunc]
}

// driverName is the database/sql driver the shell opens (tests wrap it).
var driverName = "carquet"

// errBail stops a script after a failure under -bail.
var errBail = errors.New("stopped at the first error (-bail)")

func dsn(path string, o *shellOptions) string {
	q := url.Values{}
	if o.readonly {
		q.Set("mode", "ro")
	}
	if o.threads > 0 {
		q.Set("threads", strconv.Itoa(o.threads))
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

func openShell(e *env, path string, o *shellOptions) (*shell, error) {
	opts, err := o.of.options(e)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil && !strings.ContainsAny(path, "*?[") && !objstore.IsURL(path) {
		return nil, err
	}
	sh := &shell{e: e, path: path, o: o, mode: opts.Mode, out: e.stdout, outTTY: e.stdoutTTY, timer: o.timer,
		bail: o.bail, echo: o.echo, maxRows: o.maxRows, null: "NULL"}
	if err := sh.open(path); err != nil {
		return nil, err
	}
	return sh, nil
}

func (sh *shell) open(path string) error {
	db, err := sql.Open(driverName, dsn(path, sh.o))
	if err != nil {
		return err
	}
	conn, err := db.Conn(sh.e.ctx)
	if err != nil {
		db.Close()
		return fmt.Errorf("opening %s: %w", path, err)
	}
	sh.endTx(false)
	if sh.conn != nil {
		sh.conn.Close()
		sh.db.Close()
	}
	sh.db, sh.conn, sh.path, sh.cat = db, conn, path, nil
	return nil
}

func (sh *shell) close() {
	sh.endTx(false)
	if sh.outFile != nil {
		sh.outFile.Close()
	}
	if sh.conn != nil {
		sh.conn.Close()
	}
	if sh.db != nil {
		sh.db.Close()
	}
}

func (sh *shell) errorf(format string, args ...any) {
	sh.failed = true
	fmt.Fprintf(sh.e.stderr, "Error: "+format+"\n", args...)
}

// runText runs a script given as text (from -c or arguments).
func (sh *shell) runText(text, source string) error {
	return sh.runLines(strings.NewReader(text), source)
}

// runLines runs a script: statements ended by semicolons (the last one
// may lack it) and dot-commands at the start of lines.
func (sh *shell) runLines(r io.Reader, source string) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var sp splitter
	for {
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			if err != io.EOF {
				return err
			}
			break
		}
		line = strings.TrimRight(line, "\r\n")
		if !sp.pending() && strings.HasPrefix(line, ".") {
			sp.line++
			if err := sh.dot(line); err != nil {
				if errors.Is(err, errBail) || errors.Is(err, errFailed) {
					return err // a .read script stopped, its error already shown
				}
				sh.errorf("%s:%d: %v", source, sp.line, err)
				if sh.bail {
					return errBail
				}
			}
			if sh.quit {
				return nil
			}
			continue
		}
		for _, st := range sp.feed(line) {
			if err := sh.statement(st, fmt.Sprintf("%s:%d", source, sp.line)); err != nil {
				return err
			}
		}
		if sh.e.ctx.Err() != nil {
			return sh.e.ctx.Err()
		}
	}
	if st := sp.rest(); st != "" {
		return sh.statement(st, fmt.Sprintf("%s:%d", source, sp.line))
	}
	return nil
}

// statement runs one statement and reports its error; it returns an error
// only when the script must stop.
func (sh *shell) statement(st, where string) error {
	if sh.echo {
		fmt.Fprintln(sh.out, st+";")
	}
	err := sh.exec(st)
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) && !sh.interact {
		sh.errorf("%s: interrupted", where)
		return errFailed
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(sh.e.stderr, "Interrupted")
		return nil
	}
	if sh.interact {
		sh.errorf("%v", err)
	} else {
		sh.errorf("%s: %v", where, err)
	}
	if sh.bail {
		return errBail
	}
	return nil
}

// firstWord is a statement's first keyword, upper-cased.
func firstWord(st string) string {
	st = strings.TrimLeft(st, " \t\n(")
	end := strings.IndexFunc(st, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
	if end < 0 {
		end = len(st)
	}
	return strings.ToUpper(st[:end])
}

// returnsRows reports whether st is run with Query (the rest with Exec):
// the driver says so for the statement as prepared (a write with
// RETURNING and EXECUTE of a query return rows too); the first word
// decides only when the statement does not prepare, where either call
// reports the same error.
func (sh *shell) returnsRows(ctx context.Context, st string) bool {
	var rows bool
	err := sh.conn.Raw(func(dc any) error {
		c, ok := dc.(*carquet.Conn)
		if !ok {
			return errors.New("not a carquet connection")
		}
		var err error
		rows, err = c.ReturnsRows(ctx, st)
		return err
	})
	if err != nil {
		return returnsRowsByWord(st)
	}
	return rows
}

// returnsRowsByWord guesses from the first word whether st returns rows.
func returnsRowsByWord(st string) bool {
	switch firstWord(st) {
	case "SELECT", "WITH", "EXPLAIN", "DESCRIBE", "DESC", "SHOW", "VALUES", "FROM", "TABLE", "PRAGMA", "SUMMARIZE", "PIVOT", "UNPIVOT":
		return true
	}
	return strings.HasPrefix(strings.TrimSpace(st), "(")
}

// statementContext is the context of one statement: cancelled by Ctrl-C
// (in the interactive shell; scripts stop on the first interrupt).
func (sh *shell) statementContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(sh.e.ctx)
	prev := sh.cur.Swap(&cancel)
	return ctx, func() {
		sh.cur.Store(prev)
		cancel()
	}
}

// sqlRunner is what statements run on: the connection, or the open
// transaction.
type sqlRunner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (sh *shell) runner() sqlRunner {
	if sh.tx != nil {
		return sh.tx
	}
	return sh.conn
}

// txStatement runs BEGIN [TRANSACTION], COMMIT / END and ROLLBACK / ABORT
// through the driver's transactions (INSERTs in one are written at
// COMMIT, all or none); ok is false for other statements.
func (sh *shell) txStatement(st string) (ok bool, err error) {
	words := strings.Fields(strings.ToUpper(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(st), ";"))))
	if len(words) == 0 || len(words) > 2 || len(words) == 2 && words[1] != "TRANSACTION" && words[1] != "WORK" {
		return false, nil
	}
	switch words[0] {
	case "BEGIN", "START":
		if words[0] == "START" && len(words) != 2 {
			return false, nil
		}
		if sh.tx != nil {
			return true, errors.New("a transaction is already open (COMMIT or ROLLBACK it first)")
		}
		// The shell's context, not the statement's: the transaction
		// outlives this statement.
		sh.tx, err = sh.conn.BeginTx(sh.e.ctx, nil)
		return true, err
	case "COMMIT", "END", "ROLLBACK", "ABORT":
		if sh.tx == nil {
			return true, errors.New("no transaction is open")
		}
		return true, sh.endTx(words[0] == "COMMIT" || words[0] == "END")
	}
	return false, nil
}

// endTx commits or rolls back the open transaction, if any.
func (sh *shell) endTx(commit bool) error {
	if sh.tx == nil {
		return nil
	}
	tx := sh.tx
	sh.tx, sh.cat = nil, nil
	if commit {
		return tx.Commit()
	}
	return tx.Rollback()
}

func (sh *shell) exec(st string) error {
	if ok, err := sh.txStatement(st); ok {
		return err
	}
	ctx, cancel := sh.statementContext()
	defer cancel()
	start := time.Now()
	if sh.explain && hasPlan(st) {
		if err := sh.printPlan(ctx, st); err != nil {
			return err
		}
	}
	if !sh.returnsRows(ctx, st) {
		res, err := sh.runner().ExecContext(ctx, st)
		if err != nil {
			return err
		}
		sh.cat = nil // the schema may have changed
		n, _ := res.RowsAffected()
		if sh.timer {
			fmt.Fprintf(sh.e.stderr, "Run Time: %.3fs, %d rows affected\n", time.Since(start).Seconds(), n)
		} else if sh.interact && n > 0 {
			fmt.Fprintf(sh.e.stderr, "%d rows affected\n", n)
		}
		return nil
	}
	rows, err := sh.runner().QueryContext(ctx, st)
	if err != nil {
		return err
	}
	n, err := sh.printRows(rows)
	if err != nil {
		return err
	}
	if sh.timer {
		fmt.Fprintf(sh.e.stderr, "Run Time: %.3fs, %d rows\n", time.Since(start).Seconds(), n)
	}
	return nil
}

func (sh *shell) writer() output.Writer {
	width := 0
	if sh.outTTY {
		width = sh.e.width
		if f, ok := sh.e.stdout.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil {
				width = w
			}
		}
	}
	return output.New(sh.out, output.Options{Mode: sh.mode, Width: width, MaxRows: sh.maxRows, Null: sh.null, NoHeader: sh.o.of.noHeader})
}

// printRows writes a result set in the current mode and returns the
// number of rows.
func (sh *shell) printRows(rows *sql.Rows) (int64, error) {
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return 0, err
	}
	cols := make([]output.Column, len(types))
	for i, t := range types {
		cols[i] = output.Column{Name: t.Name(), Type: t.DatabaseTypeName()}
	}
	w := sh.writer()
	if err := w.Begin(cols); err != nil {
		return 0, err
	}
	bar := sh.e.progressBar("query", 0, "rows")
	defer bar.Done()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	var n int64
	for rows.Next() {
		for i := range vals {
			vals[i] = nil
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			w.End()
			return n, err
		}
		if err := w.Row(vals); err != nil {
			return n, err
		}
		n++
		if n&1023 == 0 {
			bar.Set(n)
		}
	}
	bar.Done()
	if err := rows.Err(); err != nil {
		w.End()
		return n, err
	}
	return n, w.End()
}

// printPlan prints EXPLAIN's plan of a query, one line per plan line.
// hasPlan reports whether EXPLAIN shows a plan of st: queries and the
// writes (INSERT, UPDATE, DELETE, MERGE, whose EXPLAIN writes nothing), not
// DDL, SET or PRAGMA.
func hasPlan(st string) bool {
	switch firstWord(st) {
	case "SELECT", "WITH", "FROM", "VALUES", "TABLE", "INSERT", "UPDATE", "DELETE", "MERGE":
		return true
	}
	return false
}

func (sh *shell) printPlan(ctx context.Context, st string) error {
	rows, err := sh.runner().QueryContext(ctx, "EXPLAIN "+st)
	if err != nil {
		return fmt.Errorf("EXPLAIN: %w", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = output.Text(v, "", false)
		}
		fmt.Fprintln(sh.out, strings.Join(parts, " "))
	}
	return rows.Err()
}

// dot runs a dot-command.
func (sh *shell) dot(line string) error {
	fields := strings.Fields(line)
	cmd := fields[0]
	arg := strings.TrimSpace(strings.TrimPrefix(line, cmd))
	onOff := func(v *bool) error {
		switch strings.ToLower(arg) {
		case "on", "yes", "1", "true":
			*v = true
		case "off", "no", "0", "false":
			*v = false
		case "":
			*v = !*v
		default:
			return fmt.Errorf("%s: want on or off, got %q", cmd, arg)
		}
		return nil
	}
	switch cmd {
	case ".quit", ".exit", ".q":
		sh.quit = true
	case ".help", ".h":
		fmt.Fprintln(sh.out, dotHelp)
	case ".mode":
		if arg == "" {
			fmt.Fprintln(sh.out, "current output mode:", sh.mode)
			return nil
		}
		m, err := output.ParseMode(arg)
		if err != nil {
			return err
		}
		sh.mode = m
	case ".timer":
		return onOff(&sh.timer)
	case ".bail":
		return onOff(&sh.bail)
	case ".echo":
		return onOff(&sh.echo)
	case ".explain":
		switch strings.ToLower(arg) {
		case "", "on", "off":
			if err := onOff(&sh.explain); err != nil {
				return err
			}
			if sh.interact {
				fmt.Fprintf(sh.e.stderr, "plans %s\n", map[bool]string{true: "on", false: "off"}[sh.explain])
			}
			return nil
		}
		ctx, cancel := sh.statementContext()
		defer cancel()
		return sh.printPlan(ctx, strings.TrimSuffix(strings.TrimSpace(arg), ";"))
	case ".output", ".o":
		if sh.outFile != nil {
			sh.outFile.Close()
			sh.outFile = nil
		}
		sh.out, sh.outTTY = sh.e.stdout, sh.e.stdoutTTY
		if arg == "" || arg == "stdout" {
			return nil
		}
		f, err := os.Create(arg)
		if err != nil {
			return err
		}
		sh.outFile, sh.out, sh.outTTY = f, f, false
	case ".read", ".r":
		if arg == "" {
			return errors.New(".read: want a FILE")
		}
		if sh.depth > 16 {
			return errors.New(".read: too deeply nested")
		}
		f, err := os.Open(arg)
		if err != nil {
			return err
		}
		defer f.Close()
		sh.depth++
		defer func() { sh.depth-- }()
		wasInteractive := sh.interact
		sh.interact = false
		err = sh.runLines(f, filepath.Base(arg))
		sh.interact = wasInteractive
		return err
	case ".maxrows":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 {
			return fmt.Errorf(".maxrows: want a number, got %q", arg)
		}
		sh.maxRows = n
	case ".nullvalue":
		sh.null = arg
		if sh.null == "" {
			sh.null = "NULL"
		}
	case ".open":
		if arg == "" {
			return errors.New(".open: want a PATH")
		}
		if _, err := os.Stat(arg); err != nil && !strings.ContainsAny(arg, "*?[") {
			return err
		}
		return sh.open(arg)
	case ".tables":
		q := "SHOW TABLES"
		if arg != "" {
			q += " LIKE '" + strings.ReplaceAll(arg, "'", "''") + "'"
		}
		names, err := sh.queryStrings(q)
		if err != nil {
			return err
		}
		for _, n := range names {
			fmt.Fprintln(sh.out, n)
		}
	case ".schema":
		tables := []string{arg}
		if arg == "" {
			var err error
			if tables, err = sh.queryStrings("SHOW TABLES"); err != nil {
				return err
			}
		}
		for _, t := range tables {
			cols, err := sh.describe(t)
			if err != nil {
				return err
			}
			fmt.Fprintf(sh.out, "CREATE TABLE %s (\n", quoteIdent(t))
			for i, c := range cols {
				sep := ","
				if i == len(cols)-1 {
					sep = ""
				}
				notNull := ""
				if !c.nullable {
					notNull = " NOT NULL"
				}
				fmt.Fprintf(sh.out, "  %s %s%s%s\n", quoteIdent(c.name), c.typ, notNull, sep)
			}
			fmt.Fprintln(sh.out, ");")
		}
	default:
		return fmt.Errorf("unknown command %s (.help lists them)", cmd)
	}
	return nil
}

// reserved are words the SQL parser takes as keywords, which must be
// back-quoted as names.
var reserved = map[string]bool{}

func init() {
	for _, k := range sqlKeywords {
		if !strings.HasSuffix(k, "(") {
			reserved[k] = true
		}
	}
	for _, k := range strings.Fields("KEY INDEX ORDER GROUP TABLE VALUES DEFAULT DESC INTERVAL MATCH NEXT TO SCHEMA DATABASE LIMIT SEPARATOR CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP STATUS TYPE VALUE") {
		reserved[k] = true
	}
}

// quoteIdent back-quotes names that are not plain identifiers.
func quoteIdent(s string) string {
	if isIdent(s) && !reserved[strings.ToUpper(s)] {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// queryStrings runs a query and returns its first column as text.
func (sh *shell) queryStrings(q string) ([]string, error) {
	ctx, cancel := sh.statementContext()
	defer cancel()
	rows, err := sh.runner().QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := 0
	if cols, err := rows.Columns(); err == nil {
		n = len(cols)
	}
	var out []string
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, output.Text(vals[0], "", false))
	}
	return out, rows.Err()
}

type columnInfo struct {
	name, typ string
	nullable  bool
}

// describe lists a table's columns through DESCRIBE.
func (sh *shell) describe(table string) ([]columnInfo, error) {
	ctx, cancel := sh.statementContext()
	defer cancel()
	rows, err := sh.runner().QueryContext(ctx, "DESCRIBE "+quoteIdent(table))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out []columnInfo
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		c := columnInfo{name: output.Text(vals[0], "", false), nullable: true}
		if len(vals) > 1 {
			c.typ = output.Text(vals[1], "", false)
		}
		if len(vals) > 2 {
			c.nullable = !strings.EqualFold(output.Text(vals[2], "", false), "NO")
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// historyPath is where the interactive history lives.
func historyPath() string {
	if p := os.Getenv("PQSQL_HISTORY"); p != "" {
		return p
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "pqsql", "history")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".pqsql_history")
	}
	return ""
}

// interactive runs the shell on a terminal.
func (sh *shell) interactive() error {
	in, ok := sh.e.stdin.(*os.File)
	if !ok {
		return errors.New("the interactive shell needs a terminal")
	}
	fd := int(in.Fd())
	sh.interact = true
	// Ctrl-C cancels the running statement and nothing else (at the
	// prompt the terminal is raw: the editor reads it as a key).
	onInt := func() {
		if c := sh.cur.Load(); c != nil {
			(*c)()
		}
	}
	sh.e.onInterrupt.Store(&onInt)
	defer sh.e.onInterrupt.Store(nil)
	sh.ed = lineedit.New(in, sh.e.stdout)
	sh.ed.Width = func() int {
		if f, ok := sh.e.stdout.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil {
				sh.e.width = w
				return w
			}
		}
		return sh.e.width
	}
	hist := lineedit.NewHistory()
	if p := historyPath(); p != "" && !sh.o.noHistory {
		h, err := lineedit.LoadHistory(p, 1000)
		if err != nil {
			fmt.Fprintf(sh.e.stderr, "pqsql: history: %v\n", err)
		}
		hist = h
	}
	sh.ed.History = hist
	sh.ed.Complete = sh.complete
	var sp splitter
	var text strings.Builder
	for !sh.quit {
		prompt := "pqsql> "
		if sp.pending() {
			prompt = "   ...> "
		}
		state, err := term.MakeRaw(fd)
		if err != nil {
			return fmt.Errorf("terminal: %w", err)
		}
		line, err := sh.ed.ReadLine(prompt)
		term.Restore(fd, state)
		switch {
		case errors.Is(err, lineedit.ErrInterrupt):
			sp.rest()
			text.Reset()
			continue
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
		if !sp.pending() && strings.HasPrefix(line, ".") {
			hist.Add(line)
			if err := sh.dot(line); err != nil && !errors.Is(err, errFailed) && !errors.Is(err, errBail) {
				sh.errorf("%v", err)
			}
			continue
		}
		stmts := sp.feed(line)
		text.WriteString(line)
		text.WriteByte('\n')
		if !sp.pending() {
			if err := hist.Add(text.String()); err != nil {
				fmt.Fprintf(sh.e.stderr, "pqsql: history: %v\n", err)
			}
			text.Reset()
		}
		for _, st := range stmts {
			sh.statement(st, "")
		}
	}
	return nil
}
