package bench

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/apache/arrow-go/v18/parquet/metadata"
	pqthrift "github.com/parquet-go/parquet-go/encoding/thrift"
	pqformat "github.com/parquet-go/parquet-go/format"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// footerBytes writes a file of cols INT64 columns × rgs row groups (one
// row each, no statistics' effect on size beyond min/max) with carquet and
// returns its encoded footer.
func footerBytes(dir string, cols, rgs int) ([]byte, error) {
	fields := make([]writer.Field, cols)
	for i := range fields {
		fields[i] = writer.Int64(fmt.Sprintf("c%05d", i)).Required()
	}
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fmt.Sprintf("wide-%d-%d.parquet", cols, rgs))
	w, err := writer.Create(path, sch, writer.WithRowGroupRows(1), writer.WithDictionary(false), writer.WithPageIndex(false))
	if err != nil {
		return nil, err
	}
	vecs := make([]*vector.Vector, cols)
	for i := range vecs {
		vecs[i] = &vector.Vector{Kind: vector.Int64, Len: rgs, Int64s: make([]int64, rgs)}
		for r := range rgs {
			vecs[i].Int64s[r] = int64(i*rgs + r)
		}
	}
	if err := w.WriteBatch(vecs); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	os.Remove(path)
	if err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	return b[len(b)-8-n : len(b)-8], nil
}

type footerDecoder struct {
	name string
	fn   func(footer []byte) error
}

func footerDecoders(cols int) []footerDecoder {
	return []footerDecoder{
		{"carquet", func(b []byte) error { // every field decoded, column chunks into compact records: what file.Open does with LazyColumns (the SQL driver) on a footer without index, with its memory limit
			var fm format.FileMetaData
			_, _, err := format.UnmarshalCompact(b, &fm, openLimit(b))
			return err
		}},
		{"carquet (structs)", func(b []byte) error { // column chunks into ColumnChunk structs (aliased, arena-allocated): what file.Open does by default
			var fm format.FileMetaData
			_, err := format.UnmarshalFooter(b, &fm, false, openLimit(b))
			return err
		}},
		{"carquet (copying)", func(b []byte) error {
			var fm format.FileMetaData
			_, err := format.Unmarshal(b, &fm)
			return err
		}},
		{"carquet (lazy)", func(b []byte) error { // column chunks left undecoded
			var fm format.FileMetaData
			_, err := format.UnmarshalLazy(b, &fm)
			return err
		}},
		{"carquet (one column)", func(b []byte) error { // footer index: chunk (0, cols/2) in O(1)
			x, err := format.ParseFooterIndex(b)
			if err != nil {
				return err
			}
			var cc format.ColumnChunk
			return x.ColumnChunk(0, cols/2, &cc)
		}},
		{"arrow-go", func(b []byte) error {
			_, err := metadata.NewFileMetaData(b, nil)
			return err
		}},
		{"parquet-go", func(b []byte) error {
			var fm pqformat.FileMetaData
			return pqthrift.Unmarshal(&pqthrift.CompactProtocol{}, b, &fm)
		}},
	}
}

// openLimit is the bound file.Open puts on the decoded metadata of a
// footer by default.
func openLimit(footer []byte) int64 { return file.Limits{}.MetadataMemory(len(footer)) }

// perOp runs fn until at least 20 ms have passed and returns seconds per call.
func perOp(fn func() error) (float64, error) {
	n := 0
	t0 := time.Now()
	for time.Since(t0) < 20*time.Millisecond || n == 0 {
		if err := fn(); err != nil {
			return 0, err
		}
		n++
	}
	return time.Since(t0).Seconds() / float64(n), nil
}

// allocs returns the bytes allocated by one call.
func allocs(fn func() error) int64 {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	const k = 3
	for i := 0; i < k; i++ {
		fn()
	}
	runtime.ReadMemStats(&b)
	return int64(b.TotalAlloc-a.TotalAlloc) / k
}

// RunFooters runs §3: footers of N INT64 columns × R row groups decoded
// from bytes in memory, interleaved, with bytes allocated per decode.
func (s *Suite) RunFooters(widths, rowGroups []int) error {
	if s.rep.FooterAllocs == nil {
		s.rep.FooterAllocs = map[string]int64{}
		s.rep.FooterBytes = map[string]int{}
	}
	for _, rgs := range rowGroups {
		for _, cols := range widths {
			footer, err := footerBytes(s.Cfg.Dir, cols, rgs)
			if err != nil {
				return fmt.Errorf("footer %d×%d: %w", cols, rgs, err)
			}
			workload := fmt.Sprintf("footer: %d row group(s)", rgs)
			label := fmt.Sprintf("%d columns", cols)
			s.rep.FooterBytes[label+", "+workload] = len(footer)
			decs := footerDecoders(cols)
			fns := map[string]func() error{}
			var order []string
			for _, d := range decs {
				fn := func() error { return guard(func() error { return d.fn(footer) }) }
				// A decoder that cannot read this footer at all (parquet-go
				// refuses more than 65,534 columns) is reported, not timed.
				if err := fn(); err != nil {
					s.rep.Notes = append(s.rep.Notes, fmt.Sprintf("%s, %s: %s cannot decode the footer: %v", workload, label, d.name, err))
					s.Cfg.Log("%s %-14s %-22s error: %v", workload, label, d.name, err)
					continue
				}
				fns[d.name] = fn
				order = append(order, d.name)
				s.rep.FooterAllocs[d.name+"/"+label+"/"+workload] = allocs(fn)
			}
			// interleave with per-op timings instead of single calls
			for run := 0; run <= s.Cfg.Runs; run++ {
				for _, name := range order {
					runtime.GC()
					sec, err := perOp(fns[name])
					if err != nil {
						return fmt.Errorf("%s %s %s: %w", workload, label, name, err)
					}
					s.rep.Samples = append(s.rep.Samples, Sample{workload, label, name, run, sec})
				}
			}
			for _, name := range order {
				sm := summarize(s.rep.Samples, workload, label, name)
				s.rep.Summaries = append(s.rep.Summaries, sm)
				s.Cfg.Log("%s %-14s %-22s median %10.3f ms, %d bytes allocated", workload, label, name, sm.Median*1e3, s.rep.FooterAllocs[name+"/"+label+"/"+workload])
			}
		}
	}
	return nil
}

// guard turns a decoder's panic into an error, so that a peer failing on
// a footer is reported instead of stopping the run.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return fn()
}
