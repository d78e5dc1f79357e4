package tpch

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "unsafe" // go:linkname, see fractionalScale

	"github.com/pingcap/go-tpc/tpch/dbgen"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"github.com/carquet-go/carquet/writer"
)

// The data comes from github.com/pingcap/go-tpc/tpch/dbgen, a Go port of
// the TPC-H dbgen 2.4.0: the same seeds, streams, distributions and text
// grammar, so a table at a given scale factor holds the rows the official
// dbgen prints. Its InitDbGen takes a whole scale factor only. For scale
// factors below 1 the official dbgen keeps scale = 1 and multiplies each
// table's base row count by int(1000*SF)/1000 (at least 1), before the
// first order and line item fix their customer and part key ranges; the
// port keeps that state unexported, so fractionalScale reaches it through
// go:linkname and does the same. The mirror type below must match
// go-tpc v1.0.7's tDef field for field; go.mod pins that version.

type tDefMirror struct {
	name    string
	comment string
	base    int64
	loader  dbgen.Loader
	genSeed func(dbgen.Table, int64)
	child   dbgen.Table
	vTotal  int64
}

//go:linkname dbgenTDefs github.com/pingcap/go-tpc/tpch/dbgen.tDefs
var dbgenTDefs []tDefMirror

//go:linkname dbgenOckeyMax github.com/pingcap/go-tpc/tpch/dbgen.ockeyMax
var dbgenOckeyMax int64

// LPkeyMax is exported but of an unexported type.
//
//go:linkname dbgenLPkeyMax github.com/pingcap/go-tpc/tpch/dbgen.LPkeyMax
var dbgenLPkeyMax int64

// genMu serializes generation: dbgen keeps its state in package variables.
var genMu sync.Mutex

// initScale prepares dbgen for scale factor sf: a whole number, or a
// fraction below 1 with at most three decimals (as the official dbgen).
func initScale(sf float64) error {
	switch {
	case sf >= 1 && sf == math.Trunc(sf):
		dbgen.InitDbGen(int64(sf))
		return nil
	case sf > 0 && sf < 1:
		milli := int64(math.Round(sf * 1000))
		if milli < 1 || math.Abs(float64(milli)/1000-sf) > 1e-12 {
			return fmt.Errorf("tpch: scale factor %v: below 1 it takes at most three decimals", sf)
		}
		dbgen.InitDbGen(1)
		fractionalScale(milli)
		return nil
	}
	return fmt.Errorf("tpch: scale factor %v: want a whole number or a fraction in (0, 1)", sf)
}

func fractionalScale(milli int64) {
	if len(dbgenTDefs) != int(dbgen.TRegion)+1 {
		panic(fmt.Sprintf("tpch: dbgen has %d table definitions, want %d (go-tpc version changed?)", len(dbgenTDefs), dbgen.TRegion+1))
	}
	for i := dbgen.TPart; i <= dbgen.TPartPsupp; i++ {
		d := &dbgenTDefs[i]
		d.base = max(1, milli*d.base/1000)
	}
	// What initOrder and initLineItem computed from the old bases (scale is 1).
	dbgenOckeyMax = dbgenTDefs[dbgen.TCust].base
	dbgenLPkeyMax = dbgenTDefs[dbgen.TPart].base
}

// batchRows is how many rows a table sink gathers before WriteBatch.
const batchRows = 1 << 16

// sink gathers one table's rows into vectors and writes them with
// carquet's writer.
type sink struct {
	t    table
	w    *writer.Writer
	vs   []*vector.Vector
	rows int
	err  error
	// dates caches the days since 1970-01-01 of dbgen's date strings.
	dates map[string]int32
}

func newSink(t table, path string) (*sink, error) {
	sch, err := t.parquetSchema()
	if err != nil {
		return nil, err
	}
	// Snappy, as DuckDB's COPY writes by default: the same codec for both writers.
	w, err := writer.Create(path, sch, writer.WithCompression(format.Snappy))
	if err != nil {
		return nil, err
	}
	s := &sink{t: t, w: w, dates: map[string]int32{}}
	s.reset()
	return s, nil
}

func (s *sink) reset() {
	s.vs = make([]*vector.Vector, len(s.t.cols))
	for i, c := range s.t.cols {
		switch c.kind {
		case kInt, kDate:
			s.vs[i] = &vector.Vector{Kind: vector.Int32, Int32s: make([]int32, 0, batchRows)}
		case kBigint, kMoney:
			s.vs[i] = &vector.Vector{Kind: vector.Int64, Int64s: make([]int64, 0, batchRows)}
		case kString:
			s.vs[i] = &vector.Vector{Kind: vector.ByteArray, Offsets: make([]int32, 1, batchRows+1)}
		}
	}
	s.rows = 0
}

