// Package progress draws a one-line progress bar on a terminal for
// pqsql's long operations (import, export, validate, large queries). The
// bar appears only after a delay (about a second: quick work shows
// nothing), redraws a few times a second from its own goroutine, and is
// erased when the work ends, leaving the terminal as it was.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultDelay is how long work runs before its bar appears.
const DefaultDelay = time.Second

// Bar is a progress bar. The zero of a disabled Bar (nil) is valid: every
// method does nothing.
type Bar struct {
	w     io.Writer
	desc  string
	unit  string
	total atomic.Int64
	cur   atomic.Int64
	start time.Time

	mu    sync.Mutex
	drawn bool
	done  chan struct{}
	wg    sync.WaitGroup
	width int
}

// Options configure a Bar.
type Options struct {
	// Delay before the bar first appears (DefaultDelay when 0).
	Delay time.Duration
	// Interval between redraws (100ms when 0).
	Interval time.Duration
	// Width is the terminal width (80 when 0).
	Width int
	// Unit names what is counted ("rows", "bytes"); bytes print as sizes.
	Unit string
}

// Start returns a running bar drawing to w, or nil when enabled is false
// (w is not a terminal, or progress is turned off). total is the amount of
// work when known, else 0 (the bar then shows a count only).
func Start(w io.Writer, enabled bool, desc string, total int64, opts Options) *Bar {
	if !enabled {
		return nil
	}
	if opts.Delay == 0 {
		opts.Delay = DefaultDelay
	}
	if opts.Interval == 0 {
		opts.Interval = 100 * time.Millisecond
	}
	if opts.Width <= 0 {
		opts.Width = 80
	}
	b := &Bar{w: w, desc: desc, unit: opts.Unit, start: time.Now(), done: make(chan struct{}), width: opts.Width}
	b.total.Store(total)
	b.wg.Add(1)
	go b.loop(opts.Delay, opts.Interval)
	return b
}

func (b *Bar) loop(delay, interval time.Duration) {
	defer b.wg.Done()
	select {
	case <-b.done:
		return
	case <-time.After(delay):
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		b.draw()
		select {
		case <-b.done:
			return
		case <-t.C:
		}
	}
}

// Set records the amount of work done.
func (b *Bar) Set(n int64) {
	if b != nil {
		b.cur.Store(n)
	}
}

// Add adds to the amount of work done.
func (b *Bar) Add(n int64) {
	if b != nil {
		b.cur.Add(n)
	}
}

// SetTotal changes the amount of work (0: unknown).
func (b *Bar) SetTotal(n int64) {
	if b != nil {
		b.total.Store(n)
	}
}

func (b *Bar) amount(n int64) string {
	if b.unit == "bytes" {
		return Size(n)
	}
	s := fmt.Sprint(n)
	if b.unit != "" {
		s += " " + b.unit
	}
	return s
}

// Line is the text of the bar for the given state (exported for tests).
func (b *Bar) line(cur, total int64, elapsed time.Duration) string {
	el := elapsed.Truncate(100 * time.Millisecond).String()
	if total <= 0 {
		return fmt.Sprintf("%s %s  %s", b.desc, b.amount(cur), el)
	}
	frac := min(float64(cur)/float64(total), 1)
	tail := fmt.Sprintf(" %3.0f%%  %s/%s  %s", frac*100, b.amount(cur), b.amount(total), el)
	barW := b.width - len(b.desc) - len(tail) - 4
	if barW < 5 {
		return b.desc + tail
	}
	fill := int(frac * float64(barW))
	return fmt.Sprintf("%s [%s%s]%s", b.desc, strings.Repeat("=", fill), strings.Repeat(" ", barW-fill), tail)
}

func (b *Bar) draw() {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-b.done:
		return
	default:
	}
	s := b.line(b.cur.Load(), b.total.Load(), time.Since(b.start))
	if len(s) > b.width-1 {
		s = s[:b.width-1]
	}
	fmt.Fprintf(b.w, "\r%s\x1b[K", s)
	b.drawn = true
}

// Done stops the bar and erases it if it was drawn. It is safe to call
// more than once.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	select {
	case <-b.done:
		b.mu.Unlock()
		return
	default:
	}
	close(b.done)
	if b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.drawn = false
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// Size formats a byte count with a binary unit.
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
