package scan

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Request describes a scan.
type Request struct {
	// Columns are the table columns to return, in this order (top-level
	// names, or dotted paths into structs). nil means every column.
	Columns []string
	// Filter keeps only the rows for which it is true; nil keeps all.
	Filter Predicate
	// BatchSize bounds the rows per batch (default file.DefaultBatchSize).
	BatchSize int
	// Threads is the number of row groups decoded at once (default
	// GOMAXPROCS).
	Threads int
	// Unordered lets batches arrive in any order.
	Unordered bool
	// NoPruning reads every row group and page (for tests and EXPLAIN
	// comparisons); results are the same.
	NoPruning bool
	// RowGroups, when set, restricts the scan to these row groups of
	// each file (by file index): a rewrite reads only the row groups that
	// may hold the rows it changes (RowGroupsMayMatch).
	RowGroups map[int][]int
	// Codes names returned columns that may come back as coded vectors
	// (vector.Vector.Dict and Codes) where their pages are dictionary
	// encoded, for a consumer that groups or compares them by code. A
	// column the filter reads comes back plain.
	Codes []string
}

// Batch is a set of rows of a scan. Its vectors belong to the caller.
type Batch struct {
	Columns []*vector.Vector
	NumRows int
	// gathered lists the vectors of Columns that the scan gathered the
	// filtered rows into (buffers of its own), which Recycle takes back.
	gathered []*vector.Vector
}

// Stats count what a scan considered, pruned and read.
type Stats struct {
	Files, FilesPruned                int64
	RowGroups, RowGroupsPrunedByStats int64
	RowGroupsPrunedByBloom            int64
	Pages, PagesPruned                int64
	PagesRead                         int64
	BytesRead, BytesDecompressed      int64
	RowsDecoded, RowsOutput           int64
}

func (s *Stats) String() string {
	return fmt.Sprintf("files %d (pruned %d), row groups %d (pruned %d by statistics, %d by bloom filters), filter-column pages %d (pruned %d by page index), pages read %d, bytes read %d (decompressed %d), rows decoded %d, rows returned %d",
		s.Files, s.FilesPruned, s.RowGroups, s.RowGroupsPrunedByStats, s.RowGroupsPrunedByBloom, s.Pages, s.PagesPruned,
		s.PagesRead, s.BytesRead, s.BytesDecompressed, s.RowsDecoded, s.RowsOutput)
}

// unit is one row group of one file to read.
type unit struct {
	file int
	rg   int
	// span, when set, restricts the unit to rows [from, to) of its row
	// group: a large row group is split so that several workers decode it.
	span     bool
	from, to int64
	out      chan result
	// mem is what the unit took from the scan's memory budget.
	mem int64
}

type result struct {
	batch *Batch
	err   error
}

// Scanner streams the batches of a scan.
type Scanner struct {
	t       *Table
	req     Request
	cols    []*Column
	filter  Predicate
	parent  context.Context
	ctx     context.Context
	cancel  context.CancelFunc
	units   chan *unit // in order, for the consumer
	cur     *unit
	stats   Stats
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
	done    bool
	merged  chan result // unordered mode
	io      file.ReadStats
	mem     *memoryBudget // nil without Limits.MaxScanMemory

	// spare holds gathered vectors the caller gave back (Recycle): the
	// rows that pass a filter are gathered into them rather than into
	// fresh memory, which the runtime would clear and collect.
	spare sync.Pool
}

