package writer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/journal"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

func appendSchema(t testing.TB) *schema.Schema {
	t.Helper()
	sch, err := NewSchema(Int64("id").Required(), String("s"), List("l", Int32("e")))
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// appendBatch makes n rows whose ids run from first.
func appendBatch(first int64, n int) []*vector.Vector {
	id := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	s := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: []int32{0}}
	el := &vector.Vector{Kind: vector.Int32}
	l := &vector.Vector{Kind: vector.List, Len: n, Offsets: []int32{0}, Children: []*vector.Vector{el}}
	for i := range n {
		x := first + int64(i)
		id.Int64s[i] = x
		s.Data = strconv.AppendInt(s.Data, x, 10)
		s.Offsets = append(s.Offsets, int32(len(s.Data)))
		for k := range int(x % 3) {
			el.Int32s = append(el.Int32s, int32(x)+int32(k))
		}
		el.Len = len(el.Int32s)
		l.Offsets = append(l.Offsets, int32(el.Len))
	}
	return []*vector.Vector{id, s, l}
}

// ids reads the id column of a file.
func ids(t testing.TB, f *file.File) []int64 {
	t.Helper()
	var out []int64
	for _, row := range readRows(t, f, 0) {
		out = append(out, row[0].(int64))
	}
	return out
}

