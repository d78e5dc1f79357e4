package dml

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
// point, see sqlplan's txstage.go), and made again by recovery after a
// crash (Recover).

// OpKind says what a step of publishing a transaction does.
type OpKind byte

// The kinds of steps; the bytes are those the record file holds.
const (
	// OpRename renames the staged file Src to Dst, replacing what is
	// there.
	OpRename OpKind = 'R'
	// OpDrop moves the table Src (a file or a folder) away to Dst, in the
	// staging folder, which goes with it.
	OpDrop OpKind = 'D'
	// OpExchange exchanges the staged folder Src with the folder table
	// Dst (ExchangeOp).
	OpExchange OpKind = 'X'
	// OpDeltaCommit names the Delta commit of the table Src, marked Dst
	// ("mark@version read", DeltaStep), that is the COMMIT's commit point
	// (deltacommit.go).
	OpDeltaCommit OpKind = 'C'
)

// Op is one step of publishing a transaction.
type Op struct {
	Kind     OpKind
	Src, Dst string
}

// Record is a COMMIT's record: the steps that publish it, in order.
type Record []Op

const recordHead = "carquet commit 1\n"

// marshal encodes the record as lines of quoted paths, with a CRC.
func (r Record) marshal() []byte {
	var b strings.Builder
	b.WriteString(recordHead)
	for _, op := range r {
		fmt.Fprintf(&b, "%c %s %s\n", op.Kind, strconv.Quote(op.Src), strconv.Quote(op.Dst))
	}
	fmt.Fprintf(&b, "end %08x\n", crc32.ChecksumIEEE([]byte(b.String())))
	return []byte(b.String())
}

// ParseRecord decodes a record; one that does not parse was never
// renamed into place (it is written whole before), so it counts as none.
func ParseRecord(b []byte) (Record, bool) {
	s := string(b)
	i := strings.LastIndex(strings.TrimSuffix(s, "\n"), "\n")
	if !strings.HasPrefix(s, recordHead) || i < 0 {
		return nil, false
	}
	body, tail := s[:i+1], strings.TrimSpace(s[i+1:])
	if tail != fmt.Sprintf("end %08x", crc32.ChecksumIEEE([]byte(body))) {
		return nil, false
	}
	var r Record
	for _, line := range strings.Split(strings.TrimSuffix(body[len(recordHead):], "\n"), "\n") {
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
		r = append(r, Op{Kind: OpKind(line[0]), Src: src, Dst: dst})
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

// RecordFile is the name of the record in its staging folder.
const RecordFile = "commit"

// Write puts the record in the staging folder dir durably, in one step:
// the commit point.
func (r Record) Write(dir string) error {
	tmp := filepath.Join(dir, RecordFile+".tmp")
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
		err = os.Rename(tmp, filepath.Join(dir, RecordFile))
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

// Decided reports whether a record found after a crash was committed:
// always, unless its commit point is a Delta commit (OpDeltaCommit) that
// is not in the table's log.
func (r Record) Decided() (bool, error) {
	for _, op := range r {
		if op.Kind != OpDeltaCommit {
			continue
		}
		mark, v, ok := strings.Cut(op.Dst, "@")
		version, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			return false, fmt.Errorf("carquet: COMMIT record: bad Delta step %q", op.Dst)
		}
		return deltaCommitted(op.Src, version, mark)
	}
	return true, nil
}

// Apply makes the steps of the record that are not made yet; it may run
// again after a crash.
func (r Record) Apply() error {
	for _, op := range r {
		switch op.Kind {
		case OpDrop:
			if _, err := os.Lstat(op.Dst); err == nil {
				continue // moved away already
			}
			if err := os.Rename(op.Src, op.Dst); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				return err
			}
			// A dropped file's append journal goes with it.
			os.Remove(op.Src + writer.JournalSuffix)
			if err := writer.SyncDir(filepath.Dir(op.Src)); err != nil {
				return err
			}
		case OpRename:
			if _, err := os.Lstat(op.Src); errors.Is(err, fs.ErrNotExist) {
				continue // renamed already
			}
			if err := os.MkdirAll(filepath.Dir(op.Dst), 0o777); err != nil {
				return err
			}
			if err := os.Rename(op.Src, op.Dst); err != nil {
				return err
			}
			if err := writer.SyncDir(filepath.Dir(op.Dst)); err != nil {
				return err
			}
		case OpExchange:
			if err := exchangeOnce(op.Src, op.Dst); err != nil { // commit.go
				return err
			}
		}
	}
	return nil
}