// Scan starts a scan of the table.
func (t *Table) Scan(ctx context.Context, req Request) (*Scanner, error) {
	if req.Columns == nil {
		for _, c := range t.Columns {
			req.Columns = append(req.Columns, c.Name)
		}
	}
	s := &Scanner{t: t, req: req, parent: ctx}
	for _, name := range req.Columns {
		c, err := t.resolve(name)
		if err != nil {
			return nil, err
		}
		s.cols = append(s.cols, c)
	}
	if req.Filter != nil {
		for _, name := range Columns(nil, req.Filter) {
			if _, err := t.resolve(name); err != nil {
				return nil, err
			}
		}
		s.filter = normalize(req.Filter)
	}
	if s.req.BatchSize <= 0 {
		s.req.BatchSize = file.DefaultBatchSize
	}
	if s.req.Threads <= 0 {
		s.req.Threads = runtime.GOMAXPROCS(0)
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.mem = newMemoryBudget(t.opts.Limits.MaxScanMemory)
	s.start()
	return s, nil
}

// RowGroupsMayMatch reports, for each row group of the table's file fi,
// whether its statistics and bloom filters leave room for a row for which
// filter holds (nil: every row group may match).
func (t *Table) RowGroupsMayMatch(fi int, filter Predicate) ([]bool, error) {
	f, err := t.File(fi)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(f.Meta.RowGroups))
	if filter == nil {
		for i := range out {
			out[i] = true
		}
		return out, nil
	}
	for _, name := range Columns(nil, filter) {
		if _, err := t.resolve(name); err != nil {
			return nil, err
		}
	}
	s := &Scanner{t: t, filter: normalize(filter)}
	b := s.bindFile(fi, f)
	if b.err != nil {
		return nil, b.err
	}
	if !s.fileMayMatch(b) {
		return out, nil
	}
	blooms := map[int]*bloom.Filter{}
	for rg := range out {
		if !s.rowGroupMayMatch(b, f, rg, s.filter) {
			continue
		}
		clear(blooms)
		ok, err := s.bloomMayMatch(b, f, rg, s.filter, blooms)
		if err != nil {
			return nil, err
		}
		out[rg] = ok
	}
	return out, nil
}

// resolve finds a table column, or a struct field below one by dotted path.
func (t *Table) resolve(name string) (*Column, error) {
	if c := t.Column(name); c != nil {
		return c, nil
	}
	if top, _, ok := strings.Cut(name, "."); ok && t.Column(top) != nil && !t.Column(top).Partition {
		return &Column{Name: name}, nil
	}
	return nil, fmt.Errorf("%s: no column %q", t.Name, name)
}

// Columns are the scan's output columns.
func (s *Scanner) Columns() []*Column { return s.cols }

// Stats returns the counters so far (complete once Next returned io.EOF).
func (s *Scanner) Stats() Stats {
	return Stats{
		Files: atomic.LoadInt64(&s.stats.Files), FilesPruned: atomic.LoadInt64(&s.stats.FilesPruned),
		RowGroups: atomic.LoadInt64(&s.stats.RowGroups), RowGroupsPrunedByStats: atomic.LoadInt64(&s.stats.RowGroupsPrunedByStats),
		RowGroupsPrunedByBloom: atomic.LoadInt64(&s.stats.RowGroupsPrunedByBloom),
		Pages:                  atomic.LoadInt64(&s.stats.Pages), PagesPruned: atomic.LoadInt64(&s.stats.PagesPruned),
		BytesRead: s.io.BytesRead.Load(), BytesDecompressed: s.io.BytesDecompressed.Load(), PagesRead: s.io.Pages.Load(),
		RowsDecoded: atomic.LoadInt64(&s.stats.RowsDecoded),
		RowsOutput:  atomic.LoadInt64(&s.stats.RowsOutput),
	}
}

// Close stops the scan and waits for its workers.
func (s *Scanner) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

// start plans the units (pruning files and row groups) in a goroutine and
// runs the workers.
func (s *Scanner) start() {
	threads := s.req.Threads
	work := make(chan *unit, threads)
	s.units = make(chan *unit, threads)
	if s.req.Unordered {
		s.merged = make(chan result, threads)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(work)
		defer close(s.units)
		// Deferred last, so that it runs first: the consumer must see the
		// error before it sees the end of the units.
		defer s.recoverInternal(nil)
		s.plan(work)
	}()
	var workers sync.WaitGroup
	for i := 0; i < threads; i++ {
		s.wg.Add(1)
		workers.Add(1)
		go func() {
			defer s.wg.Done()
			defer workers.Done()
			for u := range work {
				s.run(u)
			}
		}()
	}
	if s.req.Unordered {
		go func() {
			workers.Wait()
			close(s.merged)
		}()
	}
}

