package value

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"
)

func int96(nanos int64, day uint32) [12]byte {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(nanos))
	binary.LittleEndian.PutUint32(b[8:], day)
	return b
}

// TestInt96Micros: the microseconds DuckDB v1.5.6 gives (epoch_us of the
// INT96 column, read_parquet of a file holding these bytes) for days and
// nanoseconds in and out of range: the day unsigned, the nanoseconds signed
// and truncated toward zero, the sum wrapped in 64 bits. The last rows are
// int96_from_spark.parquet's.
func TestInt96Micros(t *testing.T) {
	for _, c := range []struct {
		nanos int64
		day   uint32
		want  int64
		text  string // DuckDB's CAST(... AS VARCHAR), for orientation
	}{
		{0, 0, -210866803200000000, "4714-11-24 (BC) 00:00:00"},
		{0, 1, -210866716800000000, "4714-11-25 (BC) 00:00:00"},
		{1, 2440588, 0, "1970-01-01 00:00:00"},
		{999, 2440588, 0, "1970-01-01 00:00:00"},
		{-1, 2440588, 0, "1970-01-01 00:00:00"},
		{-999, 2440588, 0, "1970-01-01 00:00:00"},
		{-1001, 2440588, -1, "1969-12-31 23:59:59.999999"},
		{1001, 2440588, 1, "1970-01-01 00:00:00.000001"},
		{86400e9, 2440588, 86400000000, "1970-01-02 00:00:00"},
		{86400e9 + 5000, 2440588, 86400000005, "1970-01-02 00:00:00.000005"},
		{-86400e9, 2440588, -86400000000, "1969-12-31 00:00:00"},
		{1<<63 - 1, 2440588, 9223372036854775, "2262-04-11 23:47:16.854775"},
		{-1 << 63, 2440588, -9223372036854775, "1677-09-21 00:12:43.145225"},
		{0, 1<<31 - 1, 864279560504483840, "29357-12-05 15:41:44.48384"},
		{0, 1 << 31, 864279646904483840, "29357-12-06 15:41:44.48384"},
		{0, 1<<32 - 1, 1939426010608967680, "63427-12-19 07:23:28.96768"},
		{12345678, 1<<32 - 1, 1939426010608980025, "63427-12-19 07:23:28.980025"},
		{0, 109192579, 9223372022400000000, "294247-01-10 00:00:00"},
		{0, 109192580, -9223371964909551616, "290309-12-22 (BC) 15:58:10.448384"},
		{0, 4190655893, -7073079122191032320, "222168-01-17 (BC) 07:23:28.96768"},
		{5, 4190655892, -7073079208591032320, "222168-01-16 (BC) 07:23:28.96768"},
		{0, 108000000, 9120333196800000000, "290981-11-08 00:00:00"},
		{0, 3000000000, 734716164866277376, "25252-03-24 07:34:26.277376"},
		{-12345, 100, -210858163200000012, "4713-03-02 (BC) 23:59:59.999988"},
		// int96_from_spark.parquet, rows 0-3 and 5.
		{74096123456000, 2460311, 1704141296123456, "2024-01-01 20:34:56.123456"},
		{3600000000000, 2460311, 1704070800000000, "2024-01-01 01:00:00"},
		{10800000000000, 5373484, 253402225200000000, "9999-12-31 03:00:00"},
		{82800000000000, 2460675, 1735599600000000, "2024-12-30 23:00:00"},
		{-32509551616000, 4189105064, -7207070780300583936, "226414-01-07 (BC) 22:21:39.416064"},
	} {
		b := int96(c.nanos, c.day)
		if got := Int96Micros(b); got != c.want {
			t.Errorf("nanos %d day %d: %d µs, DuckDB %d (%s)", c.nanos, c.day, got, c.want, c.text)
		}
		if got := Int96Time(b).UnixMicro(); got != c.want {
			t.Errorf("nanos %d day %d: Int96Time is %d µs, DuckDB %d (%s)", c.nanos, c.day, got, c.want, c.text)
		}
	}
	// Nanoseconds below the microsecond are kept when they are not negative.
	if got := Int96Time(int96(86400e9+5123, 2440588)); !got.Equal(time.Unix(86400, 5123)) {
		t.Errorf("sub-microsecond nanoseconds: %v", got)
	}
}

// TestInt96Of: Int96Of writes what Int96Time reads back, across the range
// of 64-bit microseconds (before 4714 BC through the wrapped day), to the
// nanosecond.
func TestInt96Of(t *testing.T) {
	check := func(tm time.Time) {
		t.Helper()
		b := Int96Of(tm)
		if got := Int96Time(b); !got.Equal(tm) {
			t.Errorf("%v (%d µs): read back as %v (nanos %d, day %d)", tm, tm.UnixMicro(), got,
				int64(binary.LittleEndian.Uint64(b[:8])), binary.LittleEndian.Uint32(b[8:]))
		}
		if nanos := int64(binary.LittleEndian.Uint64(b[:8])); nanos < 0 || nanos >= 86400e9 {
			t.Errorf("%v: %d nanoseconds of the day", tm, nanos)
		}
	}
	const minMicros, maxMicros = -1 << 63, 1<<63 - 1
	for _, us := range []int64{minMicros, minMicros + 1, -210866803200000001, -210866803200000000, -210866803199999999,
		-1, 0, 1, 1704141296123456, maxMicros - 1, maxMicros} {
		check(time.UnixMicro(us).UTC())
	}
	check(time.Unix(0, -1).UTC())
	check(time.Date(-5000, 2, 29, 23, 59, 59, 999999999, time.UTC))
	rng := rand.New(rand.NewPCG(96, 96))
	for range 10000 {
		us := int64(rng.Uint64())
		check(time.UnixMicro(us).Add(time.Duration(rng.IntN(1000))).UTC())
	}
}
