package sqlplan

import (
	"context"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// DuckDB's system table functions without arguments, with DuckDB's
// column names and types and carquet's own values: its version and
// platform (never DuckDB's), its optimizer's rules, the memory its
// process holds, the sizes of its databases' folders, and checkpoint(),
// which waits for the engine's writes as CHECKPOINT does
// (session_stmts.go). Those whose rows are constants or always none are
// table macros in SQL (systemTableMacros); the others are built here when
// the statement is planned, like duckdb_tables() (catalog_duckdb.go).

// systemFunctions are the table functions built here.
var systemFunctions = map[string]func(p *plan.Planner, c *plan.CatalogRows) error{
	"pragma_version":               pragmaVersion,
	"pragma_platform":              pragmaPlatform,
	"pragma_user_agent":            pragmaUserAgent,
	"pragma_database_size":         pragmaDatabaseSize,
	"duckdb_memory":                duckdbMemory,
	"duckdb_optimizers":            duckdbOptimizers,
	"duckdb_extensions":            duckdbExtensions,
	"duckdb_approx_database_count": duckdbDatabaseCount,
	"duckdb_connection_count":      duckdbConnectionCount,
	"pg_timezone_names":            pgTimezoneNames,
}

func init() {
	// The rewrite makes a call of one a table name, "name()", as it does
	// for the catalog's (parse/catalogfuncs.go); checkpoint() too.
	for name := range systemFunctions {
		parse.CatalogFunctions[name] = true
	}
	parse.CatalogFunctions["checkpoint"] = true
	parse.CatalogFunctions["force_checkpoint"] = true
}

// systemRelation is the relation of one of the functions here, ok false
// for other names.
func systemRelation(p *plan.Planner, fn, alias string) (*plan.Relation, bool, error) {
	if fn == "checkpoint" || fn == "force_checkpoint" {
		return checkpointRelation(p, alias), true, nil
	}
	build := systemFunctions[fn]
	if build == nil {
		return nil, false, nil
	}
	c := &plan.CatalogRows{}
	if err := build(p, c); err != nil {
		return nil, true, err
	}
	return c.Relation(alias, strings.ToUpper(fn)), true, nil
}

// carquetBuild is carquet's module version ("(devel)" when built from
// its own source) and the VCS revision the binary was built from, ""
// when the build did not record it (go test, go run of a package).
func carquetBuild() (version, revision string) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)", ""
	}
	version = "(devel)"
	if info.Main.Path == "github.com/carquet-go/carquet" && info.Main.Version != "" {
		version = info.Main.Version
	}
	for _, d := range info.Deps {
		if d.Path == "github.com/carquet-go/carquet" && d.Version != "" {
			version = d.Version
		}
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			revision = s.Value
		}
	}
	return version, revision
}

// pragmaVersion is carquet's version: library_version its module version,
// source_id the first 10 digits of the commit it was built from (NULL
// when the build did not record one), codename NULL (carquet has none).
func pragmaVersion(_ *plan.Planner, c *plan.CatalogRows) error {
	version, revision := carquetBuild()
	lib, src, code := c.Col("library_version", plan.TString), c.Col("source_id", plan.TString), c.Col("codename", plan.TString)
	c.N = 1
	lib.Add("carquet " + version)
	src.Add(plan.NullIfEmpty(revision[:min(len(revision), 10)]))
	code.Add(nil)
	return nil
}

// platform is the platform as DuckDB names its builds: os_arch.
func platform() string { return runtime.GOOS + "_" + runtime.GOARCH }

func pragmaPlatform(_ *plan.Planner, c *plan.CatalogRows) error {
	c.Col("platform", plan.TString).Add(platform())
	c.N = 1
	return nil
}

// pragmaUserAgent is carquet/version(platform) and the Go release, as
// DuckDB's duckdb/v1.5.6(linux_amd64) names the client after it.
func pragmaUserAgent(_ *plan.Planner, c *plan.CatalogRows) error {
	version, _ := carquetBuild()
	c.Col("user_agent", plan.TString).Add("carquet/" + version + "(" + platform() + ") " + runtime.Version())
	c.N = 1
	return nil
}