// plan sends every row group that survives pruning to the workers (and,
// in order, to the consumer).
func (s *Scanner) plan(work chan<- *unit) {
	s.openAhead()
	for fi := range s.t.Files {
		atomic.AddInt64(&s.stats.Files, 1)
		// A Delta file is pruned by its add action (partition values and
		// statistics) before its footer is read.
		if s.t.delta != nil && s.filter != nil && !s.req.NoPruning && !s.deltaFileMayMatch(fi, s.filter) {
			atomic.AddInt64(&s.stats.FilesPruned, 1)
			continue
		}
		f, err := s.t.File(fi)
		if err != nil {
			s.fail(err)
			return
		}
		fb := s.bindFile(fi, f)
		if fb.err != nil {
			s.fail(fb.err)
			return
		}
		if s.filter != nil && !s.req.NoPruning && !s.fileMayMatch(fb) {
			atomic.AddInt64(&s.stats.FilesPruned, 1)
			continue
		}
		// A file whose every row group its statistics rule out is pruned
		// by its footer.
		var keep []int
		pruned := 0
		for rg := range f.Meta.RowGroups {
			if f.Meta.RowGroups[rg].NumRows == 0 {
				continue
			}
			if s.req.RowGroups != nil && !slices.Contains(s.req.RowGroups[fi], rg) {
				continue
			}
			if s.filter != nil && !s.req.NoPruning && !s.rowGroupMayMatch(fb, f, rg, s.filter) {
				pruned++
				continue
			}
			keep = append(keep, rg)
		}
		atomic.AddInt64(&s.stats.RowGroups, int64(len(f.Meta.RowGroups)))
		atomic.AddInt64(&s.stats.RowGroupsPrunedByStats, int64(pruned))
		if len(keep) == 0 && pruned > 0 {
			atomic.AddInt64(&s.stats.FilesPruned, 1)
			continue
		}
		for _, rg := range keep {
			for _, u := range s.split(fb, f, fi, rg) {
				// A remote file's unit is fetched while earlier units
				// are decoded.
				s.prefetchAhead(fb, f, u)
				if err := s.reserve(fb, f, u); err != nil {
					if s.ctx.Err() == nil {
						s.fail(err)
					}
					return
				}
				if s.req.Unordered {
					u.out = s.merged
				} else {
					u.out = make(chan result, s.unitQueue(fb, f, u))
					select {
					case s.units <- u:
					case <-s.ctx.Done():
						return
					}
				}
				select {
				case work <- u:
				case <-s.ctx.Done():
					return
				}
			}
		}
	}
}

// splitRows is the smallest share of a row group worth a worker of its
// own: TPC-H's customer (150,000 rows in one row group) is read by two
// workers at 2 threads.
const splitRows = 64 << 10

// split cuts a large row group into row spans for several workers, when
// there are workers to spare and every column to read has an offset index
// (so that each worker seeks straight to its pages instead of decoding the
// rows before them).
func (s *Scanner) split(b *fileBinding, f *file.File, fi, rg int) []*unit {
	n := f.Meta.RowGroups[rg].NumRows
	parts := int64(min(s.req.Threads, 8))
	if parts > n/splitRows {
		parts = n / splitRows
	}
	if parts < 2 || !s.hasOffsetIndexes(b, f, rg) {
		return []*unit{{file: fi, rg: rg}}
	}
	units := make([]*unit, 0, parts)
	for i := int64(0); i < parts; i++ {
		units = append(units, &unit{file: fi, rg: rg, span: true, from: n * i / parts, to: n * (i + 1) / parts})
	}
	return units
}

func (s *Scanner) hasOffsetIndexes(b *fileBinding, f *file.File, rg int) bool {
	for _, name := range b.needed {
		for _, leaf := range schema.LeavesUnder(nil, b.fields[name].Node) {
			cc, err := f.ColumnChunk(rg, leaf.Column)
			if err != nil || !cc.OffsetIndexOffset.Set {
				return false
			}
		}
	}
	return len(b.needed) > 0
}

func (s *Scanner) fail(err error) {
	s.errOnce.Do(func() { s.err = err })
	s.cancel()
}

// Next returns the next batch, or io.EOF at the end.
func (s *Scanner) Next() (*Batch, error) {
	if s.done {
		return nil, io.EOF
	}
	if s.req.Unordered {
		for {
			select {
			case r, ok := <-s.merged:
				if !ok {
					return nil, s.finish()
				}
				if r.err != nil {
					s.fail(r.err)
					return nil, r.err
				}
				if r.batch != nil {
					return r.batch, nil
				}
			case <-s.ctx.Done():
				return nil, s.finish()
			}
		}
	}
	for {
		if s.cur == nil {
			select {
			case u, ok := <-s.units:
				if !ok {
					return nil, s.finish()
				}
				s.cur = u
			case <-s.ctx.Done():
				return nil, s.finish()
			}
		}
		select {
		case r, ok := <-s.cur.out:
			if !ok {
				s.cur = nil
				continue
			}
			if r.err != nil {
				s.fail(r.err)
				return nil, r.err
			}
			return r.batch, nil
		case <-s.ctx.Done():
			return nil, s.finish()
		}
	}
}

