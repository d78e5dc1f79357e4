// Package writer builds Parquet files: a schema builder (flat and nested
// fields, every physical and logical type), column writers that shred
// nested values into definition and repetition levels, choose an encoding
// per column (dictionary first, falling back when the dictionary grows too
// large), cut and compress pages, and compute statistics, page indexes and
// bloom filters; row groups; the footer; and crash-safe appends to an
// existing file.
//
// It sits above parquet/format, parquet/schema, parquet/encoding,
// parquet/compress and parquet/bloom (and simd, through them), and uses
// parquet/file to read the footer of a file it appends to; scan/ and sqlplan/ use it for INSERT and CREATE
// TABLE. It imports nothing above parquet/.
//
// # Writing
//
//	sch, _ := writer.NewSchema(
//		writer.Timestamp("ts", writer.Micros, true).Required(),
//		writer.String("category"),
//		writer.List("tags", writer.String("tag")),
//	)
//	w, _ := writer.Create("events.parquet", sch, writer.WithCompression(format.Zstd))
//	_ = w.WriteBatch(columns) // []*vector.Vector, one per top-level field
//	_ = w.Close()
//
// Sinks: Create writes a file under a temporary name (".NAME.tmp-N",
// locked while its writer lives) and renames it into place on Close;
// RemoveStaleTemps removes those left by writers that died. New writes to
// any io.Writer; Buffer is an in-memory sink that parquet/file can open.
// A write that fails (a full disk) leaves no file under the final name,
// and an append that fails is rolled back to the old end of the file.
//
// # Defaults
//
// Dictionary encoding (RLE_DICTIONARY data pages after a PLAIN dictionary
// page) for every type but BOOLEAN, falling back to the column's value
// encoding once the dictionary's PLAIN size passes 1 MiB, or at once when
// the first page shows that the dictionary and its indices are not smaller
// than PLAIN (values that hardly repeat; that page is then written
// without the dictionary, as parquet-mr does). Value encoding
// PLAIN; for BOOLEAN RLE, or PLAIN on pages where its bit-packing is
// smaller (values without runs); for compressed INT32 and INT64 columns
// DELTA_BINARY_PACKED on pages where it takes at most 3/4 of PLAIN's bytes
// (sorted timestamps, ids in a narrow range: smaller files that read
// faster), else PLAIN for the rest of the chunk. Data page v1; pages of about 1 MiB of encoded
// values and at most 20,000 rows, always cut at row boundaries. Row groups
// of at most 1,048,576 rows or 128 MiB buffered. No compression. Column
// statistics and the page index (ColumnIndex and OffsetIndex) on; page
// header statistics off; BYTE_ARRAY bounds truncated to 64 bytes. Bloom
// filters on request. A CRC32 in every page header (data pages v1 and v2,
// dictionary pages; WithPageChecksum(false) leaves it out). Every option
// has a per-column form taking a dotted path (a leaf, or a group for every leaf below it).
//
// # Statistics
//
// min_value/max_value follow each column's sort order: signed or unsigned
// integers by the INTEGER annotation, decimals as signed numbers
// (two's complement of any length for byte arrays), byte-wise for strings
// and binary, numbers for FLOAT16; floats leave NaNs out (counted in
// nan_count) and write a zero minimum as -0.0 and a zero maximum as +0.0.
// INT96, INTERVAL, GEOMETRY and GEOGRAPHY have no order and get no
// min/max. The deprecated min/max fields are written only for signed
// numeric columns. distinct_count is the dictionary size when the whole
// chunk is dictionary-encoded (not for floats, whose dictionary keys are
// bit patterns).
//
// # Appending
//
// Append adds rows to an existing file. Its new row groups, their bloom
// filters and page indexes, and a new footer (the kept row groups'
// metadata plus the new) are written from a cut: over the old footer, or,
// when the file's last row groups are small (together under the row
// group size and 1 MiB) and no reader has the file open, from the end of
// the last byte the other row groups refer to, with those small row
// groups read and written again ahead of the new rows, as one. So a file
// filled by many small appends stays the size of its rows written at
// once, with one footer. The steps:
//
//  1. Lock: open the file read-write and take flock(LOCK_EX) on it, so
//     appenders in any process run one at a time; and take the
//     appenders' mark, an open-file-description lock on a byte far past
//     the end (journal.MarkAppending), which tells readers that an
//     appender runs (the kernel drops it when the process dies).
//  2. Recover: if the journal <file>.carquet-journal records an append,
//     an earlier append was interrupted. If the journal matches the file
//     (the CRC of the bytes before its cut) and says that the append
//     landed (it records the new length and the CRC-32C of the bytes
//     from the cut, and the file has both), sync the file: the append is
//     kept. If it matches but did not land, write its saved bytes back at
//     the cut, truncate the file to the old length and sync it. Then
//     empty the journal and sync it.
//  3. Merge: when the last row groups are small and the readers' lock
//     (below) is free, read their rows into the writer.
//  4. Collect: when the first bytes are about to be written, choose the
//     cut (from the merged row groups only if the readers' lock can be
//     taken exclusive now, at Close), and keep the bytes from the cut to
//     the old end. The new row groups, bloom filters, page indexes and
//     footer are held in memory, up to 4 MiB.
//  5. Journal, at Close (or when the held bytes pass 4 MiB): write the
//     journal (old length, cut, the bytes from the cut to the old end,
//     the CRC of the bytes before the cut, its own CRC; and, at Close,
//     the new length and the CRC-32C of all the new bytes) in place and
//     sync it (and its folder, the first time the journal file is made).
//     From here the journal says "the committed file is the bytes before
//     the cut and the saved ones, unless the append landed". A journal
//     cut short by a crash does not parse and counts as none: nothing
//     was overwritten yet.
//  6. Write the held bytes from the cut (and, for a large append, stream
//     the rest); a file that merged row groups may end up shorter and is
//     truncated to its new end. Sync the file.
//  7. Commit. An append whose journal records its new bytes has landed
//     with the sync of step 6: that sync is its commit. It empties the
//     journal without a sync and Close returns; two syncs in all. A
//     large append (its journal could not record bytes not yet made)
//     commits by emptying the journal and syncing it: three syncs. So
//     does every append where the appenders' mark is missing (no
//     open-file-description locks), so that readers there never meet
//     the journal of a committed append. An append of no rows writes
//     nothing.
//
// A crash before the commit leaves the journal, and the next append (or
// Recover) puts the old bytes back unless all the new ones are in the
// file: none of the rows, or, for an append that landed but was killed
// before it returned, all of them. A crash after it leaves the complete
// new file, perhaps with the journal back (its emptying lost with the
// machine): that journal says the append landed, and it is kept: all
// of the rows. Rewrite, LockFile and Recover, which may replace the
// file, sync the journal's emptying first, so that a journal never comes
// back to speak for a newer file.
//
// Readers (parquet/file.OpenFile) read the file as committed. While a
// journal that matches records an append, they test the appenders' mark
// (F_OFD_GETLK, which takes no lock): while an appender runs, or when
// the append did not land, the file is the bytes before its cut and
// then its saved bytes, which no append changes under them; when the
// append landed and its appender is gone, it is the file after it (they
// sync the file first, as recovery would, and check that the journal did
// not change meanwhile). Without one, they read the size, then the
// footer, and check that still no journal exists (or only the same one
// of an append that landed) and the size held: an append writes its
// journal before it overwrites the footer, and one that committed in
// between left the file longer (an append that may run while readers
// have the file open pads its file past the old length). They never
// write a byte or take a lock for this.
//
// Row groups are overwritten only under the readers' lock: an
// open-file-description lock (fcntl F_OFD_SETLK, Linux) on a byte far
// past the file's end, which every reader that opens the file through
// parquet/file holds shared until it closes the file, and which an
// append merging row groups takes exclusive for the time of steps 4 to 7
// (never waiting for it: with a reader present, the append writes over
// the old footer only, and the small row groups it read stay as bytes no
// footer refers to, for a later append to reclaim). Where such locks are
// missing, appends never merge. Programs that read the file without
// parquet/file, while carquet appends to it, should read its footer and
// pages in one go.
//
// The lock is flock(2) from golang.org/x/sys/unix, the one import from
// outside parquet/ (appending is not available where flock is missing).
// Rewrite replaces a file under its lock: appenders that waited for the
// lock find the path now names another file and start again on it. A file
// replaced by a plain Create (a rename) while an appender holds the old
// one's lock is not protected: the appender writes to the old inode.
package writer
