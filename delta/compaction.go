package delta

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/carquet-go/carquet/delta/dv"
)

// Log compaction (protocol, "Log Compaction Files"): the file
// _delta_log/<x>.<y>.compacted.json holds the actions of commits x to y
// reconciled as a snapshot reconciles them — the last protocol and
// metaData, the last txn of each appId, the last domainMetadata of each
// domain, and of each logical file (path and deletion vector) its newest
// add or remove — without commitInfo (nor cdc, which no snapshot keeps).
// A reader replays it in place of those commits (Open does, after the
// checkpoint it starts from). It needs no table feature, so any table
// this package may write may have one; the commits stay, for time travel
// to the versions inside the range and for the conflict checks of
// concurrent writers.

// compactionName is the name of the log compaction of commits from..to.
func compactionName(from, to int64) string {
	return fmt.Sprintf("%020d.%020d.compacted.json", from, to)
}

// WriteCompaction writes the log compaction file of commits from to to
// (from < to) of the table at root. A table this package may not write
// (see CheckWriterFeatures) is refused, and so is a commit with an action
// the reconciliation does not know.
func WriteCompaction(root string, from, to int64, store map[string]string) error {
	fail := func(err error) error {
		return fmt.Errorf("delta: %s: log compaction of versions %d to %d: %w", root, from, to, err)
	}
	if from < 0 || to <= from {
		return fail(fmt.Errorf("the range must run from a version to a later one"))
	}
	s, err := OpenWith(root, to, store)
	if err != nil {
		return err
	}
	if err := s.CheckWriterFeatures(); err != nil {
		return fail(err)
	}
	st := storage{store}
	rc := &reconciler{keys: &replay{root: root, st: st}}
	for v := from; v <= to; v++ {
		name := fmt.Sprintf("%020d.json", v)
		data, err := st.readFile(join(root, commitName(v)))
		if err != nil {
			return fail(err)
		}
		if err := rc.add(name, data); err != nil {
			return fail(err)
		}
	}
	if err := st.putFile(join(join(root, LogDir), compactionName(from, to)), rc.encode()); err != nil {
		return fail(err)
	}
	return nil
}

// CompactLog writes the log compaction of the commits after the newest
// checkpoint (from version 0 when there is none) up to the latest, when
// they are two or more and no compaction of that range is there yet. It
// returns the range compacted (-1, -1 when none was written).
func CompactLog(root string, store map[string]string) (from, to int64, err error) {
	lf, err := storage{store}.listLog(join(root, LogDir))
	if err != nil {
		return -1, -1, err
	}
	to, from = lf.latest, 0
	for v := range lf.checkpoints {
		from = max(from, v+1)
	}
	if to-from < 1 || slices.Contains(lf.compactions[from], to) {
		return -1, -1, nil
	}
	if err := WriteCompaction(root, from, to, store); err != nil {
		return -1, -1, err
	}
	return from, to, nil
}

// reconciler gathers the actions of consecutive commits, each kept as the
// JSON line it was, the newest for its key.
type reconciler struct {
	// keys resolves file paths as the snapshot does, so that the same
	// file named two ways is one logical file.
	keys               *replay
	protocol, metadata json.RawMessage
	txns, domains      keyed
	files              keyed // by fileKey; each line an add or a remove
	adds               map[string]bool
}

// keyed keeps the last line of each key, keys in the order first seen,
// and when each key's line was put.
type keyed struct {
	lines map[string][]byte
	order []string
	at    map[string]int
	puts  int
}

func (k *keyed) put(key string, line []byte) {
	if k.lines == nil {
		k.lines, k.at = map[string][]byte{}, map[string]int{}
	}
	if _, ok := k.lines[key]; !ok {
		k.order = append(k.order, key)
	}
	k.lines[key] = line
	k.puts++
	k.at[key] = k.puts
}

// add takes the actions of one commit file.
func (rc *reconciler) add(name string, data []byte) error {
	return forEachLine(data, func(line int, l []byte) error {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(l, &obj); err != nil {
			return fmt.Errorf("%s line %d: %w", name, line, err)
		}
		if len(obj) != 1 {
			return fmt.Errorf("%s line %d: an action line must hold one action, not %d", name, line, len(obj))
		}
		for kind, body := range obj {
			if err := rc.action(kind, body, l); err != nil {
				return fmt.Errorf("%s line %d: %w", name, line, err)
			}
		}
		return nil
	})
}

func (rc *reconciler) action(kind string, body json.RawMessage, line []byte) error {
	line = append([]byte(nil), line...)
	switch kind {
	case "commitInfo", "cdc":
		// Not part of a snapshot.
	case "protocol":
		rc.protocol = line
	case "metaData":
		rc.metadata = line
	case "txn":
		var t struct {
			AppID *string `json:"appId"`
		}
		if err := json.Unmarshal(body, &t); err != nil || t.AppID == nil {
			return fmt.Errorf("a txn action without an appId (%v)", err)
		}
		rc.txns.put(*t.AppID, line)
	case "domainMetadata":
		// The last one of a domain wins; one with removed true stays, as
		// the tombstone of those before the range.
		var d struct {
			Domain *string `json:"domain"`
		}
		if err := json.Unmarshal(body, &d); err != nil || d.Domain == nil {
			return fmt.Errorf("a domainMetadata action without a domain (%v)", err)
		}
		rc.domains.put(*d.Domain, line)
	case "add", "remove":
		var f struct {
			Path           string         `json:"path"`
			DeletionVector *dv.Descriptor `json:"deletionVector"`
		}
		if err := json.Unmarshal(body, &f); err != nil {
			return fmt.Errorf("%s: %w", kind, err)
		}
		p, err := rc.keys.resolve(f.Path)
		if err != nil {
			return err
		}
		k := fileKey(p, f.DeletionVector)
		rc.files.put(k, line)
		if rc.adds == nil {
			rc.adds = map[string]bool{}
		}
		rc.adds[k] = kind == "add"
	default:
		return fmt.Errorf("a %q action, which log compaction does not reconcile", kind)
	}
	return nil
}

// encode writes the reconciled actions: protocol, metaData, txn,
// domainMetadata, the adds (in the order their files were first seen),
// then the removes (in the order they were made), so that a replay lists
// files and tombstones as a replay of the commits does.
func (rc *reconciler) encode() []byte {
	var out []byte
	line := func(l []byte) {
		out = append(append(out, l...), '\n')
	}
	for _, l := range [][]byte{rc.protocol, rc.metadata} {
		if l != nil {
			line(l)
		}
	}
	for _, k := range [...]*keyed{&rc.txns, &rc.domains} {
		for _, key := range k.order {
			line(k.lines[key])
		}
	}
	var removes []string
	for _, key := range rc.files.order {
		if rc.adds[key] {
			line(rc.files.lines[key])
		} else {
			removes = append(removes, key)
		}
	}
	slices.SortFunc(removes, func(a, b string) int { return rc.files.at[a] - rc.files.at[b] })
	for _, key := range removes {
		line(rc.files.lines[key])
	}
	return out
}