// Recycle gives back the vectors of b that the scan gathered, for the
// next batches: the caller must hold no reference to them, nor to their
// buffers, afterwards (an aggregation that has added b's values into its
// own state). Other vectors of b are left alone.
func (s *Scanner) Recycle(b *Batch) {
	for _, v := range b.gathered {
		s.spare.Put(v)
	}
	b.gathered = nil
}

// Recyclable reports whether b holds vectors that Recycle would take back.
func Recyclable(b *Batch) bool { return len(b.gathered) > 0 }

// gatherInto returns a vector to gather rows into: a recycled one, or new.
func (s *Scanner) gatherInto() *vector.Vector {
	if v, ok := s.spare.Get().(*vector.Vector); ok {
		return v
	}
	return &vector.Vector{}
}

func (s *Scanner) finish() error {
	s.done = true
	s.cancel()
	s.wg.Wait()
	if s.err != nil {
		return s.err
	}
	if err := s.parent.Err(); err != nil {
		return err
	}
	return io.EOF
}

// fileBinding resolves column names for one file.
type fileBinding struct {
	s        *Scanner
	fileIdx  int
	f        *file.File
	part     map[string]any
	fields   map[string]*schema.Field // file fields by table column name / path
	needed   []string                 // file columns to read, in vector order
	index    map[string]int
	widen    map[string]bool // INT32 in this file, INT64 in the table
	missing  map[string]bool
	partCols map[string]bool
	// phys maps a column to its path in the file where they differ
	// (Delta column mapping).
	phys map[string]string
	// conform marks nested Delta columns, whose vectors are brought to the
	// table's shape (struct fields added or dropped since the file).
	conform map[string]bool
	// err is a file column the table cannot read as its type.
	err error
}

func (s *Scanner) bindFile(fi int, f *file.File) *fileBinding {
	b := &fileBinding{s: s, fileIdx: fi, f: f, part: s.t.Files[fi].Partition, fields: map[string]*schema.Field{},
		index: map[string]int{}, widen: map[string]bool{}, missing: map[string]bool{}, partCols: map[string]bool{}}
	add := func(name string) {
		if _, ok := b.index[name]; ok || b.missing[name] || b.partCols[name] {
			return
		}
		c := s.t.Column(name)
		if c != nil && c.Partition {
			b.partCols[name] = true
			return
		}
		path, ok := s.t.physicalPath(f, name)
		if !ok {
			b.missing[name] = true
			return
		}
		fields, err := f.ResolveColumns([]string{path})
		if err != nil {
			b.missing[name] = true
			return
		}
		if path != name {
			if b.phys == nil {
				b.phys = map[string]string{}
			}
			b.phys[name] = path
		}
		fl := fields[0]
		if c != nil && c.Field != nil && c.Field.Kind == schema.Primitive && fl.Kind == schema.Primitive &&
			c.Field.Node.Physical == format.Int64 && fl.Node.Physical == format.Int32 {
			b.widen[name] = true
		}
		if s.t.delta != nil && c != nil && c.Field != nil && b.err == nil {
			if err := deltaCompatible(c.Field, fl); err != nil {
				b.err = fmt.Errorf("%s: column %q: %s: %w", s.t.Path, name, f.Name(), err)
			}
		}
		if s.t.delta != nil && c != nil && c.Field != nil && c.Field.Kind != schema.Primitive {
			if b.conform == nil {
				b.conform = map[string]bool{}
			}
			b.conform[name] = true
		}
		b.fields[name] = fl
		b.index[name] = len(b.needed)
		b.needed = append(b.needed, name)
	}
	for _, c := range s.req.Columns {
		add(c)
	}
	if s.filter != nil {
		for _, c := range Columns(nil, s.filter) {
			add(c)
		}
	}
	return b
}

func (b *fileBinding) column(name string) (int, *schema.Field, any, bool) {
	if b.partCols[name] {
		return 0, nil, b.part[name], false
	}
	if b.missing[name] {
		return 0, nil, nil, false
	}
	return b.index[name], b.fields[name], nil, true
}

// fileMayMatch decides from partition values alone whether a file can hold
// matching rows.
func (s *Scanner) fileMayMatch(b *fileBinding) bool {
	return s.partitionMayMatch(b, s.filter)
}

