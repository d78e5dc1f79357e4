package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestBarAppearsLateAndIsErased(t *testing.T) {
	var out syncBuf
	b := Start(&out, true, "work", 100, Options{Delay: 20 * time.Millisecond, Interval: 5 * time.Millisecond, Unit: "rows"})
	b.Set(50)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "50%") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	b.Done()
	b.Done()
	s := out.String()
	if !strings.Contains(s, "\rwork [") || !strings.Contains(s, " 50%  50 rows/100 rows") || !strings.HasSuffix(s, "\r\x1b[K") {
		t.Errorf("bar output: %q", s)
	}
}

func TestQuickWorkShowsNothing(t *testing.T) {
	var out syncBuf
	b := Start(&out, true, "quick", 0, Options{})
	b.Add(5)
	b.Done()
	if out.String() != "" {
		t.Errorf("output: %q", out.String())
	}
	var nilBar *Bar
	nilBar.Set(1)
	nilBar.Done()
	if Start(&out, false, "off", 1, Options{}) != nil {
		t.Error("a disabled bar is not nil")
	}
}

func TestLine(t *testing.T) {
	b := &Bar{desc: "x", unit: "bytes", width: 40}
	if got := b.line(1536, 3<<20, 1500*time.Millisecond); !strings.HasPrefix(got, "x [") || !strings.HasSuffix(got, "  0%  1.5 KiB/3.0 MiB  1.5s") || len(got) > 40 {
		t.Errorf("line: %q", got)
	}
	if got := b.line(10, 0, 0); got != "x 10 B  0s" {
		t.Errorf("unknown total: %q", got)
	}
}
