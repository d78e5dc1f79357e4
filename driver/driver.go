package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/sqlplan"
)

func init() {
	sql.Register("carquet", &Driver{})
}

// Driver is the database/sql driver registered as "carquet".
type Driver struct{}

// Open opens a connection (database/sql calls OpenConnector first, so this
// is for callers that use the driver directly).
func (d *Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector parses and checks the DSN once.
func (d *Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return NewConnector(cfg)
}

// Config is the configuration a DSN spells out.
type Config struct {
	// Path is a folder of tables or one Parquet file.
	Path string
	// Threads bounds the row groups decoded at once (0: GOMAXPROCS).
	Threads int
	// ReadOnly refuses every write (mode=ro).
	ReadOnly bool
	// Compression of written files: none, snappy (default), gzip, zstd, lz4_raw, brotli.
	Compression string
	// RowGroupRows bounds the rows per written row group.
	RowGroupRows int64
	// SkipChecksums turns off the page checks done by default when
	// reading (CRC32, offset index cross-check): verify_checksums=false.
	SkipChecksums bool
	// Mmap maps files into memory instead of reading them.
	Mmap bool
	// Now, if set, is the clock of now() and current_date (for tests).
	Now func() time.Time
	// DeltaVersion reads Delta tables at that version (delta_version=N);
	// nil reads the latest.
	DeltaVersion *int64
	// ExternalRead lets statements read files outside the DSN's folder
	// (external_access=read); writes and deletions stay inside it.
	ExternalRead bool
	// Limits bound what sizes in the files may make the reader allocate
	// (max_page_size=, max_dictionary_size=, max_batch_bytes=,
	// max_scan_memory=; zero fields
	// take the defaults). A file over a limit gives ErrLimit.
	Limits sqlplan.Limits
	// MemoryLimit is the default of the memory_limit setting in bytes
	// (memory_limit=1GB, with DuckDB's units): what the hash tables,
	// sorts and windows of one query may hold before it fails with
	// sqlplan.ErrMemoryLimit. 0: max_scan_memory if given, else none.
	MemoryLimit uint64
	// Store holds the options of the object store a URL path is in
	// (region=, endpoint=, ...: those of the registered stores, see
	// objstore/s3).
	Store map[string]string
	// Decryption gives the keys of files that use Parquet Modular
	// Encryption (encryption_footer_key=, column_keys=, aad_prefix=; in
	// code, a file.KeyRetriever too). With a footer key, files written
	// are encrypted (see "Encrypted files" in the package doc).
	Decryption *sqlplan.Decryption
}

// ParseDSN parses "path?option=value&...". Options: threads, mode (ro or
// rw), compression, row_group_rows, verify_checksums (true by default;
// false skips the page CRC32 and offset index checks), mmap,
// external_access (none, the default: statements read and write only
// below the path's folder; read: they may read files elsewhere), delta_version
// (the version Delta tables are read at), max_page_size,
// max_dictionary_size, max_batch_bytes, max_scan_memory (bytes; see
// Config.Limits), memory_limit (a size such as 1GB; see
// Config.MemoryLimit), encryption_footer_key, column_keys and aad_prefix (see
// Config.Decryption and parseKey), and the options of the object store a URL path is in
// (s3://bucket/prefix/?region=...&endpoint=..., with objstore/s3
// imported). Unknown options are an error.
func ParseDSN(dsn string) (Config, error) {
	var cfg Config
	path, query, _ := strings.Cut(dsn, "?")
	if path == "" {
		return cfg, fmt.Errorf("carquet: the DSN names no path")
	}
	cfg.Path = path
	vals, err := url.ParseQuery(query)
	if err != nil {
		return cfg, fmt.Errorf("carquet: DSN options: %w", err)
	}
	for k, vs := range vals {
		v := vs[len(vs)-1]
		boolOpt := func() (bool, error) {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return false, fmt.Errorf("carquet: DSN option %s=%q is not a boolean", k, v)
			}
			return b, nil
		}
		switch k {
		case "threads":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return cfg, fmt.Errorf("carquet: DSN option threads=%q is not a count", v)
			}
			cfg.Threads = n
		case "mode":
			switch v {
			case "ro":
				cfg.ReadOnly = true
			case "rw":
			default:
				return cfg, fmt.Errorf("carquet: DSN option mode=%q: want ro or rw", v)
			}
		case "compression":
			switch strings.ToLower(v) {
			case "none", "uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "lz4", "brotli":
				cfg.Compression = strings.ToLower(v)
			default:
				return cfg, fmt.Errorf("carquet: DSN option compression=%q: want none, snappy, gzip, zstd, lz4_raw or brotli", v)
			}
		case "row_group_rows":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return cfg, fmt.Errorf("carquet: DSN option row_group_rows=%q is not a positive count", v)
			}
			cfg.RowGroupRows = n
		case "verify_checksums":
			verify, err := boolOpt()
			if err != nil {
				return cfg, err
			}
			cfg.SkipChecksums = !verify
		case "external_access":
			switch v {
			case "none":
				cfg.ExternalRead = false
			case "read":
				cfg.ExternalRead = true
			default:
				return cfg, fmt.Errorf("carquet: DSN option external_access=%q: want none or read", v)
			}
		case "mmap":
			if cfg.Mmap, err = boolOpt(); err != nil {
				return cfg, err
			}
		case "delta_version":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return cfg, fmt.Errorf("carquet: DSN option delta_version=%q is not a version number", v)
			}
			cfg.DeltaVersion = &n
		case "encryption_footer_key":
			k, err := parseKey(k, v)
			if err != nil {
				return cfg, err
			}
			cfg.decryption().FooterKey = k
		case "column_keys":
			keys, err := parseColumnKeys(v)
			if err != nil {
				return cfg, err
			}
			cfg.decryption().ColumnKeys = keys
		case "aad_prefix":
			cfg.decryption().AADPrefix = []byte(v)
		case "max_scan_memory":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return cfg, fmt.Errorf("carquet: DSN option max_scan_memory=%q is not a positive size in bytes", v)
			}
			cfg.Limits.MaxScanMemory = n
		case "memory_limit":
			n, err := sqlplan.ParseMemoryLimit(v)
			if err != nil || n == 0 {
				return cfg, fmt.Errorf("carquet: DSN option memory_limit=%q is not a size (e.g. 1GB, 512MiB or none)", v)
			}
			cfg.MemoryLimit = n
		case "max_page_size", "max_dictionary_size", "max_batch_bytes":
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n <= 0 {
				return cfg, fmt.Errorf("carquet: DSN option %s=%q is not a positive size in bytes (below 2 GiB)", k, v)
			}
			switch k {
			case "max_page_size":
				cfg.Limits.MaxPageSize = int(n)
			case "max_dictionary_size":
				cfg.Limits.MaxDictionarySize = int(n)
			default:
				cfg.Limits.MaxBatchBytes = n
			}
		default:
			if objstore.IsOption(k) {
				if cfg.Store == nil {
					cfg.Store = map[string]string{}
				}
				cfg.Store[k] = v
				continue
			}
			return cfg, fmt.Errorf("carquet: unknown DSN option %q (known: threads, mode, compression, row_group_rows, verify_checksums, mmap, external_access, delta_version, max_page_size, max_dictionary_size, max_batch_bytes, max_scan_memory, memory_limit, encryption_footer_key, column_keys, aad_prefix)", k)
		}
	}
	return cfg, nil
}

