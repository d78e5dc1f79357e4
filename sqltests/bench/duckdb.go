package bench

import (
	"database/sql"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/carquet-go/carquet/sqltests/internal/peers"
)

// duckdbLib runs DuckDB at one thread. Its in-memory columns are a table
// loaded (outside the timings) from an uncompressed carquet file.
type duckdbLib struct {
	db *sql.DB
}

// NewDuckDB opens DuckDB with SET threads=1 and loads the events from src.
func NewDuckDB(src string) (Lib, error) {
	db, err := peers.OpenDuckDB(1)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec("CREATE TABLE events AS SELECT * FROM read_parquet(?)", src); err != nil {
		db.Close()
		return nil, err
	}
	return &duckdbLib{db: db}, nil
}

func (d *duckdbLib) Name() string { return "duckdb" }
func (d *duckdbLib) Close() error { return d.db.Close() }

func quote(path string) string { return "'" + strings.ReplaceAll(path, "'", "''") + "'" }

// Write is COPY events TO path (FORMAT parquet, COMPRESSION c, ROW_GROUP_SIZE).
func (d *duckdbLib) Write(codec, path string) error {
	c := map[string]string{"none": "uncompressed"}[codec]
	if c == "" {
		c = codec
	}
	level := ""
	if codec == "zstd" {
		level = ", COMPRESSION_LEVEL 3"
	}
	_, err := d.db.Exec(fmt.Sprintf("COPY events TO %s (FORMAT parquet, COMPRESSION '%s'%s, ROW_GROUP_SIZE %d)", quote(path), c, level, RowGroupRows))
	return err
}

// DuckDBReadQuery computes the full read's Result: the same figures, with
// the same meaning, as every other contender's full read (row count, sums
// of ts in microseconds, user_id and amount, the byte length of category
// (strlen counts bytes, not characters), and the count of true flags).
// The sums of integers are HUGEINT in DuckDB; ts's is reduced modulo 2^64
// in Go to compare with the others' wrapping int64 sum.
const DuckDBReadQuery = "SELECT count(*), sum(epoch_us(ts)), sum(user_id), sum(strlen(category)), sum(amount), count_if(flag) FROM read_parquet(?)"

// Read runs DuckDBReadQuery.
func (d *duckdbLib) Read(path string) (Result, error) {
	var res Result
	var ts, users, cat *big.Int
	if err := d.db.QueryRow(DuckDBReadQuery, path).Scan(&res.Rows, &ts, &users, &cat, &res.AmountSum, &res.Flags); err != nil {
		return res, err
	}
	mask := new(big.Int).SetUint64(^uint64(0))
	res.TSSum = int64(new(big.Int).And(ts, mask).Uint64())
	res.UserSum, res.CatBytes = users.Int64(), cat.Int64()
	return res, nil
}

// Column is SELECT count(amount), sum(amount) FROM read_parquet(path).
func (d *duckdbLib) Column(path string) (Result, error) {
	var res Result
	err := d.db.QueryRow("SELECT count(amount), sum(amount) FROM read_parquet(?)", path).Scan(&res.Rows, &res.AmountSum)
	return res, err
}

// Count is SELECT count(*) FROM read_parquet(path) WHERE ts >= cutoff.
func (d *duckdbLib) Count(path string, cutoff int64) (int64, error) {
	var n int64
	err := d.db.QueryRow("SELECT count(*) FROM read_parquet(?) WHERE ts >= ?", path, time.UnixMicro(cutoff).UTC()).Scan(&n)
	return n, err
}

// DuckDBVersion is the version of the DuckDB library behind a duckdb Lib.
func DuckDBVersion(l Lib) string {
	if d, ok := l.(*duckdbLib); ok {
		return peers.DuckDBVersion(d.db)
	}
	return "unknown"
}
