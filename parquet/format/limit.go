package format

import "unsafe"

// largestListStruct is the size of the largest struct that footers hold
// in lists (row groups, column chunks, schema elements, ...): what each
// element of a list of structs is charged against a memory limit.
const largestListStruct = int64(max(unsafe.Sizeof(RowGroup{}), unsafe.Sizeof(ColumnChunk{}),
	unsafe.Sizeof(SchemaElement{}), unsafe.Sizeof(KeyValue{}), unsafe.Sizeof(SortingColumn{}),
	unsafe.Sizeof(ColumnOrder{}), unsafe.Sizeof(PageEncodingStats{}), unsafe.Sizeof(PageLocation{})))

// UnmarshalFooter decodes a footer as UnmarshalAliased does (or, with
// lazy, as UnmarshalLazy does), failing instead of allocating when its
// lists would take more than maxAlloc bytes decoded (0: no limit). A list
// of empty structs takes one byte per element in the footer and a whole
// struct per element decoded, over a hundred times more: this bounds
// what a hostile footer can make the reader allocate. The error then
// wraps errs.ErrLimit.
func UnmarshalFooter(buf []byte, fm *FileMetaData, lazy bool, maxAlloc int64) (int, error) {
	var r = newLazyReader(buf)
	r.SkipLazy = lazy
	r.MaxAlloc = maxAlloc
	r.StructSize = largestListStruct
	err := fm.Decode(r)
	return r.Offset(), err
}