// Connector opens connections that share one engine.
type Connector struct {
	cfg    Config
	engine *sqlplan.Engine
	once   sync.Once
}

// NewConnector returns a Connector for a configuration.
func NewConnector(cfg Config) (*Connector, error) {
	e, err := sqlplan.Open(cfg.Path, sqlplan.Options{
		Threads: cfg.Threads, ReadOnly: cfg.ReadOnly, Mmap: cfg.Mmap, SkipChecksums: cfg.SkipChecksums,
		Compression: cfg.Compression, RowGroupRows: cfg.RowGroupRows, Now: cfg.Now, DeltaVersion: cfg.DeltaVersion,
		Limits: cfg.Limits, MemoryLimit: cfg.MemoryLimit, ExternalRead: cfg.ExternalRead, Store: cfg.Store, Decryption: cfg.Decryption,
	})
	if err != nil {
		return nil, err
	}
	return &Connector{cfg: cfg, engine: e}, nil
}

// OpenDB opens a *sql.DB configured in code.
func OpenDB(cfg Config) (*sql.DB, error) {
	c, err := NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(c), nil
}

// Connect returns a new connection.
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	return &Conn{engine: c.engine, readOnly: c.cfg.ReadOnly, sess: c.engine.NewSession()}, nil
}

// Driver returns the carquet driver.
func (c *Connector) Driver() driver.Driver { return &Driver{} }

// Engine is the engine behind the connector, for programs that want to
// run SQL without database/sql.
func (c *Connector) Engine() *sqlplan.Engine { return c.engine }

// Close closes the engine's files (database/sql calls it from DB.Close).
func (c *Connector) Close() error {
	c.once.Do(func() { c.engine.Close() })
	return nil
}

func (c *Config) decryption() *sqlplan.Decryption {
	if c.Decryption == nil {
		c.Decryption = &sqlplan.Decryption{}
	}
	return c.Decryption
}

// parseKey reads an AES key of a DSN option: the key's 16, 24 or 32
// bytes as they are, or "hex:" and their 32, 48 or 64 hex digits (for
// keys that are not text, or hold ',' ':' or '&'). Errors never show the
// key.
func parseKey(what, v string) ([]byte, error) {
	k := []byte(v)
	if h, ok := strings.CutPrefix(v, "hex:"); ok {
		var err error
		if k, err = hex.DecodeString(h); err != nil {
			return nil, fmt.Errorf("carquet: DSN option %s: the key after hex: is not hexadecimal", what)
		}
	}
	switch len(k) {
	case 16, 24, 32:
		return k, nil
	}
	return nil, fmt.Errorf("carquet: DSN option %s: a key of %d bytes: AES keys have 16, 24 or 32 (or hex: and 32, 48 or 64 hex digits)", what, len(k))
}

// parseColumnKeys reads column_keys: "col:key,col2:key2", each column a
// dotted leaf path and each key as parseKey reads it.
func parseColumnKeys(v string) (map[string][]byte, error) {
	keys := map[string][]byte{}
	for _, item := range strings.Split(v, ",") {
		col, key, ok := strings.Cut(item, ":")
		col = strings.TrimSpace(col)
		if !ok || col == "" {
			return nil, fmt.Errorf("carquet: DSN option column_keys: want column:key pairs separated by commas")
		}
		k, err := parseKey("column_keys (column "+col+")", key)
		if err != nil {
			return nil, err
		}
		keys[col] = k
	}
	return keys, nil
}
