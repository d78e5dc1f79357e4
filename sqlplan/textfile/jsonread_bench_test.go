package textfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkReadJSON reads a newline-delimited file of 20,000 records of
// six columns (BIGINT, VARCHAR, DOUBLE, BOOLEAN, DATE, BIGINT[]) to the
// end: detection from the sample, then the scan.
func BenchmarkReadJSON(b *testing.B) {
	var doc bytes.Buffer
	for i := range 20000 {
		s := strconv.Itoa(i)
		doc.WriteString(`{"id": ` + s + `, "name": "name` + strconv.Itoa(i%1000) + `", "score": ` + strconv.Itoa(i%97) + `.25, "ok": ` +
			strconv.FormatBool(i%2 == 0) + `, "d": "2024-01-` + strconv.Itoa(10+i%18) + `", "tags": [` + strconv.Itoa(i%5) + `, ` + strconv.Itoa(i%7) + `]}` + "\n")
	}
	e, dir := jsonEngine(b, nil)
	if err := os.WriteFile(filepath.Join(dir, "b.json"), doc.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.Len()))
	for b.Loop() {
		if n, err := jsonRun(e, "SELECT * FROM read_json('b.json')"); err != nil || n != 20000 {
			b.Fatal(n, err)
		}
	}
}