func (s *Scanner) partitionMayMatch(b *fileBinding, p Predicate) bool {
	switch x := p.(type) {
	case And:
		for _, t := range x.Terms {
			if !s.partitionMayMatch(b, t) {
				return false
			}
		}
		return true
	case Or:
		for _, t := range x.Terms {
			if s.partitionMayMatch(b, t) {
				return true
			}
		}
		return false
	case Not:
		return true
	}
	name := Columns(nil, p)[0]
	if !b.partCols[name] && !b.missing[name] {
		return true
	}
	var truth, known = vector.NewBitmap(1, false), vector.NewBitmap(1, false)
	compile(p, b).eval(nil, 1, truth, known)
	return truth.Get(0)
}

// rowGroupMayMatch decides from column chunk statistics whether a row
// group can hold matching rows.
func (s *Scanner) rowGroupMayMatch(b *fileBinding, f *file.File, rg int, p Predicate) bool {
	switch x := p.(type) {
	case And:
		for _, t := range x.Terms {
			if !s.rowGroupMayMatch(b, f, rg, t) {
				return false
			}
		}
		return true
	case Or:
		for _, t := range x.Terms {
			if s.rowGroupMayMatch(b, f, rg, t) {
				return true
			}
		}
		return false
	case Not:
		return true
	}
	name := Columns(nil, p)[0]
	_, fl, _, ok := b.column(name)
	if !ok {
		return s.partitionMayMatch(b, p)
	}
	if fl.Kind != schema.Primitive {
		return true
	}
	leaf := compile(p, b).(*leafEval)
	if leaf.byValue || leaf.ci.dom == domNone {
		return true
	}
	cc, err := f.ColumnChunk(rg, fl.Node.Column)
	if err != nil || cc.MetaData == nil {
		return true // the read reports the error
	}
	ci := describe(fl.Node)
	cs := chunkStats(ci, cc.MetaData.Statistics, cc.MetaData.NumValues)
	if fl.Node.MaxRep > 0 {
		cs.values = -1 // levels, not rows: "all null" cannot be told
	}
	return mayMatch(ci, p, leaf.bounds, cs)
}

// run reads one row group, filters it and sends its batches.
func (s *Scanner) run(u *unit) {
	defer func() {
		if !s.req.Unordered {
			close(u.out)
		}
		if u.mem > 0 {
			s.mem.release(u.mem)
		}
	}()
	send := func(r result) bool {
		select {
		case u.out <- r:
			return true
		case <-s.ctx.Done():
			return false
		}
	}
	// Deferred after the close, so that it runs before it: the error is
	// sent while the unit's channel is still open.
	defer s.recoverInternal(send)
	if testHookRunUnit != nil {
		testHookRunUnit(u)
	}
	if err := s.runUnit(u, send); err != nil {
		send(result{err: err})
	}
}

// testHookRunUnit, set by tests, runs before each unit is read (to force a
// panic in a worker).
var testHookRunUnit func(*unit)

// recoverInternal turns a panic in a scan goroutine (a bug, or a file
// that gets past every check) into the scan's error, instead of a crash of
// the whole program: a panic in a goroutine cannot be recovered by the
// caller of Next. With send, the error also goes to the unit's consumer.
func (s *Scanner) recoverInternal(send func(result) bool) {
	if p := recover(); p != nil {
		err := fmt.Errorf("carquet: internal error: %v\n%s", p, debug.Stack())
		s.fail(err)
		if send != nil {
			send(result{err: err})
		}
	}
}

