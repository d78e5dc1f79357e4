package function

import (
	"math"
	"testing"
	"time"
	_ "time/tzdata" // the zones, whatever the machine has installed
)

func TestWallTimesAcrossDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	wall := func(s string) int64 {
		w, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return w.UnixMicro()
	}
	inst := func(s string) int64 {
		w, err := time.Parse("2006-01-02 15:04 -0700", s)
		if err != nil {
			t.Fatal(err)
		}
		return w.UnixMicro()
	}
	cases := []struct{ wall, inst string }{
		{"2024-01-15 12:00", "2024-01-15 12:00 -0500"},
		{"2024-07-15 12:00", "2024-07-15 12:00 -0400"},
		// Skipped when clocks go forward: read with the offset before.
		{"2024-03-10 02:30", "2024-03-10 02:30 -0500"},
		// Twice when they go back: the later.
		{"2024-11-03 01:30", "2024-11-03 01:30 -0500"},
	}
	for _, c := range cases {
		if got, want := FromWall(wall(c.wall), ny), inst(c.inst); got != want {
			t.Errorf("FromWall(%s) = %d, want %d", c.wall, got, want)
		}
	}
	if got, want := ToWall(inst("2024-07-15 12:00 -0400"), ny), wall("2024-07-15 12:00"); got != want {
		t.Errorf("ToWall = %d, want %d", got, want)
	}
	for _, inf := range []int64{math.MaxInt64, -math.MaxInt64} {
		if ToWall(inf, ny) != inf || FromWall(inf, ny) != inf {
			t.Errorf("an infinity moved: %d", inf)
		}
	}
}

func TestZoneTextAndParse(t *testing.T) {
	kolkata := time.FixedZone("IST", 5*3600+30*60)
	us := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC).UnixMicro()
	if got, want := ZoneText(us, kolkata), "2024-01-02 08:34:05+05:30"; got != want {
		t.Errorf("ZoneText = %q, want %q", got, want)
	}
	// A text without a zone is a wall time in loc, one with it that instant.
	for _, s := range []string{"2024-01-02 08:34:05", "2024-01-02 03:04:05+00"} {
		got, err := ParseZoned(s, kolkata)
		if err != nil || got != us {
			t.Errorf("ParseZoned(%q) = %v, %v; want %d", s, got, err, us)
		}
	}
	if _, err := ParseZoned("2024-13-40", kolkata); err == nil {
		t.Error("ParseZoned took a bad date")
	}
}
