package sqlplan

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// The folder's catalog: the views and macros that are not temporary are
// kept in a file of the folder, as the CREATE statements that make them
// again, so that they last across engines (sql.DBs) as tables do. An
// engine reads the file when it opens, and again when its size or time
// changed (another engine's statements) at the next Prepare and before a
// CREATE or DROP of a view or a macro, which writes it whole (a new file
// renamed over the old). A
// folder opened read-only (mode=ro) reads its catalog, and keeps the
// views and macros it makes in the engine only; so does an engine over
// one file or over an object store. TEMP views and macros are never
// written.
const catalogFile = ".carquet_catalog.sql"

const catalogHeader = "-- carquet catalog: the views and macros of this folder, rewritten by carquet at each CREATE or DROP\n"

// catalogWrites reports whether the catalog is written.
func (e *Engine) catalogWrites() bool { return e.catalog != "" && !e.opts.ReadOnly }

// catalogStampOf is the file's size and modification time ("" when there
// is no file).
func catalogStampOf(path string) (string, error) {
	st, err := os.Stat(path)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("carquet: catalog: %w", err)
	}
	return fmt.Sprintf("%d/%d", st.Size(), st.ModTime().UnixNano()), nil
}

// loadCatalogLocked reads the catalog file into the engine's views and
// kept macros (replacing them); e.mu is held or the engine not shared yet.
func (e *Engine) loadCatalogLocked() error {
	stamp, err := catalogStampOf(e.catalog)
	if err != nil {
		return err
	}
	views := map[string]*view{}
	macros := map[macroKey]*macro{}
	types := map[string]*userType{}
	if stamp != "" {
		b, err := os.ReadFile(e.catalog)
		if err != nil {
			return fmt.Errorf("carquet: catalog: %w", err)
		}
		if err := parseCatalog(string(b), views, macros, types); err != nil {
			return fmt.Errorf("carquet: catalog %s: %w", e.catalog, err)
		}
	}
	e.views, e.types = views, types
	for k, m := range e.macros {
		if m.temp {
			macros[k] = m
		}
	}
	e.macros = macros
	e.catalogStamp = stamp
	return nil
}

// parseCatalog reads the statements of a catalog file. Nothing in them is
// checked or expanded: they were when they were first made, and a view or
// a macro may name one that comes after it.
func parseCatalog(text string, views map[string]*view, macros map[macroKey]*macro, types map[string]*userType) error {
	stmts, err := Split(text)
	if err != nil {
		return err
	}
	for _, st := range stmts {
		all, err := parse.Lex(st)
		if err != nil {
			return err
		}
		toks := parse.Significant(all)
		if n := len(toks); n > 0 && toks[n-1].Kind == parse.Op && toks[n-1].Text == ";" {
			toks = toks[:n-1]
		}
		if len(toks) == 0 {
			continue
		}
		s := &Stmt{}
		if !toks[0].Is("create") {
			return errAt(st, toks[0].Pos, "expected CREATE VIEW or CREATE MACRO")
		}
		if isTypeCreate(toks) {
			// Types are kept resolved: one names no other.
			u, err := parseTypeCreate(s, st, toks, nil)
			if err != nil {
				return err
			}
			types[strings.ToLower(u.name)] = u
			continue
		}
		if _, ok := isMacroCreate(toks); ok {
			m, err := parseMacro(st, toks, s)
			if err != nil {
				return err
			}
			if m.temp {
				return errAt(st, toks[0].Pos, "a temporary macro in the catalog")
			}
			macros[m.key()] = m
			continue
		}
		v, ok, err := parseView(s, st, toks)
		if err != nil {
			return err
		}
		if !ok || v.temp {
			return errAt(st, toks[0].Pos, "expected CREATE VIEW or CREATE MACRO")
		}
		views[strings.ToLower(v.name)] = v
	}
	return nil
}

// refreshCatalogLocked reads the catalog again if the file changed since
// the engine last read or wrote it; e.mu is held.
func (e *Engine) refreshCatalogLocked() error {
	_, err := e.reloadCatalogLocked()
	return err
}

// reloadCatalogLocked is refreshCatalogLocked reporting whether it read
// the file again; the statements prepared before are then forgotten.
func (e *Engine) reloadCatalogLocked() (bool, error) {
	if !e.catalogWrites() {
		return false, nil
	}
	stamp, err := catalogStampOf(e.catalog)
	if err != nil {
		return false, err
	}
	if stamp == e.catalogStamp {
		return false, nil
	}
	if err := e.loadCatalogLocked(); err != nil {
		return false, err
	}
	e.viewsGen++ // another engine's views: statements that read views rebind
	clear(e.stmts)
	return true, nil
}

// refreshCatalog is refreshCatalogLocked for Prepare: another engine's
// views and macros are seen by the next statement prepared.
func (e *Engine) refreshCatalog() error {
	if !e.catalogWrites() {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.refreshCatalogLocked()
}

// saveCatalogLocked writes the engine's views and kept macros to the
// catalog file (removed when there are none); e.mu is held.
func (e *Engine) saveCatalogLocked() error {
	if !e.catalogWrites() {
		return nil
	}
	var defs []string
	for _, v := range e.views {
		defs = append(defs, v.definition())
	}
	for _, m := range e.macros {
		if !m.temp {
			defs = append(defs, m.definition())
		}
	}
	for _, u := range e.types {
		defs = append(defs, u.definition())
	}
	if len(defs) == 0 {
		if err := os.Remove(e.catalog); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("carquet: catalog: %w", err)
		}
		e.catalogStamp = ""
		return nil
	}
	sort.Strings(defs)
	var b strings.Builder
	b.WriteString(catalogHeader)
	for _, d := range defs {
		b.WriteString(d)
		b.WriteString(";\n")
	}
	f, err := os.CreateTemp(filepath.Dir(e.catalog), catalogFile+".*.tmp")
	if err != nil {
		return fmt.Errorf("carquet: catalog: %w", err)
	}
	_, err = f.WriteString(b.String())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), e.catalog)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("carquet: catalog: %w", err)
	}
	if e.catalogStamp, err = catalogStampOf(e.catalog); err != nil {
		return err
	}
	return nil
}