func (s *Scanner) runUnit(u *unit, send func(result) bool) error {
	f, err := s.t.File(u.file)
	if err != nil {
		return err
	}
	b := s.bindFile(u.file, f)
	if b.err != nil {
		return b.err
	}
	var eval evaluator
	var rowRanges ranges
	var pc pageCounter // page indexes read for pruning, then for counting
	if s.filter != nil {
		eval = compile(s.filter, b)
		if !s.req.NoPruning {
			ok, err := s.bloomMayMatch(b, f, u.rg, s.filter, map[int]*bloom.Filter{})
			if err != nil {
				return err
			}
			// A split row group is counted once, by its first span.
			counts := !u.span || u.from == 0
			if !ok {
				if counts {
					atomic.AddInt64(&s.stats.RowGroupsPrunedByBloom, 1)
				}
				return nil
			}
			if rowRanges, err = s.pageRanges(b, f, u.rg, s.filter, &pc); err != nil {
				return err
			}
			if counts {
				atomic.AddInt64(&s.stats.Pages, pc.pages)
				atomic.AddInt64(&s.stats.PagesPruned, pc.pruned)
			}
			if rowRanges != nil && len(rowRanges) == 0 {
				return nil
			}
		}
	}
	if u.span {
		all := f.Meta.RowGroups[u.rg].NumRows
		rowRanges = intersect(rowRanges, ranges{{Start: u.from, End: u.to}}, all)
		if len(rowRanges) == 0 {
			return nil
		}
	}
	// Rows a deletion vector removes are taken out: a few by cutting them
	// out of the row ranges (the reader skips them), more by clearing them
	// from each batch's selection. The vector is loaded when the scan
	// first reaches the file.
	del, err := s.t.deletions(u.file)
	if err != nil {
		return err
	}
	base := rowGroupStart(f, u.rg)
	if del != nil {
		var cut bool
		if rowRanges, cut = cutDeleted(rowRanges, del, base, f.Meta.RowGroups[u.rg].NumRows); cut {
			del = nil
			if rowRanges != nil && len(rowRanges) == 0 {
				return nil
			}
		}
	}
	if s.filter != nil && !s.req.NoPruning && len(s.cols) == 0 && del == nil {
		// COUNT(*): pages that certainly pass are counted, not decoded.
		var more bool
		if rowRanges, more, err = s.countSure(u, f, b, rowRanges, &pc, send); err != nil || !more {
			return err
		}
		if rowRanges != nil && len(rowRanges) == 0 {
			return nil
		}
	}
	// A remote file's chunks (or the pages left after pruning) are asked
	// for together, before the first is read.
	s.prefetch(b, f, u.rg, rowRanges)
	var rangeMap map[int][]file.RowRange
	if rowRanges != nil {
		rangeMap = map[int][]file.RowRange{u.rg: rowRanges}
	}
	// Late materialization: the filter's columns are decoded first; the
	// other columns only for batches where some row matched.
	filterCols, restCols := b.split()
	// Columns come back coded where their pages are dictionary encoded:
	// those the caller asked so, and the filter's string columns, whose
	// terms are then evaluated once per dictionary entry (codedEval).
	// With a filter, both readers reuse their vectors from batch to
	// batch: the rows that pass are gathered from them (or, when all
	// pass, copied). Without one, the vectors read are handed on.
	open := func(cols []string, codes func(c string) bool, fresh bool) (*file.Reader, error) {
		if len(cols) == 0 {
			return nil, nil
		}
		var coded []string
		for _, c := range cols {
			if codes(c) && !b.conform[c] {
				coded = append(coded, b.physical(c))
			}
		}
		mapped := make([]string, len(cols))
		for i, c := range cols {
			mapped[i] = b.physical(c)
		}
		return f.NewReader(file.ReaderOptions{Columns: mapped, Codes: coded, BatchSize: s.req.BatchSize, RowGroups: []int{u.rg}, Fresh: fresh, Ranges: rangeMap, Stats: &s.io})
	}
	if len(b.needed) == 0 {
		return s.constantRows(u, f, b, eval, rowRanges, del, base, send)
	}
	fr, err := open(filterCols, func(c string) bool { return b.fields[c] != nil && b.fields[c].Kind == schema.Primitive }, false)
	if err != nil {
		return err
	}
	if fr != nil {
		defer fr.Close()
	}
	rr, err := open(restCols, func(c string) bool { return slices.Contains(s.req.Codes, c) }, len(filterCols) == 0)
	if err != nil {
		return err
	}
	if rr != nil {
		// rr is not read to its end: it stops when fr ends. Closing it
		// gives its page and decompression buffers back for the next unit.
		defer rr.Close()
	}
	// Filter columns read coded for the filter that the caller wants
	// plain are decoded once the rows are chosen.
	var decode []int
	for _, c := range filterCols {
		if slices.Contains(s.req.Columns, c) && !slices.Contains(s.req.Codes, c) {
			decode = append(decode, b.index[c])
		}
	}
	// reused lists the columns returned from reused vectors, copied
	// when no row is dropped.
	var reused []int
	if fr == nil {
		fr, rr = rr, nil
		filterCols, restCols = restCols, nil
	} else {
		for _, c := range filterCols {
			if slices.Contains(s.req.Columns, c) {
				reused = append(reused, b.index[c])
			}
		}
		for _, c := range restCols {
			reused = append(reused, b.index[c])
		}
	}
	var idx []int32
	var dels []uint64
	var truthBuf, knownBuf vector.Bitmap
	cols := make([]*vector.Vector, len(b.needed))
	for {
		if s.ctx.Err() != nil {
			return nil
		}
		fb, err := fr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		n := fb.NumRows
		atomic.AddInt64(&s.stats.RowsDecoded, int64(n))
		for i, v := range fb.Columns {
			cols[b.index[filterCols[i]]] = v
		}
		cnt := n
		var truth vector.Bitmap
		if eval != nil {
			// The bitmaps of the batch before are reused (cleared): they
			// only choose rows, nothing keeps them.
			truthBuf, knownBuf = truthBuf[:0].Grow(n), knownBuf[:0].Grow(n)
			truth = truthBuf
			eval.eval(cols, n, truth, knownBuf)
			cnt = truth.Count(n)
		}
		if del != nil {
			lo := uint64(base + fb.FirstRow)
			if dels = del.AppendRange(dels[:0], lo, lo+uint64(n)); len(dels) > 0 {
				if truth == nil {
					truth = vector.NewBitmap(n, true)
				}
				for _, r := range dels {
					truth.Clear(int(r - lo))
				}
				cnt = truth.Count(n)
			}
		}
		if rr != nil {
			if cnt == 0 {
				if _, err := rr.Skip(); err != nil {
					return err
				}
				continue
			}
			rb, err := rr.Next()
			if err != nil {
				return err
			}
			for i, v := range rb.Columns {
				cols[b.index[restCols[i]]] = v
			}
		}
		if cnt == 0 {
			continue
		}
		outCols := cols
		var gathered []*vector.Vector
		if cnt < n && len(s.cols) == 0 {
			n = cnt // only the count matters (COUNT(*)): nothing to gather
		} else if cnt < n {
			idx = truth.Indices(idx[:0], n)
			outCols = make([]*vector.Vector, len(cols))
			for i, v := range cols {
				if len(reused) > 0 && !slices.Contains(reused, i) {
					continue // read for the filter only: not returned
				}
				outCols[i] = s.gatherInto()
				vector.Take(outCols[i], v, idx)
			}
			gathered = outCols
			n = cnt
		} else if len(reused) > 0 {
			idx = identity(idx[:0], n)
			outCols = slices.Clone(cols)
			for _, i := range reused {
				outCols[i] = s.gatherInto()
				vector.Take(outCols[i], cols[i], idx)
				gathered = append(gathered, outCols[i])
			}
		}
		for _, i := range decode {
			outCols[i].Decode() // a copy (taken or cloned above)
		}
		out := &Batch{Columns: make([]*vector.Vector, len(s.cols)), NumRows: n}
		for i, c := range s.req.Columns {
			out.Columns[i] = b.output(c, outCols, n)
		}
		// Only the gathered vectors handed out as they are may be given
		// back: one another output was made from (widened, conformed)
		// may still share its buffers.
		for _, v := range gathered {
			if v != nil && slices.Contains(out.Columns, v) {
				out.gathered = append(out.gathered, v)
			}
		}
		atomic.AddInt64(&s.stats.RowsOutput, int64(n))
		if !send(result{batch: out}) {
			return nil
		}
	}
}

