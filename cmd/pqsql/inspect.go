package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/carquet-go/carquet/parquet/file"
)

func openOne(args []string) (*file.File, error) {
	if len(args) != 1 {
		return nil, errors.New("expected exactly one FILE argument")
	}
	return file.OpenFile(args[0], file.Options{}, false)
}

func runSchema(args []string, stdout, _ io.Writer) error {
	f, err := openOne(args)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprint(stdout, f.Schema.String())
	return nil
}

func runInfo(args []string, stdout, _ io.Writer) error {
	f, err := openOne(args)
	if err != nil {
		return err
	}
	defer f.Close()
	m := f.Meta
	fmt.Fprintf(stdout, "file:        %s\n", f.Name())
	fmt.Fprintf(stdout, "size:        %d bytes (footer %d bytes)\n", f.Size(), len(f.FooterBytes()))
	fmt.Fprintf(stdout, "created_by:  %s\n", f.CreatedBy())
	fmt.Fprintf(stdout, "version:     %d\n", m.Version)
	fmt.Fprintf(stdout, "rows:        %d\n", f.NumRows())
	fmt.Fprintf(stdout, "row groups:  %d\n", f.NumRowGroups())
	fmt.Fprintf(stdout, "columns:     %d\n", len(f.Schema.Leaves))
	for _, kv := range m.KeyValueMetadata {
		v := kv.Value.Value
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Fprintf(stdout, "meta:        %s = %s\n", kv.Key, v)
	}
	for i, rg := range m.RowGroups {
		fmt.Fprintf(stdout, "\nrow group %d: %d rows, %d bytes\n", i, rg.NumRows, rg.TotalByteSize)
		for c, cc := range rg.Columns {
			path := f.Schema.Leaves[c].PathString()
			md := cc.MetaData
			if md == nil {
				fmt.Fprintf(stdout, "  %-30s (encrypted)\n", path)
				continue
			}
			encs := make([]string, len(md.Encodings))
			for j, e := range md.Encodings {
				encs[j] = e.String()
			}
			ratio := 0.0
			if md.TotalCompressedSize > 0 {
				ratio = float64(md.TotalUncompressedSize) / float64(md.TotalCompressedSize)
			}
			fmt.Fprintf(stdout, "  %-30s %-20s %-12s %10d -> %10d bytes (%.2fx)  %s\n", path, md.Type, md.Codec,
				md.TotalUncompressedSize, md.TotalCompressedSize, ratio, strings.Join(encs, ","))
		}
	}
	return nil
}
