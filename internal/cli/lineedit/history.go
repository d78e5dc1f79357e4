package lineedit

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// History is a list of entered lines, oldest first, optionally kept in a
// file (one entry per line, appended as entries are added, trimmed to the
// newest Max entries when loaded).
type History struct {
	entries []string
	// Max is the number of entries kept (default 1000).
	Max  int
	path string
}

// NewHistory returns an in-memory history.
func NewHistory() *History { return &History{Max: 1000} }

// LoadHistory reads the history file at path (a missing file is an empty
// history) and keeps appending to it.
func LoadHistory(path string, maxEntries int) (*History, error) {
	h := &History{Max: maxEntries, path: path}
	if h.Max <= 0 {
		h.Max = 1000
	}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return h, nil
	}
	if err != nil {
		return h, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			h.entries = append(h.entries, l)
		}
	}
	f.Close()
	if err := sc.Err(); err != nil {
		return h, err
	}
	if len(h.entries) > h.Max {
		h.entries = h.entries[len(h.entries)-h.Max:]
		// Rewrite the file with the kept entries only.
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(strings.Join(h.entries, "\n")+"\n"), 0o600); err == nil {
			os.Rename(tmp, path)
		}
	}
	return h, nil
}

// Add appends an entry (newlines become spaces; blank lines and repeats
// of the last entry are skipped) and writes it to the file, if any.
func (h *History) Add(line string) error {
	line = strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(line))
	if line == "" || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == line) {
		return nil
	}
	h.entries = append(h.entries, line)
	if len(h.entries) > h.Max {
		h.entries = h.entries[len(h.entries)-h.Max:]
	}
	if h.path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Entries returns the entries, oldest first.
func (h *History) Entries() []string { return append([]string(nil), h.entries...) }