// identity returns dst holding 0..n-1.
func identity(dst []int32, n int) []int32 {
	for i := range n {
		dst = append(dst, int32(i))
	}
	return dst
}

// constantRows serves a unit whose output needs no file column (only
// partition columns or columns the file lacks): the rows are counted from
// the metadata and the values are constants.
func (s *Scanner) constantRows(u *unit, f *file.File, b *fileBinding, eval evaluator, rowRanges ranges, del *dv.Bitmap, base int64, send func(result) bool) error {
	all := f.Meta.RowGroups[u.rg].NumRows
	if u.span {
		rowRanges = intersect(rowRanges, ranges{{Start: u.from, End: u.to}}, all)
	}
	n := rowCount(rowRanges, all) - deletedIn(del, base, rowRanges, all, nil)
	for n > 0 {
		k := int(min(n, int64(s.req.BatchSize)))
		n -= int64(k)
		if eval != nil {
			truth, known := vector.NewBitmap(k, false), vector.NewBitmap(k, false)
			eval.eval(nil, k, truth, known)
			if k = truth.Count(k); k == 0 {
				continue
			}
		}
		out := &Batch{Columns: make([]*vector.Vector, len(s.cols)), NumRows: k}
		for i, c := range s.req.Columns {
			out.Columns[i] = b.output(c, nil, k)
		}
		atomic.AddInt64(&s.stats.RowsOutput, int64(k))
		if !send(result{batch: out}) {
			return nil
		}
	}
	return nil
}

