//go:build race

package compress

// raceEnabled: under the race detector sync.Pool drops items on purpose,
// so allocation counts mean nothing.
const raceEnabled = true
