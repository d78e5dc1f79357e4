package sqlplan

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/writer"
)

// A COMMIT's record: the steps that publish a transaction, written
// durably in its staging folder before the first of them (the commit
// point, see txstage.go), and made again by recovery after a crash.

// txOp is one step of publishing a transaction: 'R' renames the staged
// file src to dst, replacing what is there; 'D' moves the table src (a
// file or a folder) away to dst, in the staging folder, which goes with
// it; 'X' exchanges the staged folder src with the folder table dst
// (txfolder.go); 'C' names the Delta commit of the table src, marked
// dst ("mark@version read"), that is the COMMIT's commit point
// (txdelta.go).
type txOp struct {
	kind     byte
	src, dst string
}

// txRecord is a COMMIT's record: the steps that publish it, in order.
type txRecord []txOp

const txRecordHead = "carquet commit 1\n"

// marshal encodes the record as lines of quoted paths, with a CRC.
func (r txRecord) marshal() []byte {
	var b strings.Builder
	b.WriteString(txRecordHead)
	for _, op := range r {
		fmt.Fprintf(&b, "%c %s %s\n", op.kind, strconv.Quote(op.src), strconv.Quote(op.dst))
	}
	fmt.Fprintf(&b, "end %08x\n", crc32.ChecksumIEEE([]byte(b.String())))
	return []byte(b.String())
}

// parseRecord decodes a record; one that does not parse was never
// renamed into place (it is written whole before), so it counts as none.
func parseRecord(b []byte) (txRecord, bool) {
	s := string(b)
	i := strings.LastIndex(strings.TrimSuffix(s, "\n"), "\n")
	if !strings.HasPrefix(s, txRecordHead) || i < 0 {
		return nil, false
	}
	body, tail := s[:i+1], strings.TrimSpace(s[i+1:])
	if tail != fmt.Sprintf("end %08x", crc32.ChecksumIEEE([]byte(body))) {
		return nil, false
	}
	var r txRecord
	for _, line := range strings.Split(strings.TrimSuffix(body[len(txRecordHead):], "\n"), "\n") {
		if line == "" {
			continue
		}
		if len(line) < 3 || !strings.ContainsRune("RDXC", rune(line[0])) {
			return nil, false
		}
		src, rest, err := unquotePrefix(line[2:])
		if err != nil || !strings.HasPrefix(rest, " ") {
			return nil, false
		}
		dst, rest, err := unquotePrefix(rest[1:])
		if err != nil || rest != "" {
			return nil, false
		}
		r = append(r, txOp{kind: line[0], src: src, dst: dst})
	}
	return r, true
}

// unquotePrefix unquotes the Go string literal s starts with.
func unquotePrefix(s string) (string, string, error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, err
	}
	u, err := strconv.Unquote(q)
	return u, s[len(q):], err
}

const txRecordFile = "commit"

// write puts the record in the staging folder dir durably, in one step:
// the commit point.
func (r txRecord) write(dir string) error {
	tmp := filepath.Join(dir, txRecordFile+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(r.marshal())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, txRecordFile))
	}
	if err == nil {
		err = writer.SyncDir(dir)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("carquet: COMMIT record: %w", err)
	}
	return nil
}

// decided reports whether a record found after a crash was committed:
// always, unless its commit point is a Delta commit ('C', txdelta.go)
// that is not in the table's log.
func (r txRecord) decided() (bool, error) {
	for _, op := range r {
		if op.kind != 'C' {
			continue
		}
		mark, v, ok := strings.Cut(op.dst, "@")
		version, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			return false, fmt.Errorf("carquet: COMMIT record: bad Delta step %q", op.dst)
		}
		return deltaCommitted(op.src, version, mark)
	}
	return true, nil
}

// apply makes the steps of the record that are not made yet; it may run
// again after a crash.
func (r txRecord) apply() error {
	for _, op := range r {
		switch op.kind {
		case 'D':
			if _, err := os.Lstat(op.dst); err == nil {
				continue // moved away already
			}
			if err := os.Rename(op.src, op.dst); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				return err
			}
			// A dropped file's append journal goes with it.
			os.Remove(op.src + writer.JournalSuffix)
			if err := writer.SyncDir(filepath.Dir(op.src)); err != nil {
				return err
			}
		case 'R':
			if _, err := os.Lstat(op.src); errors.Is(err, fs.ErrNotExist) {
				continue // renamed already
			}
			if err := os.MkdirAll(filepath.Dir(op.dst), 0o777); err != nil {
				return err
			}
			if err := os.Rename(op.src, op.dst); err != nil {
				return err
			}
			if err := writer.SyncDir(filepath.Dir(op.dst)); err != nil {
				return err
			}
		case 'X':
			if err := exchangeOnce(op.src, op.dst); err != nil { // txfolder.go
				return err
			}
		}
	}
	return nil
}