// split divides the file columns to read into those the filter needs and
// the rest.
func (b *fileBinding) split() (filterCols, rest []string) {
	inFilter := map[string]bool{}
	if b.s.filter != nil {
		for _, c := range Columns(nil, b.s.filter) {
			inFilter[c] = true
		}
	}
	for _, c := range b.needed {
		if inFilter[c] {
			filterCols = append(filterCols, c)
		} else {
			rest = append(rest, c)
		}
	}
	return filterCols, rest
}

// physical is the name of table column c in the file (Delta column
// mapping renames them).
func (b *fileBinding) physical(c string) string {
	if p, ok := b.phys[c]; ok {
		return p
	}
	return c
}

// output returns the vector of table column c for a batch of n rows.
func (b *fileBinding) output(c string, cols []*vector.Vector, n int) *vector.Vector {
	if b.partCols[c] {
		if col := b.s.t.Column(c); col.Field != nil {
			return constFieldVector(col.Field, b.part[c], n)
		}
		return constVector(b.s.t.Column(c), b.part[c], n)
	}
	if b.missing[c] {
		col, _ := b.s.t.resolve(c)
		return nullVector(col, n)
	}
	v := cols[b.index[c]]
	if b.conform[c] {
		col := b.s.t.Column(c)
		return b.s.t.conform(col.Field, b.s.t.delta.snap.Field(col.Name).Type, b.fields[c], v)
	}
	if b.widen[c] {
		w := &vector.Vector{Kind: vector.Int64, Len: v.Len, Valid: v.Valid, Int64s: make([]int64, v.Len)}
		for i, x := range v.Int32s[:v.Len] {
			w.Int64s[i] = int64(x)
		}
		return w
	}
	return v
}

// constVector is a partition column's vector: its value in every row.
func constVector(c *Column, val any, n int) *vector.Vector {
	var v *vector.Vector
	if c.PartitionType == PartitionInt64 {
		v = &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
		if x, ok := val.(int64); ok {
			for i := range v.Int64s {
				v.Int64s[i] = x
			}
		}
	} else {
		v = &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: make([]int32, n+1)}
		if x, ok := val.(string); ok {
			for i := 0; i < n; i++ {
				v.Data = append(v.Data, x...)
				v.Offsets[i+1] = int32(len(v.Data))
			}
		}
	}
	if val == nil {
		v.Valid = vector.NewBitmap(n, false)
	}
	return v
}

// nullVector is a column the file does not have: NULL in every row.
func nullVector(c *Column, n int) *vector.Vector {
	v := &vector.Vector{Len: n, Valid: vector.NewBitmap(n, false)}
	if c == nil || c.Field == nil {
		v.Kind = vector.Int64
		v.Int64s = make([]int64, n)
		return v
	}
	fillNull(v, c.Field, n)
	return v
}

func fillNull(v *vector.Vector, f *schema.Field, n int) {
	v.Len = n
	v.Valid = vector.NewBitmap(n, false)
	switch f.Kind {
	case schema.Primitive:
		v.Kind = file.KindOf(f.Node.Physical)
		v.Width = f.Node.TypeLength
		switch v.Kind {
		case vector.Bool:
			v.Bools = make([]bool, n)
		case vector.Int32:
			v.Int32s = make([]int32, n)
		case vector.Int64:
			v.Int64s = make([]int64, n)
		case vector.Int96:
			v.Int96s = make([][12]byte, n)
		case vector.Float32:
			v.Float32s = make([]float32, n)
		case vector.Float64:
			v.Float64s = make([]float64, n)
		case vector.FixedLenByteArray:
			v.Data = make([]byte, n*v.Width)
		case vector.ByteArray:
			v.Offsets = make([]int32, n+1)
		}
	case schema.Struct:
		v.Kind = vector.Struct
		for _, c := range f.Children {
			cv := &vector.Vector{}
			fillNull(cv, c, n)
			v.Children = append(v.Children, cv)
		}
	default:
		v.Kind = vector.List
		if f.Kind == schema.Map {
			v.Kind = vector.Map
		}
		v.Offsets = make([]int32, n+1)
		for _, c := range f.Children {
			cv := &vector.Vector{}
			fillNull(cv, c, 0)
			v.Children = append(v.Children, cv)
		}
	}
}
