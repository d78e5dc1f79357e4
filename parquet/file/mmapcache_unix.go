//go:build unix

package file

import (
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Mappings of files recently closed are kept for a while and reused when
// the same file is opened again. A fresh mapping costs a page fault at
// the first touch of each of its pages — on the machines the benchmarks
// run on (virtual machines) about 5 µs per 4 KiB page, so a 20 MB file
// read once through a new mapping took twice the CPU of reading it with
// pread into reused buffers, while a read through a mapping already
// touched took half of it (BenchmarkMmapRead). Opening a file, reading
// it and closing it is what every query does; keeping the mapping makes
// the second query as fast as the first one could have been.
//
// A mapping is MAP_SHARED: it always shows the file's current bytes, so a
// kept one is as good as a new one for any size it covers; a file that
// has grown since is mapped again. Idle mappings are bounded in number,
// bytes and time (a deleted file's blocks are freed only when its last
// mapping goes).

// mapKey identifies a file whatever its name.
type mapKey struct{ dev, ino uint64 }

type mapping struct {
	key  mapKey
	data []byte
	refs int
	// gen changes whenever the mapping is taken, so that the timer of an
	// earlier idle period does not unmap it.
	gen int
	// indexed says byKey still holds the mapping (a file mapped again,
	// larger, replaces it there).
	indexed bool
}

var mappings = struct {
	sync.Mutex
	byKey     map[mapKey]*mapping
	idle      []*mapping // oldest first
	idleBytes int64
}{byKey: map[mapKey]*mapping{}}

// Bounds on idle mappings; variables for tests.
var (
	idleMapTime        = 5 * time.Second
	maxIdleMaps        = 16
	maxIdleBytes int64 = 4 << 30
)

// acquireMapping returns the first size bytes of osf memory-mapped, and
// the function that gives them back (the mapping stays for a while, see
// above).
func acquireMapping(osf *os.File, size int64) ([]byte, func() error, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(osf.Fd()), &st); err != nil {
		return nil, nil, err
	}
	key := mapKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	mappings.Lock()
	if m := mappings.byKey[key]; m != nil && int64(len(m.data)) >= size {
		take(m)
		mappings.Unlock()
		return m.data[:size:size], func() error { return giveBack(m) }, nil
	}
	mappings.Unlock()
	data, err := mmapFile(osf, size)
	if err != nil {
		return nil, nil, err
	}
	m := &mapping{key: key, data: data, refs: 1, indexed: true}
	mappings.Lock()
	if old := mappings.byKey[key]; old != nil {
		old.indexed = false
		if old.refs == 0 {
			dropIdle(old)
		}
	}
	mappings.byKey[key] = m
	mappings.Unlock()
	return data, func() error { return giveBack(m) }, nil
}

// take marks m used (the lock is held).
func take(m *mapping) {
	if m.refs == 0 {
		removeIdle(m)
	}
	m.refs++
	m.gen++
}

// giveBack releases one use of m: the last one keeps it idle, or unmaps
// it when a newer mapping of the file replaced it.
func giveBack(m *mapping) error {
	mappings.Lock()
	defer mappings.Unlock()
	m.refs--
	if m.refs > 0 {
		return nil
	}
	if !m.indexed {
		return munmap(m.data)
	}
	mappings.idle = append(mappings.idle, m)
	mappings.idleBytes += int64(len(m.data))
	gen := m.gen
	time.AfterFunc(idleMapTime, func() { expire(m, gen) })
	for len(mappings.idle) > maxIdleMaps || mappings.idleBytes > maxIdleBytes {
		dropIdle(mappings.idle[0])
	}
	return nil
}

// expire unmaps m if it has stayed idle since its timer was set.
func expire(m *mapping, gen int) {
	mappings.Lock()
	defer mappings.Unlock()
	if m.refs == 0 && m.gen == gen && m.indexed {
		dropIdle(m)
	}
}

// dropIdle unmaps an idle mapping and forgets it (the lock is held).
func dropIdle(m *mapping) {
	removeIdle(m)
	if mappings.byKey[m.key] == m {
		delete(mappings.byKey, m.key)
	}
	m.indexed = false
	_ = munmap(m.data) // an error leaves address space mapped, nothing worse
}

// removeIdle takes m off the idle list (the lock is held).
func removeIdle(m *mapping) {
	for i, x := range mappings.idle {
		if x == m {
			mappings.idle = append(mappings.idle[:i], mappings.idle[i+1:]...)
			mappings.idleBytes -= int64(len(m.data))
			return
		}
	}
}

// mappingKept reports whether a mapping of the file at path is kept (for
// tests).
func mappingKept(path string) bool {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return false
	}
	mappings.Lock()
	defer mappings.Unlock()
	return mappings.byKey[mapKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}] != nil
}

// idleMappings is the number of mappings kept idle (for tests).
func idleMappings() int {
	mappings.Lock()
	defer mappings.Unlock()
	return len(mappings.idle)
}

// setIdleMapTime sets how long idle mappings are kept and returns the
// previous time (for tests).
func setIdleMapTime(d time.Duration) time.Duration {
	mappings.Lock()
	defer mappings.Unlock()
	old := idleMapTime
	idleMapTime = d
	return old
}

// dropIdleMappings unmaps every idle mapping (for benchmarks of new ones).
func dropIdleMappings() {
	mappings.Lock()
	defer mappings.Unlock()
	for len(mappings.idle) > 0 {
		dropIdle(mappings.idle[0])
	}
}