func createWith(t testing.TB, path string, sch *schema.Schema, cols []*vector.Vector, opts ...Option) {
	t.Helper()
	w, err := Create(path, sch, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(cols); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	sch := appendSchema(t)
	createWith(t, path, sch, appendBatch(0, 100), WithKeyValue("owner", "a"), WithRowGroupRows(60), WithCreatedBy("parquet-mr version 1.7.0"))
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// A reader that opened the file before the append keeps its snapshot.
	early, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer early.Close()

	w, err := Append(path, nil, WithCompression(format.Zstd), WithKeyValue("owner", "b"), WithBloomFilter(100, 0.01), WithRowGroupRows(70))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(appendBatch(100, 150)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if journal.Active(path) {
		t.Errorf("journal left after commit")
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Only the old footer was overwritten: the early reader holds the
	// file open, so the last row group was not merged.
	if keep := early.Size() - 8 - int64(len(early.FooterBytes())); !bytes.Equal(after[:keep], before[:keep]) {
		t.Errorf("the append changed bytes of the old row groups")
	}
	if got := ids(t, early); len(got) != 100 {
		t.Errorf("the early reader sees %d rows", len(got))
	}
	f, err := file.OpenFile(path, file.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := ids(t, f)
	if len(got) != 250 {
		t.Fatalf("%d rows after the append", len(got))
	}
	for i, x := range got {
		if x != int64(i) {
			t.Fatalf("row %d has id %d", i, x)
		}
	}
	compareRows(t, rowsOf(mustFields(t, sch), appendBatch(0, 250)), readRows(t, f, 0))
	verifyMetadata(t, f)
	if v, _ := f.KeyValue("owner"); v != "b" {
		t.Errorf("owner = %q", v)
	}
	if f.CreatedBy() != "parquet-mr version 1.7.0" {
		t.Errorf("created_by %q: the old writer's name must stay", f.CreatedBy())
	}
	if n := len(f.Meta.RowGroups); n != 5 {
		t.Errorf("%d row groups", n)
	}
	for i, rg := range f.Meta.RowGroups {
		if rg.Ordinal.Value != int16(i) {
			t.Errorf("row group %d has ordinal %d", i, rg.Ordinal.Value)
		}
	}
	if f.Meta.RowGroups[4].Columns[0].MetaData.Codec != format.Zstd || f.Meta.RowGroups[0].Columns[0].MetaData.Codec != format.Uncompressed {
		t.Errorf("codecs of old and new row groups")
	}

	// Abort leaves the file as it was.
	w, err = Append(path, sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(appendBatch(250, 10)); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(path)
	if !bytes.Equal(again, after) {
		t.Errorf("Abort changed the file (%d bytes, was %d)", len(again), len(after))
	}
	if journal.Active(path) {
		t.Errorf("journal left after Abort")
	}
}

func mustFields(t testing.TB, s *schema.Schema) []*schema.Field {
	t.Helper()
	f, err := s.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAppendSchemaMismatch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	createWith(t, path, appendSchema(t), appendBatch(0, 5))
	cases := []struct {
		fields []Field
		want   string
	}{
		{[]Field{Int32("id").Required(), String("s"), List("l", Int32("e"))}, `column "id" is INT64 in the file, INT32 in the rows`},
		{[]Field{Int64("id").Required(), Binary("s"), List("l", Int32("e"))}, `column "s" is BYTE_ARRAY STRING in the file, BYTE_ARRAY in the rows`},
		{[]Field{Int64("id"), String("s"), List("l", Int32("e"))}, `field "id" is required primitive in the file, optional primitive`},
		{[]Field{Int64("id").Required(), String("s")}, "the file has 3 columns, the rows have 2"},
		{[]Field{Int64("id").Required(), String("t"), List("l", Int32("e"))}, `column 1 is "s" in the file, "t" in the rows`},
		{[]Field{Int64("id").Required(), String("s"), List("l", Int32("e").Required())}, `field "l.list.element" is optional primitive in the file, required primitive`},
	}
	for _, c := range cases {
		sch, err := NewSchema(c.fields...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Append(path, sch)
		if !errors.Is(err, ErrSchemaMismatch) || !errors.Is(err, file.ErrSchemaMismatch) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
	// The failed appends left nothing behind and the lock is free.
	if journal.Active(path) {
		t.Errorf("journal left by a refused append")
	}
	w, err := Append(path, appendSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteBatch(appendBatch(5, 5))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRecoverJournal simulates a crash after some appended bytes: the file
// has a journal and a torn tail.
func TestRecoverJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	createWith(t, path, appendSchema(t), appendBatch(0, 20))
	orig, _ := os.ReadFile(path)
	f, _ := os.Open(path)
	n, crc, err := journal.TailCRC(f, int64(len(orig)))
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := writeJournal(path, journal.Journal{OldSize: int64(len(orig)), TailLen: n, TailCRC: crc}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(bytes.Clone(orig), "torn row group bytes"...), 0o644); err != nil {
		t.Fatal(err)
	}
	// Readers see the committed file without recovering.
	snap, err := OpenCommitted(path, file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, snap.File); len(got) != 20 {
		t.Errorf("snapshot has %d rows", len(got))
	}
	snap.Close()
	// file.OpenFile honours the journal too: it opens the committed file.
	pf, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatalf("the torn file does not open at its committed length: %v", err)
	}
	if got := ids(t, pf); len(got) != 20 {
		t.Errorf("OpenFile sees %d rows, want the 20 committed", len(got))
	}
	pf.Close()
	cut, err := Recover(path)
	if err != nil || !cut {
		t.Fatalf("Recover: %v, %v", cut, err)
	}
	now, _ := os.ReadFile(path)
	if !bytes.Equal(now, orig) {
		t.Errorf("recovered file differs from the original")
	}
	// A journal of another file (its recorded tail differs) is dropped
	// without touching the file.
	if err := writeJournal(path, journal.Journal{OldSize: 10, TailLen: 10, TailCRC: 12345}); err != nil {
		t.Fatal(err)
	}
	if cut, err := Recover(path); err != nil || cut {
		t.Errorf("stale journal: %v %v", cut, err)
	}
	if journal.Active(path) {
		t.Errorf("stale journal not removed")
	}
	now, _ = os.ReadFile(path)
	if !bytes.Equal(now, orig) {
		t.Errorf("a stale journal changed the file")
	}
}

const childEnv = "CARQUET_APPEND_CHILD"

// TestAppendChild is the child process of the crash and concurrency tests:
// it appends batches of batchRows rows with ids first, first+1, ... to the
// file named by the environment, one batch per append.
func TestAppendChild(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		t.Skip("runs as a child process only")
	}
	parts := strings.Split(spec, ",") // path,firstBatch,step,count,batchRows[,maxBufferedTail]
	path := parts[0]
	first, _ := strconv.Atoi(parts[1])
	step, _ := strconv.Atoi(parts[2])
	count, _ := strconv.Atoi(parts[3])
	rows, _ := strconv.Atoi(parts[4])
	if len(parts) > 5 {
		maxBufferedTail, _ = strconv.Atoi(parts[5])
	}
	sch := appendSchema(t)
	fmt.Println("appending") // the parent times its kill from this line
	for k := range count {
		b := first + k*step
		w, err := Append(path, sch, WithRowGroupRows(int64(rows/3+1)), WithPageRowLimit(50), WithBloomFilter(1000, 0.01), WithCompression(format.Snappy))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBatch(appendBatch(int64(b*rows), rows)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func startChild(t *testing.T, spec string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAppendChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+spec)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// startChildReady starts a child and returns a channel closed once the
// child has started appending, so that kills land during appends however
// slowly the machine starts processes, and one closed when it has exited.
func startChildReady(t *testing.T, spec string) (*exec.Cmd, <-chan struct{}, <-chan struct{}) {
	t.Helper()
	return startMarkedChild(t, "TestAppendChild", childEnv+"="+spec, "appending")
}

// startMarkedChild starts the test run as a child with the environment
// variable env ("NAME=value"), and returns a channel closed once the child
// printed a line holding marker, and one closed when it has exited.
func startMarkedChild(t *testing.T, run, env, marker string) (*exec.Cmd, <-chan struct{}, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+run+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), env)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, io.Discard
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		signalled := false
		for sc.Scan() {
			if !signalled && strings.Contains(sc.Text(), marker) {
				close(ready)
				signalled = true
			}
		}
		if !signalled {
			close(ready)
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		pw.Close()
		close(done)
	}()
	return cmd, ready, done
}

// checkBatches checks that the ids are whole batches of batchRows rows,
// each batch's rows together and in order; it returns the batch numbers.
func checkBatches(t testing.TB, got []int64, batchRows int) []int {
	t.Helper()
	if len(got)%batchRows != 0 {
		t.Fatalf("%d rows is not a whole number of %d-row batches", len(got), batchRows)
	}
	var batches []int
	for i := 0; i < len(got); i += batchRows {
		b := got[i] / int64(batchRows)
		for j := range batchRows {
			if got[i+j] != b*int64(batchRows)+int64(j) {
				t.Fatalf("row %d: id %d breaks batch %d", i+j, got[i+j], b)
			}
		}
		batches = append(batches, int(b))
	}
	return batches
}

// TestAppendCrash kills appending child processes at random moments and
// checks that the file always opens with whole appends only. Every other
// child streams its appends (three syncs, kept only once the journal is
// emptied) instead of holding them in memory (kept once they landed).
func TestAppendCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "crash.parquet")
	const rows = 300
	createWith(t, path, appendSchema(t), appendBatch(0, rows))
	rng := rand.New(rand.NewPCG(1, 2))
	next := 1 // next batch number to hand out
	have := 1
	kills, inFlight, torn := 0, 0, 0
	for iter := range 16 {
		buffer := maxBufferedTail
		if iter%2 == 1 {
			buffer = 0
		}
		cmd, ready, done := startChildReady(t, fmt.Sprintf("%s,%d,1,%d,%d,%d", path, next, 1000, rows, buffer))
		select {
		case <-ready:
		case <-time.After(60 * time.Second):
			t.Fatal("the child did not start appending within a minute")
		}
		time.Sleep(time.Duration(rng.IntN(120)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err == nil {
			kills++
		}
		<-done

		// Readers that do not recover see whole appends.
		snap, err := OpenCommitted(path, file.Options{})
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		seen := checkBatches(t, ids(t, snap.File), rows)
		snap.Close()

		// After recovery the plain reader sees the same.
		_, journaled, _ := journal.Read(path)
		if journaled {
			inFlight++
		}
		cut, err := Recover(path)
		if err != nil {
			t.Fatal(err)
		}
		if cut {
			torn++
		}
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatalf("iteration %d: the recovered file does not open: %v", iter, err)
		}
		got := checkBatches(t, ids(t, f), rows)
		verifyMetadata(t, f)
		f.Close()
		if len(got) != len(seen) || len(got) < have {
			t.Fatalf("iteration %d: %d batches before recovery, %d after, %d earlier", iter, len(seen), len(got), have)
		}
		for i, b := range got {
			if b != i {
				t.Fatalf("iteration %d: batch %d at position %d", iter, b, i)
			}
		}
		have = len(got)
		next = have
	}
	t.Logf("%d kills (%d during an append, %d with bytes to cut off), %d batches survived", kills, inFlight, torn, have)
	if have < 3 {
		t.Errorf("only %d batches were ever committed: the children did not get far", have)
	}
}

// TestAppendConcurrent runs appenders in three processes at once: the lock
// serialises them and every append lands whole.
func TestAppendConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "conc.parquet")
	const rows, per, procs = 50, 6, 3
	createWith(t, path, appendSchema(t), appendBatch(0, rows))
	var cmds []*exec.Cmd
	for p := range procs {
		// Process p appends batches 1+p, 1+p+procs, ...
		cmds = append(cmds, startChild(t, fmt.Sprintf("%s,%d,%d,%d,%d", path, 1+p, procs, per, rows)))
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("child: %v: %s", err, c.Stdout)
		}
	}
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := checkBatches(t, ids(t, f), rows)
	if len(got) != 1+procs*per {
		t.Fatalf("%d batches, want %d", len(got), 1+procs*per)
	}
	seen := map[int]bool{}
	for _, b := range got {
		if seen[b] {
			t.Fatalf("batch %d twice", b)
		}
		seen[b] = true
	}
	verifyMetadata(t, f)
}

// TestRewriteUnderLock: Rewrite replaces a file's rows; an append that
// waited for the lock during the rewrite lands in the new file (not the
// replaced one), and a failing fill leaves the old file as it was.
func TestRewriteUnderLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	sch := appendSchema(t)
	createWith(t, path, sch, appendBatch(0, 10))
	read := func() []int64 {
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return ids(t, f)
	}

	appended := make(chan error)
	err := Rewrite(path, sch, func(w *Writer) error {
		go func() {
			a, err := Append(path, nil)
			if err == nil {
				if err = a.WriteBatch(appendBatch(500, 2)); err == nil {
					err = a.Close()
				}
			}
			appended <- err
		}()
		select {
		case err := <-appended:
			return fmt.Errorf("the append did not wait for the rewrite's lock (err %v)", err)
		case <-time.After(200 * time.Millisecond):
		}
		return w.WriteBatch(appendBatch(100, 3))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-appended; err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(read()); got != "[100 101 102 500 501]" {
		t.Fatalf("after the rewrite and the waiting append: ids %s", got)
	}

	boom := errors.New("boom")
	if err := Rewrite(path, sch, func(w *Writer) error {
		if err := w.WriteBatch(appendBatch(7, 1)); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("failing fill: err %v", err)
	}
	if got := fmt.Sprint(read()); got != "[100 101 102 500 501]" {
		t.Fatalf("after a failed rewrite: ids %s", got)
	}
	if journal.Active(path) {
		t.Fatalf("journal left behind")
	}
}

// appendOne appends batch rows from first through Append.
func appendOne(t testing.TB, path string, first int64, n int, opts ...Option) {
	t.Helper()
	appendWith(t, path, appendBatch(first, n), opts...)
}

// appendWith appends cols to the file at path.
func appendWith(t testing.TB, path string, cols []*vector.Vector, opts ...Option) {
	t.Helper()
	w, err := Append(path, nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(cols); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestAppendMergesSmallRowGroups: small appends merge the file's last
// small row groups with their rows, over the old ones, so that the file
// stays the size of its rows written at once; a reader that has the file
// open keeps its row groups (and its snapshot) until it closes it.
func TestAppendMergesSmallRowGroups(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	sch := appendSchema(t)
	createWith(t, path, sch, appendBatch(0, 10))
	for i := range 200 {
		appendOne(t, path, int64(10+i), 1)
	}
	whole := filepath.Join(dir, "whole.parquet")
	createWith(t, whole, sch, appendBatch(0, 210))
	if got, once := fileSize(t, path), fileSize(t, whole); got > once+once/10 {
		t.Errorf("after 200 one-row appends the file has %d bytes, written at once %d", got, once)
	}
	check := func(f *file.File, n int) {
		t.Helper()
		got := ids(t, f)
		if len(got) != n {
			t.Fatalf("%d rows, want %d", len(got), n)
		}
		for i, x := range got {
			if x != int64(i) {
				t.Fatalf("row %d has id %d", i, x)
			}
		}
		verifyMetadata(t, f)
	}
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Meta.RowGroups) != 1 {
		t.Errorf("%d row groups, want 1", len(f.Meta.RowGroups))
	}
	check(f, 210)

	// While f is open, appends leave its row groups where they are.
	for i := range 5 {
		appendOne(t, path, int64(210+i), 1)
	}
	check(f, 210)
	g, err := file.OpenFile(path, file.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Meta.RowGroups) != 6 {
		t.Errorf("%d row groups while a reader had the file open, want 6", len(g.Meta.RowGroups))
	}
	check(g, 215)
	f.Close()
	g.Close()

	// Once no one reads it, the next append merges all of them.
	appendOne(t, path, 215, 1)
	createWith(t, whole, sch, appendBatch(0, 216))
	if got, once := fileSize(t, path), fileSize(t, whole); got > once+once/10 {
		t.Errorf("after the merge the file has %d bytes, written at once %d", got, once)
	}
	f, err = file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(f.Meta.RowGroups) != 1 {
		t.Errorf("%d row groups, want 1", len(f.Meta.RowGroups))
	}
	check(f, 216)
}

// TestAppendMergeLimit: only row groups smaller than the writer's row
// group size together are merged, and an empty append writes nothing.
func TestAppendMergeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	createWith(t, path, appendSchema(t), appendBatch(0, 250), WithRowGroupRows(100))
	rowGroups := func() []int64 {
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var n []int64
		for _, rg := range f.Meta.RowGroups {
			n = append(n, rg.NumRows)
		}
		if got := ids(t, f); len(got) != int(f.NumRows()) || got[len(got)-1] != int64(len(got)-1) {
			t.Fatalf("ids %v", got)
		}
		return n
	}
	appendOne(t, path, 250, 10, WithRowGroupRows(100))
	if got := fmt.Sprint(rowGroups()); got != "[100 100 60]" {
		t.Errorf("row groups %s, want [100 100 60]", got)
	}
	appendOne(t, path, 260, 50, WithRowGroupRows(100))
	if got := fmt.Sprint(rowGroups()); got != "[100 100 100 10]" {
		t.Errorf("row groups %s, want [100 100 100 10]", got)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Append(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Errorf("an append of no rows changed the file")
	}
}

// TestAppendWhileReading: readers open and read the file while appends
// run, merging or not: each sees whole appends, in order.
func TestAppendWhileReading(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	const rows = 3
	createWith(t, path, appendSchema(t), appendBatch(0, rows))
	stop := make(chan struct{})
	errc := make(chan error, 2)
	for range 2 {
		go func() {
			seen := 0
			for {
				select {
				case <-stop:
					errc <- nil
					return
				default:
				}
				f, err := file.OpenFile(path, file.Options{}, seen%2 == 0)
				if err != nil {
					errc <- err
					return
				}
				r, err := f.NewReader(file.ReaderOptions{Columns: []string{"id"}})
				if err != nil {
					f.Close()
					errc <- err
					return
				}
				var got []int64
				for {
					b, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						f.Close()
						errc <- err
						return
					}
					got = append(got, b.Columns[0].Int64s[:b.NumRows]...)
				}
				f.Close()
				if len(got)%rows != 0 || len(got) < seen {
					errc <- fmt.Errorf("a reader saw %d rows after %d", len(got), seen)
					return
				}
				for i, x := range got {
					if x != int64(i) {
						errc <- fmt.Errorf("row %d has id %d", i, x)
						return
					}
				}
				seen = len(got)
			}
		}()
	}
	for i := 1; i < 150; i++ {
		appendOne(t, path, int64(i*rows), rows)
	}
	close(stop)
	for range 2 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
}

// TestAppendDamagedTail: a last row group that does not read (a page that
// fails its CRC) is not merged: the append adds its rows after it, as
// appends did before merging.
func TestAppendDamagedTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	createWith(t, path, appendSchema(t), appendBatch(0, 10))
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := f.Chunk(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	start, n, err := ch.ByteRange()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[start+n-1] ^= 0xff // the last byte of the id column's last page
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	appendOne(t, path, 10, 1)
	g, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if k := g.NumRowGroups(); k != 2 || g.NumRows() != 11 {
		t.Errorf("%d row groups, %d rows after appending to a damaged file", k, g.NumRows())
	}
}
