package sqlplan

import (
	"context"
	"fmt"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// SUMMARIZE table | query, as DuckDB has it: a row per column of the
// table or the query's result with DuckDB's columns and types
// (summaryColumns). Everything is computed in one aggregating query over
// the table or query, which reads it once.
//
// Where DuckDB's answer is exact, carquet's is the same: column_name,
// column_type, min, max, avg, std, count and null_percentage (avg of a
// DATE or TIMESTAMP column is a TIMESTAMP's text, as in DuckDB).
// approx_unique is approx_count_distinct's value. DuckDB takes the
// quartiles from a t-digest (approx_quantile), whose values depend on its
// internals; carquet gives the exact quantile_cont of a FLOAT / DOUBLE
// column and the exact quantile_disc (a value of the column) of other
// numbers, dates, times and timestamps. avg and std of other types are
// NULL, as in DuckDB, and so are their quartiles; carquet has no avg of
// TIME (DuckDB has).

// summaryColumns are SUMMARIZE's result columns, the type of each
// filled in by summarize.
var summaryColumns = []string{"column_name", "column_type", "min", "max", "approx_unique", "avg", "std", "q25", "q50", "q75", "count", "null_percentage"}

// prepareSummarize reads SUMMARIZE table or SUMMARIZE query; the query
// (SELECT * FROM table for a table) is kept as s.inner and as text.
func (e *Engine) prepareSummarize(ctx context.Context, s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	r := stmtTokens{text: text, toks: toks}
	if len(toks) < 2 {
		return nil, r.fail(1, "syntax error: SUMMARIZE takes a table or a query")
	}
	// The query ends with its last token: a comment after it would
	// swallow what summaryQuery writes after the query.
	last := toks[len(toks)-1]
	query := text[toks[1].Pos : last.Pos+len(last.Text)]
	inner := toks[1:]
	switch r.word(1) {
	case "select", "from", "with", "values", "pivot", "unpivot":
	default:
		if toks[1].Kind != parse.Op || toks[1].Text != "(" {
			pos := toks[0].Pos
			inner = append([]parse.Token{{Kind: parse.Ident, Text: "select", Pos: pos}, {Kind: parse.Op, Text: "*", Pos: pos},
				{Kind: parse.Ident, Text: "from", Pos: pos}}, toks[1:]...)
			query = "SELECT * FROM " + query
		}
	}
	st, err := e.prepareTokens(ctx, text, inner)
	if err != nil {
		return nil, err
	}
	if st.kind != kindSelect && st.kind != kindSetOp {
		return nil, r.fail(1, "SUMMARIZE takes a table or a query")
	}
	s.kind, s.inner, s.Src = kindSummarize, st, &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	s.summarized = query
	return s, nil
}

// summarize runs SUMMARIZE: the query's columns come from planning it,
// their figures from one aggregating query over it (summaryQuery), whose
// single row is cut into a row per column.
func (s *Stmt) summarize(ctx context.Context, p *plan.Planner, sess *Session) (*Rows, error) {
	ip := p.Child(s.inner.Src)
	sp, err := s.inner.Plan(ip)
	if err != nil {
		ip.ReleaseAll()
		return nil, err
	}
	cols := sp.Cols
	sp.Root.Close()
	ip.ReleaseAll()
	agg, err := s.e.PrepareTx(ctx, summaryQuery(s.summarized, cols), stmtOf(p).tx)
	if err != nil {
		return nil, err
	}
	rows, err := agg.QuerySession(ctx, p.Args, stmtOf(p).tx, sess)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	b, err := rows.Next()
	if err == io.EOF || err == nil && b.N != 1 {
		return nil, errorf("SUMMARIZE: the summary query gave no row")
	}
	if err != nil {
		return nil, err
	}
	names, types := plan.NewBuilder(plan.TString, len(cols)), plan.NewBuilder(plan.TString, len(cols))
	for _, c := range cols {
		names.Add(c.Name)
		types.Add(c.Type.SQLName())
	}
	out := []*Col{names.C, types.C}
	outCols := []Column{{Name: summaryColumns[0], Type: plan.TString}, {Name: summaryColumns[1], Type: plan.TString}}
	// The aggregating query's columns are figure by figure, then column by
	// column: figure f of column i is b.Cols[i*queryFigures+f]; the
	// quartiles are one list (one sort of the column for all three).
	for f := range queryFigures {
		parts := make([]*Col, len(cols))
		for i := range cols {
			parts[i] = b.Cols[i*queryFigures+f]
		}
		if f == quartilesFigure {
			for k, qc := range quartileCols(parts) {
				out = append(out, qc)
				outCols = append(outCols, Column{Name: summaryColumns[2+f+k], Type: plan.TString, Nullable: true})
			}
			continue
		}
		t := plan.WithoutField(b.Cols[f].T)
		name := summaryColumns[2+f]
		if f > quartilesFigure {
			name = summaryColumns[2+f+2]
		}
		out = append(out, kernels.ConcatCols(t, parts, len(cols)))
		outCols = append(outCols, Column{Name: name, Type: t, Nullable: true})
	}
	return constRows(ctx, outCols, out), nil
}

// queryFigures are the figures summaryQuery computes per column:
// SUMMARIZE's but for the three quartiles, which are one list, figure
// quartilesFigure.
const (
	queryFigures    = 8
	quartilesFigure = 5
)

// quartileCols splits the quartile lists (VARCHAR[], one row each, NULL
// where a column has none) into the q25, q50 and q75 columns.
func quartileCols(lists []*Col) [3]*Col {
	var qs [3]*plan.ColBuilder
	for k := range qs {
		qs[k] = plan.NewBuilder(plan.TString, len(lists))
	}
	for _, l := range lists {
		vals, _ := l.Get(0).([]any)
		for k := range qs {
			if k < len(vals) {
				qs[k].Add(vals[k])
			} else {
				qs[k].Add(nil)
			}
		}
	}
	return [3]*Col{qs[0].C, qs[1].C, qs[2].C}
}

// summaryQuery is the query that computes SUMMARIZE's figures of each
// column of query in one pass: for each column in turn min, max,
// approx_unique, avg, std, the list of q25, q50 and q75, count and
// null_percentage, each cast to the type DuckDB gives it.
func summaryQuery(query string, cols []Column) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		q := `"` + strings.ReplaceAll(c.Name, `"`, `""`) + `"`
		text := func(agg string) string { return "CAST(" + agg + " AS VARCHAR)" }
		const null = "CAST(NULL AS VARCHAR)"
		avg, std, quartiles := null, null, "CAST(NULL AS VARCHAR[])"
		quantile := "quantile_disc"
		switch k := c.Type.Kind; {
		case c.Type.IsNumeric():
			avg, std = text("avg("+q+")"), text("stddev_samp("+q+")")
			if k == KFloat {
				quantile = "quantile_cont"
			}
		case k == KDate || k == KTimestamp:
			// DuckDB's avg of dates and timestamps is a TIMESTAMP.
			avg = text("TIMESTAMP '1970-01-01 00:00:00' + to_microseconds(CAST(avg(epoch_us(" + q + ")) AS BIGINT))")
		case k != KTime:
			quantile = ""
		}
		if quantile != "" {
			quartiles = "CAST(" + quantile + "(" + q + ", [0.25, 0.5, 0.75]) AS VARCHAR[])"
		}
		fmt.Fprintf(&b, "%s, %s, CAST(approx_count_distinct(%s) AS BIGINT), %s, %s, %s, count(*), "+
			"CAST(CASE WHEN count(*) = 0 THEN NULL ELSE 100.0 * (count(*) - count(%s)) / count(*) END AS DECIMAL(9,2))",
			text("min("+q+")"), text("max("+q+")"), q, avg, std, quartiles, q)
	}
	b.WriteString(" FROM (")
	b.WriteString(query)
	b.WriteString(") AS summarized")
	return b.String()
}
