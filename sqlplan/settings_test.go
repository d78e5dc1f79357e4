package sqlplan

import (
	"context"
	"math"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

func TestMemoryLimitText(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"1GB", "953.6 MiB"}, {"512MiB", "512.0 MiB"}, {"1.5GB", "1.3 GiB"}, {"1 gb", "953.6 MiB"},
		{"100KB", "97.6 KiB"}, {"1023.99KiB", "1023.9 KiB"}, {"1048575B", "1023.9 KiB"},
		{"2000 bytes", "1.9 KiB"}, {"1000 bytes", "1000 bytes"}, {"1b", "1 byte"}, {"1TB", "931.3 GiB"},
		{"-1", "16383.9 PiB"}, {"none", "16383.9 PiB"}, {"2 gibibytes", "2.0 GiB"},
	} {
		n, err := parseMemoryLimit(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := plan.FormatBytes(n); got != c.want {
			t.Errorf("%q: %d shows as %q, want %q", c.in, n, got, c.want)
		}
	}
	for _, bad := range []string{"12345", "bogus", "10XB", "1PB", ""} {
		if _, err := parseMemoryLimit(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if plan.FormatBytes(math.MaxUint64) != "16383.9 PiB" {
		t.Error(plan.FormatBytes(math.MaxUint64))
	}
}

// TestSettingsPrepare checks that SET, RESET and PRAGMA are read from
// tokens, and that their errors point at the user's text.
func TestSettingsPrepare(t *testing.T) {
	e, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, q := range []string{
		"SET threads = 2", "SET threads TO 2", "SET SESSION integer_division = true", "SET GLOBAL default_order = desc",
		"RESET threads", "RESET SESSION TimeZone", "PRAGMA threads = 2", "PRAGMA threads(2)", "SET `threads` = 2",
		"set default_null_order = \"nulls_first\";", "SET threads = -1 + 0",
	} {
		_, err := e.Prepare(q)
		if q == "SET threads = -1 + 0" {
			if err == nil {
				t.Errorf("%s: no error", q)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	for q, want := range map[string]string{
		"SET nope = 1":                     `line 1:5: unrecognized configuration parameter "nope"`,
		"SET thread = 1":                   `line 1:5: unrecognized configuration parameter "thread" (did you mean "threads"?)`,
		"SET threads 1":                    "line 1:13: expected = or TO after SET threads",
		"SET threads = 0":                  "line 1:15: Must have at least 1 thread!",
		"RESET threads 2":                  "line 1:15: RESET takes one setting name",
		"PRAGMA storage_info":              "line 1:1: PRAGMA storage_info is not supported",
		"SET SESSION memory_limit = '1GB'": `line 1:13: option "memory_limit" cannot be set locally`,
		"SET default_order = 'up'":         `line 1:21: Unrecognized parameter for option DEFAULT_ORDER "up". Expected ASC or DESC.`,
		"SELECT current_setting(x) FROM (SELECT 'threads' AS x) t": "line 1:8: Key name for current_setting needs to be a constant string",
	} {
		_, err := e.Prepare(q)
		if err == nil {
			_, err = mustQuery(e, q)
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", q, err, want)
		}
	}
}

func mustQuery(e *Engine, q string) (*Rows, error) {
	st, err := e.Prepare(q)
	if err != nil {
		return nil, err
	}
	return st.Query(context.Background(), nil)
}