// row appends one row: int64 for integer, money (cents) and quantity
// (already multiplied by 100) columns, string for text and dates.
func (s *sink) row(vals ...any) {
	if s.err != nil {
		return
	}
	for i, c := range s.t.cols {
		v := s.vs[i]
		switch c.kind {
		case kInt:
			v.Int32s = append(v.Int32s, int32(vals[i].(int64)))
		case kBigint, kMoney:
			v.Int64s = append(v.Int64s, vals[i].(int64))
		case kDate:
			d, err := s.date(vals[i].(string))
			if err != nil {
				s.err = err
				return
			}
			v.Int32s = append(v.Int32s, d)
		case kString:
			v.Data = append(v.Data, vals[i].(string)...)
			v.Offsets = append(v.Offsets, int32(len(v.Data)))
		}
	}
	s.rows++
	if s.rows == batchRows {
		s.flush()
	}
}

func (s *sink) date(text string) (int32, error) {
	if d, ok := s.dates[text]; ok {
		return d, nil
	}
	t, err := time.Parse(time.DateOnly, text)
	if err != nil {
		return 0, fmt.Errorf("tpch: %s: date %q: %w", s.t.name, text, err)
	}
	d := int32(t.Unix() / 86400)
	s.dates[text] = d
	return d, nil
}

func (s *sink) flush() {
	if s.err != nil || s.rows == 0 {
		return
	}
	for _, v := range s.vs {
		v.Len = s.rows
	}
	if err := s.w.WriteBatch(s.vs); err != nil {
		s.err = fmt.Errorf("tpch: writing %s: %w", s.t.name, err)
		return
	}
	s.reset()
}

func (s *sink) close() error {
	s.flush()
	if s.err != nil {
		s.w.Close()
		return s.err
	}
	if err := s.w.Close(); err != nil {
		return fmt.Errorf("tpch: closing %s: %w", s.t.name, err)
	}
	return nil
}

// loader adapts a sink to dbgen.Loader.
type loader struct {
	s    *sink
	load func(s *sink, item any)
}

func (l loader) Load(item any) error {
	l.load(l.s, item)
	return l.s.err
}

func (l loader) Flush() error { return nil }

func str(b byte) string { return string([]byte{b}) }

var loaders = map[string]func(s *sink, item any){
	"region": func(s *sink, item any) {
		r := item.(*dbgen.Region)
		s.row(int64(r.Code), r.Text, r.Comment)
	},
	"nation": func(s *sink, item any) {
		n := item.(*dbgen.Nation)
		s.row(int64(n.Code), n.Text, int64(n.Join), n.Comment)
	},
	"supplier": func(s *sink, item any) {
		x := item.(*dbgen.Supp)
		s.row(int64(x.SuppKey), x.Name, x.Address, int64(x.NationCode), x.Phone, int64(x.Acctbal), x.Comment)
	},
	"customer": func(s *sink, item any) {
		c := item.(*dbgen.Cust)
		s.row(int64(c.CustKey), c.Name, c.Address, int64(c.NationCode), c.Phone, int64(c.Acctbal), c.MktSegment, c.Comment)
	},
	"part": func(s *sink, item any) {
		p := item.(*dbgen.Part)
		s.row(int64(p.PartKey), p.Name, p.Mfgr, p.Brand, p.Type, int64(p.Size), p.Container, int64(p.RetailPrice), p.Comment)
	},
	"partsupp": func(s *sink, item any) {
		for _, ps := range item.(*dbgen.Part).S {
			s.row(int64(ps.PartKey), int64(ps.SuppKey), int64(ps.Qty), int64(ps.SCost), ps.Comment)
		}
	},
	"orders": func(s *sink, item any) {
		o := item.(*dbgen.Order)
		s.row(int64(o.OKey), int64(o.CustKey), str(o.Status), int64(o.TotalPrice), o.Date, o.OrderPriority, o.Clerk, o.ShipPriority, o.Comment)
	},
	"lineitem": func(s *sink, item any) {
		for _, l := range item.(*dbgen.Order).Lines {
			// dbgen's quantity is a whole number; DECIMAL(15,2) holds it in cents.
			s.row(int64(l.OKey), int64(l.PartKey), int64(l.SuppKey), int64(l.LCnt), int64(l.Quantity)*100,
				int64(l.EPrice), int64(l.Discount), int64(l.Tax), str(l.RFlag), str(l.LStatus),
				l.SDate, l.CDate, l.RDate, l.ShipInstruct, l.ShipMode, l.Comment)
		}
	},
}

var dbgenTable = map[string]dbgen.Table{
	"region": dbgen.TRegion, "nation": dbgen.TNation, "supplier": dbgen.TSupp, "customer": dbgen.TCust,
	"part": dbgen.TPart, "partsupp": dbgen.TPsupp, "orders": dbgen.TOrder, "lineitem": dbgen.TLine,
}

