package sqlplan

import (
	"context"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/writer"
)

// OPTIMIZE t rewrites a single-file table's rows into full row groups
// (the table's row_group_rows), as writer.Compact does: atomically,
// keeping the table's options, metadata and bloom filters. Appends merge a
// file's small last row groups by themselves; OPTIMIZE is for files that
// other writers, or appends while the file was being read, left with many
// small ones. For a folder table it merges each run of small files (one
// per INSERT) into one (writer.CompactFolder), swapping the folder whole.
// A Delta table's small data files are compacted by a commit
// (delta_optimize.go).

// prepareOptimize prepares OPTIMIZE name.
func (e *Engine) prepareOptimize(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	if len(toks) != 2 || toks[1].Kind != parse.Ident && toks[1].Kind != parse.Quoted && toks[1].Kind != parse.DQuoted && toks[1].Kind != parse.String {
		return nil, errAt(text, tokPos(text, toks, min(len(toks)-1, 2)), "OPTIMIZE takes one table name")
	}
	s.kind = kindOptimize
	s.table = toks[1].Name()
	return s, nil
}

// optimize runs OPTIMIZE; RowsAffected is the number of rows rewritten
// (0 when the table's row groups were full already).
func (s *Stmt) optimize(ctx context.Context, p *planner) (Result, error) {
	tg, err := s.e.targetOf(s.table, nil, true)
	if err != nil {
		return Result{}, err
	}
	if tg.delta != nil {
		return s.optimizeDelta(ctx, p, tg) // delta_optimize.go
	}
	if objstore.IsURL(tg.path) {
		return Result{}, remoteRewrite(tg.path, "OPTIMIZE")
	}
	opts, err := s.e.writeOptions(tg.opts)
	if err != nil {
		return Result{}, err
	}
	e := s.e
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.forget(tg.path)
	defer e.forget(tg.path)
	compact := writer.Compact
	if tg.folder {
		compact = writer.CompactFolder
	}
	n, err := compact(tg.path, opts...)
	return Result{RowsAffected: n}, err
}
