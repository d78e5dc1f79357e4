//go:build !race

package driver

// raceDetector is whether the tests run under the race detector.
const raceDetector = false