// WriteCarquet generates the eight tables at scale factor sf with dbgen
// and writes each as dir/NAME.parquet with carquet's writer (snappy).
func WriteCarquet(sf float64, dir string) error {
	genMu.Lock()
	defer genMu.Unlock()
	if err := initScale(sf); err != nil {
		return err
	}
	sinks := map[dbgen.Table]*sink{}
	ls := map[dbgen.Table]dbgen.Loader{}
	for _, t := range schemas {
		s, err := newSink(t, filepath.Join(dir, t.name+".parquet"))
		if err != nil {
			for _, s := range sinks {
				s.w.Close()
			}
			return err
		}
		sinks[dbgenTable[t.name]] = s
		ls[dbgenTable[t.name]] = loader{s, loaders[t.name]}
	}
	// dbgen prints a line per table on stdout; keep stdout for our output.
	stdout := os.Stdout
	if null, err := os.Open(os.DevNull); err == nil {
		os.Stdout = null
		defer func() { os.Stdout = stdout; null.Close() }()
	}
	// Orders with their line items and parts with their suppliers are
	// generated together, as dbgen does.
	genErr := dbgen.DbGen(ls, []dbgen.Table{dbgen.TNation, dbgen.TRegion, dbgen.TSupp, dbgen.TCust, dbgen.TPartPsupp, dbgen.TOrderLine})
	var errs []error
	if genErr != nil {
		errs = append(errs, genErr)
	}
	for _, s := range sinks {
		if err := s.close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// WriteDuckDB writes each table of srcDir (as WriteCarquet left it) again
// with DuckDB: COPY (SELECT each column CAST to its spec type FROM
// read_parquet(src)) TO dst (FORMAT PARQUET), DuckDB's default settings
// (snappy, its row group size).
func WriteDuckDB(srcDir, dstDir string) error {
	db, err := peers.OpenDuckDB(0)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, t := range schemas {
		src := filepath.Join(srcDir, t.name+".parquet")
		dst := filepath.Join(dstDir, t.name+".parquet")
		q := fmt.Sprintf("COPY (SELECT %s FROM read_parquet(%s)) TO %s (FORMAT PARQUET)", t.castList(), sqlString(src), sqlString(dst))
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			return fmt.Errorf("tpch: DuckDB writing %s: %w", dst, err)
		}
	}
	return nil
}

// Dataset is the cache folder of one scale factor: Dir/carquet and
// Dir/duckdb each hold the eight NAME.parquet files.
type Dataset struct {
	SF  float64
	Dir string
}

// Writers names the two writers whose files a Dataset holds.
var Writers = []string{"carquet", "duckdb"}

// Path is the folder of writer's files ("carquet" or "duckdb").
func (d Dataset) Path(writer string) string { return filepath.Join(d.Dir, writer) }

// SFName is the folder name of scale factor sf ("sf0.01", "sf1").
func SFName(sf float64) string { return "sf" + strconv.FormatFloat(sf, 'f', -1, 64) }

// CacheRoot is $CARQUET_TPCH_CACHE, else the user cache folder
// ($XDG_CACHE_HOME or ~/.cache) /carquet-tpch.
func CacheRoot() (string, error) {
	if d := os.Getenv("CARQUET_TPCH_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "carquet-tpch"), nil
}

// Prepare returns the dataset of scale factor sf under root, generating it
// when it is missing: into a temporary folder beside it that is renamed
// into place only when both writers have finished, so a folder under the
// final name is always complete. logf (may be nil) reports progress.
func Prepare(root string, sf float64, logf func(format string, args ...any)) (Dataset, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	d := Dataset{SF: sf, Dir: filepath.Join(root, SFName(sf))}
	if _, err := os.Stat(filepath.Join(d.Dir, "duckdb", "lineitem.parquet")); err == nil {
		return d, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return d, err
	}
	tmp, err := os.MkdirTemp(root, "."+SFName(sf)+".tmp-")
	if err != nil {
		return d, err
	}
	defer os.RemoveAll(tmp) // a no-op after the rename
	for _, w := range Writers {
		if err := os.Mkdir(filepath.Join(tmp, w), 0o755); err != nil {
			return d, err
		}
	}
	start := time.Now()
	if err := WriteCarquet(sf, filepath.Join(tmp, "carquet")); err != nil {
		return d, err
	}
	logf("tpch: SF %v generated and written by carquet in %v", sf, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if err := WriteDuckDB(filepath.Join(tmp, "carquet"), filepath.Join(tmp, "duckdb")); err != nil {
		return d, err
	}
	logf("tpch: SF %v written by DuckDB in %v", sf, time.Since(start).Round(time.Millisecond))
	if err := os.Rename(tmp, d.Dir); err != nil {
		// Another process may have finished the same scale factor first.
		if _, serr := os.Stat(filepath.Join(d.Dir, "duckdb", "lineitem.parquet")); serr == nil {
			return d, nil
		}
		return d, err
	}
	return d, nil
}

// Count returns the rows of every table of dir, counted by db.
func Count(db *sql.DB, tables []string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, t := range tables {
		var n int64
		if err := db.QueryRow("SELECT count(*) FROM " + t).Scan(&n); err != nil {
			return nil, fmt.Errorf("counting %s: %w", t, err)
		}
		out[t] = n
	}
	return out, nil
}