// pragmaDatabaseSize is a row per database: its folder's files' bytes
// (NULL for an object store's, which would be a listing of the bucket).
// carquet stores tables as Parquet files, not in blocks, and has no
// write-ahead log: the block columns are 0 and wal_size 0 bytes.
// memory_usage is the heap the process holds, memory_limit the setting.
func pragmaDatabaseSize(p *plan.Planner, c *plan.CatalogRows) error {
	name, size, block := c.Col("database_name", plan.TString), c.Col("database_size", plan.TString), c.Col("block_size", plan.TBigint)
	total, used, free := c.Col("total_blocks", plan.TBigint), c.Col("used_blocks", plan.TBigint), c.Col("free_blocks", plan.TBigint)
	wal, mem, limit := c.Col("wal_size", plan.TString), c.Col("memory_usage", plan.TString), c.Col("memory_limit", plan.TString)
	heap := readMemoryMetrics()["/memory/classes/heap/objects:bytes"]
	for _, db := range catalogDatabases(p) {
		if err := p.Ctx.Err(); err != nil {
			return err
		}
		c.N++
		name.Add(db.name)
		if bytes, ok := folderBytes(db.path); ok {
			size.Add(plan.FormatBytes(bytes))
		} else {
			size.Add(nil)
		}
		for _, b := range []*plan.ColBuilder{block, total, used, free} {
			b.Add(int64(0))
		}
		wal.Add(plan.FormatBytes(0))
		mem.Add(plan.FormatBytes(heap))
		limit.Add(plan.FormatBytes(p.Set.MemLimit))
	}
	return nil
}

// duckdbDatabaseCount is duckdb_approx_database_count(): carquet's
// database and the attached ones.
func duckdbDatabaseCount(p *plan.Planner, c *plan.CatalogRows) error {
	c.Col("approx_count", tUBigint).Add(uint64(len(catalogDatabases(p))))
	c.N = 1
	return nil
}

var tUBigint = Type{Kind: KUint, Bits: 64}

// duckdbConnectionCount is duckdb_connection_count(): the sessions open
// now (each database/sql connection has one, closed with it), less the
// engine's own, and at least the one asking.
func duckdbConnectionCount(p *plan.Planner, c *plan.CatalogRows) error {
	n := max(stmtOf(p).e.openSessions.Load()-1, 1)
	c.Col("count", tUBigint).Add(uint64(n))
	c.N = 1
	return nil
}

// Close ends a session: it no longer counts as a connection. Closing
// twice counts once.
func (s *Session) Close() {
	if s.closed.CompareAndSwap(false, true) {
		s.e.openSessions.Add(-1)
	}
}

// duckdbMemory is the memory of carquet's process by what holds it, from
// the Go runtime's metrics (DuckDB's tags are those of its buffer
// manager, which carquet has not: its queries account their memory
// against memory_limit while they run, exec/memory.go). Nothing spills to
// disk, so temporary_storage_bytes is 0.
func duckdbMemory(_ *plan.Planner, c *plan.CatalogRows) error {
	tag, used, temp := c.Col("tag", plan.TString), c.Col("memory_usage_bytes", plan.TBigint), c.Col("temporary_storage_bytes", plan.TBigint)
	m := readMemoryMetrics()
	heap, stacks := m["/memory/classes/heap/objects:bytes"], m["/memory/classes/heap/stacks:bytes"]
	rows := []struct {
		tag   string
		bytes uint64
	}{
		{"HEAP_OBJECTS", heap},
		{"STACKS", stacks},
		{"HEAP_FREE", m["/memory/classes/heap/free:bytes"] + m["/memory/classes/heap/released:bytes"] + m["/memory/classes/heap/unused:bytes"]},
		{"RUNTIME_OTHER", m["/memory/classes/total:bytes"] - heap - stacks - m["/memory/classes/heap/free:bytes"] - m["/memory/classes/heap/released:bytes"] - m["/memory/classes/heap/unused:bytes"]},
	}
	for _, r := range rows {
		c.N++
		tag.Add(r.tag)
		used.Add(int64(r.bytes))
		temp.Add(int64(0))
	}
	return nil
}

