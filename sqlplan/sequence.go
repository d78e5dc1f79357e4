package sqlplan

import (
	"math"

	"github.com/carquet-go/carquet/sqlplan/function"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// Sequences: CREATE [OR REPLACE] SEQUENCE [IF NOT EXISTS] s [START [WITH]
// n] [INCREMENT [BY] n], DROP SEQUENCE [IF EXISTS] s, and nextval('s')
// (the next number, each call and row its own) and currval('s') (the last
// nextval gave). Like views, they live as long as the engine.

type sequence struct {
	next, inc int64
	cur       *int64
	start     int64 // the first value, as duckdb_sequences() shows it
}

func (e *Engine) prepareSequence(s *Stmt, text string, toks []parse.Token, create bool) (*Stmt, error) {
	r := stmtTokens{text, toks}
	word, fail := r.word, r.fail
	i, replace, ifMod := 1, false, false
	if create && word(1) == "or" && word(2) == "replace" {
		replace, i = true, 3
	}
	if word(i) != "sequence" {
		return nil, fail(i, "expected SEQUENCE")
	}
	i++
	switch {
	case create && word(i) == "if" && word(i+1) == "not" && word(i+2) == "exists":
		ifMod, i = true, i+3
	case !create && word(i) == "if" && word(i+1) == "exists":
		ifMod, i = true, i+2
	}
	if i >= len(toks) || toks[i].Kind == parse.Op {
		return nil, fail(i, "expected a sequence name")
	}
	name := strings.ToLower(toks[i].Name())
	i++
	seq := &sequence{next: 1, inc: 1}
	// number reads [filler] [-]n after the option word at toks[k] ("" for
	// no filler) and returns n and the index after it.
	number := func(k int, filler string) (int64, int, error) {
		k++
		if filler != "" && word(k) == filler {
			k++
		}
		sign := ""
		if k < len(toks) && toks[k].Kind == parse.Op && toks[k].Text == "-" {
			sign, k = "-", k+1
		}
		if k >= len(toks) || toks[k].Kind != parse.Number {
			return 0, k, fail(k, "expected a number")
		}
		// With its sign: the least BIGINT has no positive counterpart.
		n, err := strconv.ParseInt(sign+toks[k].Text, 10, 64)
		if err != nil {
			return 0, k, fail(k, "expected an integer")
		}
		return n, k + 1, nil
	}
	startSet := false
	var minV, maxV *int64 // MINVALUE, MAXVALUE as written
	for create && i < len(toks) {
		switch word(i) {
		case "minvalue", "maxvalue":
			n, next, err := number(i, "")
			if err != nil {
				return nil, err
			}
			if word(i) == "minvalue" {
				minV = &n
			} else {
				maxV = &n
			}
			i = next
		case "no":
			// NO CYCLE, NO MINVALUE, NO MAXVALUE: the defaults.
			if w := word(i + 1); w != "cycle" && w != "minvalue" && w != "maxvalue" {
				return nil, fail(i+1, "expected CYCLE, MINVALUE or MAXVALUE after NO")
			}
			i += 2
		case "start":
			n, next, err := number(i, "with")
			if err != nil {
				return nil, err
			}
			seq.next, startSet, i = n, true, next
		case "increment":
			n, next, err := number(i, "by")
			if err != nil {
				return nil, err
			}
			if n == 0 {
				return nil, fail(i+1, "a sequence's increment cannot be 0")
			}
			seq.inc, i = n, next
		default:
			err := fail(i, "CREATE SEQUENCE takes START, INCREMENT, MINVALUE, MAXVALUE and NO CYCLE, not %s", toks[i].Text)
			err.(*Error).Err = ErrUnsupported
			return nil, err
		}
	}
	if !startSet && seq.inc < 0 {
		seq.next = -1
	}
	seq.start = seq.next
	// carquet's sequences run over the whole range of their sign: the
	// bounds DuckDB writes (EXPORT DATABASE's schema.sql) are those.
	if lo, hi := seq.bounds(); minV != nil && *minV != lo || maxV != nil && *maxV != hi {
		err := fail(1, "CREATE SEQUENCE with MINVALUE or MAXVALUE other than %d and %d is not supported", lo, hi)
		err.(*Error).Err = ErrUnsupported
		return nil, err
	}
	if !create && i < len(toks) {
		return nil, fail(i, "unexpected %s", toks[i].Text)
	}
	s.kind = kindSequence
	s.seqName, s.seq, s.replace, s.ifMod, s.seqDrop = name, seq, replace, ifMod, !create
	return s, nil
}

func (e *Engine) execSequence(s *Stmt) (Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, exists := e.seqs[s.seqName]
	switch {
	case s.seqDrop && !exists:
		if s.ifMod {
			return Result{}, nil
		}
		return Result{}, errorf("sequence %q does not exist", s.seqName)
	case s.seqDrop:
		delete(e.seqs, s.seqName)
		return Result{}, nil
	case exists && s.ifMod:
		return Result{}, nil
	case exists && !s.replace:
		return Result{}, errorf("sequence %q already exists", s.seqName)
	}
	if e.seqs == nil {
		e.seqs = map[string]*sequence{}
	}
	seq := *s.seq
	e.seqs[s.seqName] = &seq
	return Result{}, nil
}

// sequenceCall is the sequence called name as nextval and currval call
// it: next advances it (or reads it, with currval) under the engine's
// lock. ok is false when there is none.
func (e *Engine) sequenceCall(name string) (next func(currval bool) (int64, error), ok bool) {
	e.mu.Lock()
	seq := e.seqs[name]
	e.mu.Unlock()
	if seq == nil {
		return nil, false
	}
	return func(currval bool) (int64, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		if currval {
			if seq.cur == nil {
				return 0, errorf("currval of sequence %q: nextval has not been called", name)
			}
			return *seq.cur, nil
		}
		v := seq.next
		seq.cur = &v
		next, overflow := function.AddInt64(seq.next, seq.inc)
		if overflow {
			return 0, errorf("sequence %q is exhausted", name)
		}
		seq.next = next
		return v, nil
	}, true
}

// bounds are the sequence's MINVALUE and MAXVALUE: DuckDB's defaults for
// the sign of its increment (carquet's sequences have no others).
func (seq *sequence) bounds() (lo, hi int64) {
	if seq.inc < 0 {
		return math.MinInt64, -1
	}
	return 1, math.MaxInt64
}

// createSQL is the CREATE SEQUENCE that makes the sequence again as it
// is now, as DuckDB writes it (duckdb_sequences(), EXPORT DATABASE): it
// starts at the value nextval gives next.
func (seq *sequence) createSQL(name string) string {
	lo, hi := seq.bounds()
	return "CREATE SEQUENCE " + parse.SQLIdent(name) + " INCREMENT BY " + strconv.FormatInt(seq.inc, 10) +
		" MINVALUE " + strconv.FormatInt(lo, 10) + " MAXVALUE " + strconv.FormatInt(hi, 10) +
		" START " + strconv.FormatInt(seq.next, 10) + " NO CYCLE"
}
