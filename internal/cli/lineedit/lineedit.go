// Package lineedit is pqsql's line editor: a small readline over a
// terminal in raw mode (the caller sets raw mode, e.g. with
// golang.org/x/term, around each ReadLine). It edits one logical line that
// may wrap over several terminal rows, with Emacs keys (Ctrl-A/E/B/F/K/U/W/Y,
// Alt-B/F, arrows, Home/End/Delete), history navigation (Up/Down, Ctrl-P/N),
// incremental reverse search (Ctrl-R), and Tab completion through a
// callback. Ctrl-C returns ErrInterrupt, Ctrl-D on an empty line io.EOF.
//
// The editor only reads bytes and writes VT100 escape sequences, so tests
// drive it with a pipe and a buffer.
package lineedit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/carquet-go/carquet/internal/cli/textwidth"
)

// ErrInterrupt is returned by ReadLine when the user presses Ctrl-C.
var ErrInterrupt = errors.New("interrupted")

// Completer returns completions for the word before pos in line: the
// index where the word starts and the full replacements for it.
type Completer func(line []rune, pos int) (start int, candidates []string)

// Editor reads lines from a terminal.
type Editor struct {
	in  *bufio.Reader
	out io.Writer
	// Width returns the terminal width in cells (80 when nil or <= 0).
	Width func() int
	// History is navigated with Up/Down and searched with Ctrl-R; nil
	// means none. ReadLine does not add to it.
	History *History
	// Complete is called on Tab; nil turns completion off.
	Complete Completer

	// state of the line being edited
	prompt  string
	buf     []rune
	pos     int
	oldPos  int // cursor cell offset at the last refresh
	maxRows int // rows used by the line at its largest
	yank    []rune
	tabs    int // consecutive Tab presses
}

// New returns an editor reading keys from in and drawing on out.
func New(in io.Reader, out io.Writer) *Editor {
	return &Editor{in: bufio.NewReader(in), out: out}
}

func (ed *Editor) width() int {
	if ed.Width != nil {
		if w := ed.Width(); w > 0 {
			return w
		}
	}
	return 80
}

// ReadLine shows prompt and returns the line the user enters (without
// the newline).
func (ed *Editor) ReadLine(prompt string) (string, error) {
	ed.prompt, ed.buf, ed.pos, ed.oldPos, ed.maxRows, ed.tabs = prompt, ed.buf[:0], 0, 0, 0, 0
	hist := -1 // index into history while navigating; -1: the edit line
	var saved []rune
	ed.refresh()
	for {
		r, _, err := ed.in.ReadRune()
		if err != nil {
			if err == io.EOF && len(ed.buf) > 0 {
				ed.finish()
				return string(ed.buf), nil
			}
			return "", err
		}
		if r != '\t' {
			ed.tabs = 0
		}
		switch r {
		case '\r', '\n':
			ed.finish()
			return string(ed.buf), nil
		case 0x03: // Ctrl-C
			ed.pos = len(ed.buf)
			ed.refresh()
			io.WriteString(ed.out, "^C\r\n")
			return "", ErrInterrupt
		case 0x04: // Ctrl-D
			if len(ed.buf) == 0 {
				io.WriteString(ed.out, "\r\n")
				return "", io.EOF
			}
			ed.deleteAt(ed.pos)
		case 0x01: // Ctrl-A
			ed.pos = 0
		case 0x05: // Ctrl-E
			ed.pos = len(ed.buf)
		case 0x02: // Ctrl-B
			ed.pos = max(ed.pos-1, 0)
		case 0x06: // Ctrl-F
			ed.pos = min(ed.pos+1, len(ed.buf))
		case 0x08, 0x7f: // Backspace
			if ed.pos > 0 {
				ed.pos--
				ed.deleteAt(ed.pos)
			}
		case 0x0b: // Ctrl-K
			ed.yank = append([]rune(nil), ed.buf[ed.pos:]...)
			ed.buf = ed.buf[:ed.pos]
		case 0x15: // Ctrl-U
			ed.yank = append([]rune(nil), ed.buf[:ed.pos]...)
			ed.buf = append(ed.buf[:0], ed.buf[ed.pos:]...)
			ed.pos = 0
		case 0x17: // Ctrl-W
			start := ed.wordLeft()
			ed.yank = append([]rune(nil), ed.buf[start:ed.pos]...)
			ed.buf = append(ed.buf[:start], ed.buf[ed.pos:]...)
			ed.pos = start
		case 0x19: // Ctrl-Y
			ed.insert(ed.yank...)
		case 0x14: // Ctrl-T: swap the two characters before the cursor
			if ed.pos > 0 && len(ed.buf) > 1 {
				p := min(ed.pos, len(ed.buf)-1)
				ed.buf[p-1], ed.buf[p] = ed.buf[p], ed.buf[p-1]
				ed.pos = p + 1
			}
		case 0x0c: // Ctrl-L
			io.WriteString(ed.out, "\x1b[H\x1b[2J")
			ed.maxRows, ed.oldPos = 0, 0
		case 0x10: // Ctrl-P
			hist, saved = ed.historyMove(hist, saved, -1)
		case 0x0e: // Ctrl-N
			hist, saved = ed.historyMove(hist, saved, +1)
		case 0x12: // Ctrl-R
			line, done, err := ed.search()
			if done {
				return line, err
			}
		case '\t':
			ed.complete()
		case 0x1b:
			ed.escape(&hist, &saved)
		default:
			if r >= 0x20 && r != unicode.ReplacementChar {
				ed.insert(r)
			}
		}
		ed.refresh()
	}
}

