package main

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/writer"
)

func runOptimize(e *env, args []string) error {
	fs := newFlags(e, "optimize", "optimize [--row-group-rows N] FILE...",
		`Rewrite Parquet files whose row groups are small (many appends, or
another writer's small row groups) into full row groups, with the same rows
in the same order, atomically: readers see the old file or the new one.
Key-value metadata and bloom filters are kept; statistics and page indexes
are written anew. A file whose row groups are already full is left alone.
SQL's OPTIMIZE t does the same for a table, with its own options.`,
		`pqsql optimize data/events.parquet
		 pqsql optimize --row-group-rows 100000 data/*.parquet`)
	rows := fs.Int64("row-group-rows", writer.DefaultRowGroupRows, "rows per row group")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, -1); err != nil {
		return err
	}
	if *rows <= 0 {
		return fmt.Errorf("%w: --row-group-rows must be positive", errUsage)
	}
	files, err := expandFiles(pos)
	if err != nil {
		return err
	}
	for _, path := range files {
		opts, err := codecsOf(path)
		if err != nil {
			return err
		}
		n, err := writer.Compact(path, append(opts, writer.WithRowGroupRows(*rows))...)
		if err != nil {
			return err
		}
		if n == 0 {
			fmt.Fprintf(e.stdout, "%s: row groups already full\n", path)
		} else {
			fmt.Fprintf(e.stdout, "%s: %d rows rewritten\n", path, n)
		}
	}
	return nil
}

// codecsOf keeps each column's codec, as its first row group has it.
func codecsOf(path string) ([]writer.Option, error) {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var opts []writer.Option
	if len(f.Meta.RowGroups) == 0 {
		return nil, nil
	}
	for c, leaf := range f.Schema.Leaves {
		if md := f.Meta.RowGroups[0].Columns[c].MetaData; md != nil {
			opts = append(opts, writer.WithCompressionFor(leaf.PathString(), md.Codec))
		}
	}
	return opts, nil
}
