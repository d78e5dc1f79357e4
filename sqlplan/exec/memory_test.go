package exec

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
)

// TestQueryMemoryConcurrent: operators of one query growing and releasing
// the shared account from several goroutines leave it balanced, and the
// limit is seen by all of them (run with -race).
func TestQueryMemoryConcurrent(t *testing.T) {
	ctx := WithQueryMemory(context.Background(), math.MaxUint64)
	q := queryMemoryOf(ctx)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var m OpMemory
			for i := 0; i < 1000; i++ {
				if err := m.Add(ctx, 1024, func() string { return "test" }); err != nil {
					t.Error(err)
					return
				}
			}
			if m.Peak() != 1000*1024 {
				t.Errorf("peak %d", m.Peak())
			}
			m.Release()
		}()
	}
	wg.Wait()
	if u := q.used.Load(); u != 0 {
		t.Errorf("%d bytes left accounted", u)
	}

	ctx = WithQueryMemory(context.Background(), 64<<10)
	q = queryMemoryOf(ctx)
	var failed sync.Map
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var m OpMemory
			defer m.Release()
			for i := 0; i < 100; i++ {
				if err := m.Add(ctx, 1024, func() string { return "test" }); err != nil {
					failed.Store(g, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	n := 0
	failed.Range(func(_, v any) bool {
		n++
		if !errors.Is(v.(error), ErrMemoryLimit) {
			t.Errorf("error %v", v)
		}
		return true
	})
	if n == 0 {
		t.Error("800 KiB held under a 64 KiB limit and no one failed")
	}
	if u := q.used.Load(); u != 0 {
		t.Errorf("%d bytes left accounted", u)
	}
}

// FormatBytes writes sizes as DuckDB shows memory_limit.
func TestFormatBytes(t *testing.T) {
	for n, want := range map[uint64]string{0: "0 bytes", 1: "1 byte", 1023: "1023 bytes", 1024: "1.0 KiB", 1536: "1.5 KiB", 64 << 20: "64.0 MiB", 3 << 40: "3.0 TiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
