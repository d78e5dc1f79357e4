package sqlplan

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// pg_timezone_names() lists the IANA time zones the engine knows, as
// PostgreSQL and DuckDB do: name, abbrev, utc_offset and is_dst now. Go
// has no list of its zones, so the list is read from where Go's
// time.LoadLocation reads them: $ZONEINFO, the system's zoneinfo
// folders, then Go's own zoneinfo.zip. The abbreviations are the tz
// database's (CET, EST), where DuckDB shows ICU's (ECT; the name itself
// for zones ICU abbreviates by none); names of the one list may be
// missing from the other.

// zoneNames are the zone names, read once.
var zoneNames = sync.OnceValue(readZoneNames)

func pgTimezoneNames(_ *plan.Planner, c *plan.CatalogRows) error {
	name, abbrev, offset, dst := c.Col("name", plan.TString), c.Col("abbrev", plan.TString), c.Col("utc_offset", Type{Kind: KInterval}), c.Col("is_dst", plan.TBool)
	now := time.Now()
	for _, n := range zoneNames() {
		loc, err := function.ZoneNamed(n)
		if err != nil {
			continue // a file of the folder that is no zone of Go's
		}
		at := now.In(loc)
		ab, secs := at.Zone()
		c.N++
		name.Add(n)
		abbrev.Add(ab)
		offset.Add(plan.Interval{Micros: int64(secs) * 1_000_000})
		dst.Add(at.IsDST())
	}
	return nil
}

// zoneSources are the system folders Go reads zones from (on Unix).
var zoneSources = []string{"/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo/"}

// readZoneNames lists the zones of the first source that has any,
// sorted.
func readZoneNames() []string {
	if zi := os.Getenv("ZONEINFO"); zi != "" {
		if names := zipZoneNames(zi); len(names) > 0 {
			return names
		}
		if names := folderZoneNames(zi); len(names) > 0 {
			return names
		}
	}
	for _, dir := range zoneSources {
		if names := folderZoneNames(dir); len(names) > 0 {
			return names
		}
	}
	return zipZoneNames(filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip"))
}

// folderZoneNames lists the zone files of a zoneinfo folder: files that
// begin with TZif, without the posix/ and right/ copies and the links
// the system keeps for itself (localtime, posixrules).
func folderZoneNames(dir string) []string {
	var names []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "posix" || rel == "right" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == "localtime" || rel == "posixrules" || strings.Contains(rel, ".") {
			return nil
		}
		if isZoneFile(path) {
			names = append(names, rel)
		}
		return nil
	})
	sort.Strings(names)
	return names
}

// isZoneFile reports whether the file begins with the tz database's
// magic.
func isZoneFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	n, _ := f.Read(magic[:])
	return n == 4 && bytes.Equal(magic[:], []byte("TZif"))
}

// zipZoneNames lists the zones of a zoneinfo.zip (Go's own, uncompressed
// files named by zone).
func zipZoneNames(path string) []string {
	r, err := zip.OpenReader(path)
	if err != nil {
		return nil
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		if !strings.HasSuffix(f.Name, "/") {
			names = append(names, f.Name)
		}
	}
	sort.Strings(names)
	return names
}

// folderBytes is the size of the files below dir, ok false when dir is
// no local folder (an object store's URL).
func folderBytes(dir string) (uint64, bool) {
	if dir == "" || strings.Contains(dir, "://") {
		return 0, false
	}
	if _, err := os.Stat(dir); err != nil {
		return 0, false
	}
	var total uint64
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			total += uint64(info.Size())
		}
		return nil
	})
	return total, true
}