func (ed *Editor) insert(rs ...rune) {
	ed.buf = append(ed.buf[:ed.pos], append(rs, ed.buf[ed.pos:]...)...)
	ed.pos += len(rs)
}

func (ed *Editor) deleteAt(i int) {
	if i < len(ed.buf) {
		ed.buf = append(ed.buf[:i], ed.buf[i+1:]...)
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

func (ed *Editor) wordLeft() int {
	i := ed.pos
	for i > 0 && !isWordRune(ed.buf[i-1]) {
		i--
	}
	for i > 0 && isWordRune(ed.buf[i-1]) {
		i--
	}
	return i
}

func (ed *Editor) wordRight() int {
	i := ed.pos
	for i < len(ed.buf) && !isWordRune(ed.buf[i]) {
		i++
	}
	for i < len(ed.buf) && isWordRune(ed.buf[i]) {
		i++
	}
	return i
}

// escape handles an escape sequence (arrows, Home/End, Delete, Alt keys).
func (ed *Editor) escape(hist *int, saved *[]rune) {
	b, err := ed.in.ReadByte()
	if err != nil {
		return
	}
	switch b {
	case 'b', 'B':
		ed.pos = ed.wordLeft()
		return
	case 'f', 'F':
		ed.pos = ed.wordRight()
		return
	case 'd', 'D':
		end := ed.wordRight()
		ed.yank = append([]rune(nil), ed.buf[ed.pos:end]...)
		ed.buf = append(ed.buf[:ed.pos], ed.buf[end:]...)
		return
	case 0x7f, 0x08: // Alt-Backspace
		start := ed.wordLeft()
		ed.buf = append(ed.buf[:start], ed.buf[ed.pos:]...)
		ed.pos = start
		return
	case '[', 'O':
	default:
		return
	}
	// CSI or SS3: parameters, then a final byte in 0x40..0x7e.
	var params []byte
	var final byte
	for {
		c, err := ed.in.ReadByte()
		if err != nil {
			return
		}
		if c >= 0x40 && c <= 0x7e {
			final = c
			break
		}
		params = append(params, c)
		if len(params) > 16 {
			return
		}
	}
	p := string(params)
	ctrl := strings.HasSuffix(p, ";5") || strings.HasSuffix(p, ";3") // Ctrl or Alt with an arrow
	switch final {
	case 'A':
		*hist, *saved = ed.historyMove(*hist, *saved, -1)
	case 'B':
		*hist, *saved = ed.historyMove(*hist, *saved, +1)
	case 'C':
		if ctrl {
			ed.pos = ed.wordRight()
		} else {
			ed.pos = min(ed.pos+1, len(ed.buf))
		}
	case 'D':
		if ctrl {
			ed.pos = ed.wordLeft()
		} else {
			ed.pos = max(ed.pos-1, 0)
		}
	case 'H':
		ed.pos = 0
	case 'F':
		ed.pos = len(ed.buf)
	case '~':
		switch p {
		case "1", "7":
			ed.pos = 0
		case "4", "8":
			ed.pos = len(ed.buf)
		case "3":
			ed.deleteAt(ed.pos)
		case "200":
			ed.paste()
		}
	}
}

// paste inserts bracketed-paste text up to ESC [ 201 ~, newlines as spaces
// (one logical line at a time).
func (ed *Editor) paste() {
	const end = "\x1b[201~"
	var text []rune
	for {
		r, _, err := ed.in.ReadRune()
		if err != nil {
			break
		}
		text = append(text, r)
		if strings.HasSuffix(string(text), end) {
			text = text[:len(text)-len(end)]
			break
		}
	}
	for i, r := range text {
		if r == '\n' || r == '\r' || r == '\t' {
			text[i] = ' '
		}
	}
	ed.insert(text...)
}

// historyMove moves through the history: dir -1 older, +1 newer. The
// line being edited is saved when leaving it and restored at the end.
func (ed *Editor) historyMove(hist int, saved []rune, dir int) (int, []rune) {
	if ed.History == nil {
		return hist, saved
	}
	entries := ed.History.entries
	if hist == -1 {
		if dir > 0 || len(entries) == 0 {
			return hist, saved
		}
		saved = append([]rune(nil), ed.buf...)
		hist = len(entries)
	}
	hist += dir
	switch {
	case hist < 0:
		hist = 0
	case hist >= len(entries):
		ed.buf = append(ed.buf[:0], saved...)
		ed.pos = len(ed.buf)
		return -1, saved
	}
	ed.buf = append(ed.buf[:0], []rune(entries[hist])...)
	ed.pos = len(ed.buf)
	return hist, saved
}

// search runs Ctrl-R incremental reverse search. done reports that the
// line was accepted (Enter) or interrupted.
func (ed *Editor) search() (line string, done bool, err error) {
	if ed.History == nil {
		return "", false, nil
	}
	orig := append([]rune(nil), ed.buf...)
	origPos := ed.pos
	origPrompt := ed.prompt
	var query []rune
	idx := len(ed.History.entries)
	failed := false
	find := func(from int) {
		q := string(query)
		for i := from; i >= 0; i-- {
			e := ed.History.entries[i]
			if k := strings.Index(e, q); k >= 0 {
				idx = i
				ed.buf = append(ed.buf[:0], []rune(e)...)
				ed.pos = len([]rune(e[:k]))
				failed = false
				return
			}
		}
		failed = true
	}
	show := func() {
		label := "reverse-i-search"
		if failed {
			label = "failed reverse-i-search"
		}
		ed.prompt = fmt.Sprintf("(%s)`%s': ", label, string(query))
		ed.refresh()
	}
	leave := func() {
		ed.prompt = origPrompt
	}
	show()
	for {
		r, _, rerr := ed.in.ReadRune()
		if rerr != nil {
			leave()
			return "", true, rerr
		}
		switch r {
		case 0x12: // Ctrl-R again: the next older match
			if idx > 0 {
				find(idx - 1)
			}
		case 0x07, 0x1b: // Ctrl-G, Esc: give up
			if r == 0x1b {
				// Drop the rest of an escape sequence.
				if ed.in.Buffered() > 0 {
					if b, _ := ed.in.Peek(1); b[0] == '[' || b[0] == 'O' {
						ed.in.ReadByte()
						for ed.in.Buffered() > 0 {
							c, _ := ed.in.ReadByte()
							if c >= 0x40 && c <= 0x7e {
								break
							}
						}
					}
				}
			}
			ed.buf, ed.pos = append(ed.buf[:0], orig...), origPos
			leave()
			return "", false, nil
		case 0x08, 0x7f:
			if len(query) > 0 {
				query = query[:len(query)-1]
				find(len(ed.History.entries) - 1)
			}
		case 0x03:
			leave()
			ed.pos = len(ed.buf)
			ed.refresh()
			io.WriteString(ed.out, "^C\r\n")
			return "", true, ErrInterrupt
		case '\r', '\n':
			leave()
			ed.finish()
			return string(ed.buf), true, nil
		default:
			if r < 0x20 {
				// Any other control key ends the search and acts.
				leave()
				ed.in.UnreadRune()
				return "", false, nil
			}
			query = append(query, r)
			find(min(idx, len(ed.History.entries)-1))
		}
		show()
	}
}

// complete handles Tab: it inserts the longest common prefix of the
// completions, the whole completion when there is one, and lists them on
// a second Tab.
func (ed *Editor) complete() {
	if ed.Complete == nil {
		return
	}
	ed.tabs++
	start, cands := ed.Complete(ed.buf, ed.pos)
	if len(cands) == 0 || start < 0 || start > ed.pos {
		return
	}
	word := string(ed.buf[start:ed.pos])
	common := cands[0]
	for _, c := range cands[1:] {
		common = commonPrefix(common, c)
	}
	if len(cands) == 1 {
		if !strings.HasSuffix(common, ".") && !strings.HasSuffix(common, "(") {
			common += " "
		}
	}
	if common != word && len([]rune(common)) >= len([]rune(word)) {
		rest := append([]rune(common), ed.buf[ed.pos:]...)
		ed.buf = append(ed.buf[:start], rest...)
		ed.pos = start + len([]rune(common))
		if len([]rune(common)) > len([]rune(word)) {
			ed.tabs = 0 // progress; a change of case alone is not
			return
		}
	}
	if ed.tabs < 2 || len(cands) < 2 {
		return
	}
	// List the candidates in columns under the line.
	sort.Strings(cands)
	ed.pos = len(ed.buf)
	ed.refresh()
	wmax := 0
	for _, c := range cands {
		wmax = max(wmax, textwidth.String(c))
	}
	perRow := max(ed.width()/(wmax+2), 1)
	var b strings.Builder
	b.WriteString("\r\n")
	for i, c := range cands {
		b.WriteString(textwidth.Pad(c, wmax+2, false))
		if (i+1)%perRow == 0 || i == len(cands)-1 {
			b.WriteString("\r\n")
		}
	}
	io.WriteString(ed.out, b.String())
	ed.maxRows, ed.oldPos = 0, 0
}

func commonPrefix(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && unicode.ToLower(ra[n]) == unicode.ToLower(rb[n]) {
		n++
	}
	return string(ra[:n])
}

// finish moves the cursor past the line and starts a new one.
func (ed *Editor) finish() {
	ed.pos = len(ed.buf)
	ed.refresh()
	io.WriteString(ed.out, "\r\n")
}

// refresh redraws the prompt and the line over the rows it used before
// (the line may wrap), then places the cursor.
func (ed *Editor) refresh() {
	cols := ed.width()
	plen := textwidth.String(ed.prompt)
	text := string(ed.buf)
	length := textwidth.String(text)
	posW := textwidth.String(string(ed.buf[:ed.pos]))
	var b strings.Builder

	rows := (plen + length + cols - 1) / cols
	rows = max(rows, 1)
	rpos := (plen + ed.oldPos + cols) / cols // cursor row of the last draw, from 1
	oldRows := ed.maxRows
	if rows > ed.maxRows {
		ed.maxRows = rows
	}
	// Go to the last row used, then clear every row on the way up.
	if oldRows-rpos > 0 {
		fmt.Fprintf(&b, "\x1b[%dB", oldRows-rpos)
	}
	for j := 0; j < oldRows-1; j++ {
		b.WriteString("\r\x1b[0K\x1b[1A")
	}
	b.WriteString("\r\x1b[0K")
	b.WriteString(ed.prompt)
	b.WriteString(text)
	// At the very end of a full row, terminals wait before wrapping:
	// wrap now so that the cursor has a row to be on.
	if ed.pos > 0 && ed.pos == len(ed.buf) && (posW+plen)%cols == 0 {
		b.WriteString("\n\r")
		rows++
		if rows > ed.maxRows {
			ed.maxRows = rows
		}
	}
	rpos2 := (plen + posW + cols) / cols
	if rows-rpos2 > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", rows-rpos2)
	}
	if col := (plen + posW) % cols; col > 0 {
		fmt.Fprintf(&b, "\r\x1b[%dC", col)
	} else {
		b.WriteString("\r")
	}
	ed.oldPos = posW
	io.WriteString(ed.out, b.String())
}
