package sqlplan

import "github.com/carquet-go/carquet/sqlplan/dml"

// Package dml's table-file helpers under the names the engine's DDL
// (create.go) has used for them.
var (
	dropFolder    = dml.DropFolder
	tableFolder   = dml.TableFolder
	isParquetFile = dml.IsParquetFile
)