// readMemoryMetrics reads the runtime's memory classes (cheap: no
// stop of the world, unlike runtime.ReadMemStats).
func readMemoryMetrics() map[string]uint64 {
	names := []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/stacks:bytes", "/memory/classes/heap/free:bytes",
		"/memory/classes/heap/released:bytes", "/memory/classes/heap/unused:bytes", "/memory/classes/total:bytes"}
	samples := make([]metrics.Sample, len(names))
	for i, n := range names {
		samples[i].Name = n
	}
	metrics.Read(samples)
	out := make(map[string]uint64, len(names))
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			out[s.Name] = s.Value.Uint64()
		}
	}
	return out
}

// duckdbOptimizers lists carquet's optimizer rules by name, in the order
// optimize applies them (select_optimize.go).
func duckdbOptimizers(_ *plan.Planner, c *plan.CatalogRows) error {
	name := c.Col("name", plan.TString)
	for _, r := range plan.OptimizerRules {
		c.N++
		name.Add(r.Name)
	}
	return nil
}

// duckdbExtensions lists the DuckDB extensions whose work carquet does
// itself (builtinExtensions, which INSTALL and LOAD accept): built in,
// so loaded and installed, as DuckDB shows its statically linked ones.
func duckdbExtensions(_ *plan.Planner, c *plan.CatalogRows) error {
	name, loaded, installed, path := c.Col("extension_name", plan.TString), c.Col("loaded", plan.TBool), c.Col("installed", plan.TBool), c.Col("install_path", plan.TString)
	desc, aliases, version := c.Col("description", plan.TString), c.Col("aliases", tStringList), c.Col("extension_version", plan.TString)
	mode, from := c.Col("install_mode", plan.TString), c.Col("installed_from", plan.TString)
	v, _ := carquetBuild()
	for _, ext := range builtinExtensions {
		c.N++
		name.Add(ext)
		loaded.Add(true)
		installed.Add(true)
		path.Add("(BUILT-IN)")
		desc.Add(extensionDescriptions[ext])
		aliases.Add([]any{})
		version.Add("carquet " + v)
		mode.Add("STATICALLY_LINKED")
		from.Add("")
	}
	return nil
}

// extensionDescriptions say what carquet has of each extension.
var extensionDescriptions = map[string]string{
	"core_functions": "carquet's built-in functions",
	"delta":          "carquet reads and writes Delta Lake tables itself",
	"httpfs":         "carquet reads files over HTTP(S) and S3 itself (objstore)",
	"json":           "carquet's built-in JSON type and functions",
	"parquet":        "carquet's own Parquet reader and writer",
}

// checkpointRelation is checkpoint() and force_checkpoint(): no row, a
// column Success, and the wait CHECKPOINT does, when the statement runs.
// DuckDB's moves its write-ahead log into the database file; carquet has
// no log (a committed statement's files are already in place), so the
// only thing to wait for is the writes under way. In a transaction it
// waits for nothing, as CHECKPOINT.
func checkpointRelation(p *plan.Planner, alias string) *plan.Relation {
	c := &plan.CatalogRows{}
	c.Col("Success", plan.TBool)
	rel := c.Relation(alias, "CHECKPOINT")
	rel.Sub.Root = &checkpointNode{e: stmtOf(p).e, inTx: stmtOf(p).tx != nil}
	return rel
}

// checkpointNode waits for the engine's writes, then ends: no row.
type checkpointNode struct {
	e    *Engine
	inTx bool
	done bool
}

func (n *checkpointNode) Next(ctx context.Context) (*Batch, error) {
	if !n.done && !n.inTx {
		// A barrier: once the lock is had, the writes under way ended.
		n.e.writeMu.Lock()
		n.e.writeMu.Unlock()
	}
	n.done = true
	return nil, io.EOF
}

func (n *checkpointNode) Close() {}

func (n *checkpointNode) Explain(x *kernels.Explainer, depth int) { x.Line(depth, "CHECKPOINT") }

// systemPragmas are the PRAGMAs that are SELECT * FROM pragma_name().
var systemPragmas = map[string]bool{"version": true, "platform": true, "user_agent": true, "database_size": true, "collations": true}
