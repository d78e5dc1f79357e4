package sqlplan

import (
	"net/url"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/textfile"
)

// The options of EXPORT DATABASE and COPY t FROM: the file format and,
// for CSV, DuckDB's dialect options as DuckDB writes them in an export's
// load.sql: (FORMAT 'csv', force_not_null ('a', 'b'), quote '"',
// delimiter ',', header 1).

// fileOptions are the options read.
type fileOptions struct {
	format string // "parquet" or "csv"; "" when not given
	csv    csvOptions
}

// csvOptions is a CSV file's dialect, and what COPY ... FROM does with
// it.
type csvOptions struct {
	textfile.Dialect
	// notNull are FORCE_NOT_NULL's columns: an empty field of theirs is
	// the empty string, not NULL (COPY ... FROM only).
	notNull []string
	// sniff names what COPY ... FROM's sniffer finds in the file, as
	// DuckDB's AUTO_DETECT (on by default): those of delim, quote and
	// header that the options did not give (textfile.CopyScan).
	sniff []string
}

// defaultCSV is DuckDB's CSV dialect: comma, double quotes doubled
// inside quotes, a header line.
var defaultCSV = csvOptions{Dialect: textfile.DefaultDialect}

// readFileOptions reads the options at toks[i], if any, for the
// statement named what; fromFile permits FORCE_NOT_NULL (COPY ... FROM).
// It returns the index after the options.
func readFileOptions(text string, toks []parse.Token, i int, what string, fromFile bool) (fileOptions, int, error) {
	opts := fileOptions{csv: defaultCSV}
	if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
		if fromFile {
			opts.csv.sniff = []string{"delim", "quote", "header"}
		}
		return opts, i, nil
	}
	end := parse.ClosingParen(toks, i)
	if end < 0 {
		return opts, i, errAt(text, toks[i].Pos, "unmatched ( in the %s options", what)
	}
	escapeSet, csvSet := false, ""
	given, auto := map[string]bool{}, true
	for _, item := range parse.SplitList(toks[i+1 : end]) {
		if len(item) >= 3 && item[1].Kind == parse.Op && item[1].Text == "=" {
			item = append(item[:1:1], item[2:]...)
		}
		if len(item) == 0 {
			return opts, i, errAt(text, toks[i].Pos, "empty option in the %s options", what)
		}
		key, val := strings.ToLower(item[0].Text), item[1:]
		fail := func(format string, args ...any) error {
			return errAt(text, item[0].Pos, "%s option %s: "+format, append([]any{what, strings.ToUpper(key)}, args...)...)
		}
		var err error
		switch key {
		case "format":
			if len(val) != 1 {
				return opts, i, fail("expected a format name")
			}
			f := strings.ToLower(val[0].Name())
			if f != "parquet" && f != "csv" {
				e := errAt(text, val[0].Pos, "%s as %s is not supported (carquet reads and writes Parquet and CSV)", what, strings.ToUpper(f))
				e.Err = ErrUnsupported
				return opts, i, e
			}
			opts.format = f
		case "delimiter", "delim", "sep":
			opts.csv.Delim, err = optionByte(val, fail)
			csvSet, given["delim"] = key, true
		case "quote":
			opts.csv.Quote, err = optionByte(val, fail)
			csvSet, given["quote"] = key, true
		case "escape":
			opts.csv.Escape, err = optionByte(val, fail)
			escapeSet, csvSet = true, key
		case "header":
			opts.csv.Header, err = optionBool(val, fail)
			csvSet, given["header"] = key, true
		case "auto_detect":
			if !fromFile {
				return opts, i, fail("is an option of COPY ... FROM")
			}
			auto, err = optionBool(val, fail)
			csvSet = key
		case "force_not_null", "allow_quoted_nulls":
			if !fromFile {
				return opts, i, fail("is an option of COPY ... FROM")
			}
			if key == "force_not_null" {
				opts.csv.notNull, err = optionNames(val, fail)
			} else {
				opts.csv.QuotedNulls, err = optionBool(val, fail)
			}
			csvSet = key
		default:
			e := errAt(text, item[0].Pos, "%s option %s is not supported (carquet takes FORMAT, DELIMITER, QUOTE, ESCAPE, HEADER, AUTO_DETECT, FORCE_NOT_NULL and ALLOW_QUOTED_NULLS)",
				what, strings.ToUpper(key))
			e.Err = ErrUnsupported
			return opts, i, e
		}
		if err != nil {
			return opts, i, err
		}
	}
	if !escapeSet {
		opts.csv.Escape = opts.csv.Quote // DuckDB's default: the quote, doubled
	}
	for _, k := range []string{"delim", "quote", "header"} {
		if fromFile && auto && !given[k] {
			opts.csv.sniff = append(opts.csv.sniff, k)
		}
	}
	if csvSet != "" && opts.format == "parquet" {
		return opts, i, errAt(text, toks[i].Pos, "%s option %s is a CSV option, not a Parquet one", what, strings.ToUpper(csvSet))
	}
	if c := opts.csv; c.Delim == c.Quote || c.Delim == '\n' || c.Delim == '\r' || c.Quote == '\n' || c.Quote == '\r' {
		return opts, i, errAt(text, toks[i].Pos, "%s: the CSV delimiter and quote must differ and not be line ends", what)
	}
	return opts, end + 1, nil
}

// optionByte reads a one-character option value: 'c'.
func optionByte(val []parse.Token, fail func(string, ...any) error) (byte, error) {
	if len(val) != 1 || val[0].Kind != parse.String || len(val[0].Unquoted()) != 1 {
		return 0, fail("expected one character in quotes")
	}
	return val[0].Unquoted()[0], nil
}

// optionBool reads a boolean option value; none is true (HEADER alone).
func optionBool(val []parse.Token, fail func(string, ...any) error) (bool, error) {
	if len(val) == 0 {
		return true, nil
	}
	if len(val) == 1 {
		switch strings.ToLower(val[0].Unquoted()) {
		case "1", "true", "on":
			return true, nil
		case "0", "false", "off":
			return false, nil
		}
	}
	return false, fail("expected true or false")
}

// optionNames reads a column name or a parenthesized list of them, in
// quotes or not: 'a' or ('a', 'b').
func optionNames(val []parse.Token, fail func(string, ...any) error) ([]string, error) {
	if len(val) >= 2 && val[0].Kind == parse.Op && val[0].Text == "(" && parse.ClosingParen(val, 0) == len(val)-1 {
		var out []string
		for _, item := range parse.SplitList(val[1 : len(val)-1]) {
			if len(item) != 1 || item[0].Kind == parse.Op {
				return nil, fail("expected column names")
			}
			out = append(out, item[0].Unquoted())
		}
		return out, nil
	}
	if len(val) != 1 || val[0].Kind == parse.Op {
		return nil, fail("expected a column name or a list of them")
	}
	return []string{val[0].Unquoted()}, nil
}

// loadOptions is the options list of load.sql's COPY ... FROM for a CSV
// file of these options and a table whose NOT NULL columns are notNull,
// as DuckDB writes it, with allow_quoted_nulls off: the empty string
// written "" reads back as itself in DuckDB too.
func (c csvOptions) loadOptions(notNull []string) string {
	var b strings.Builder
	b.WriteString("(FORMAT 'csv'")
	switch len(notNull) {
	case 0:
	case 1:
		b.WriteString(", force_not_null " + parse.QuoteString(notNull[0]))
	default:
		quoted := make([]string, len(notNull))
		for i, n := range notNull {
			quoted[i] = parse.QuoteString(n)
		}
		b.WriteString(", force_not_null (" + strings.Join(quoted, ", ") + ")")
	}
	b.WriteString(", quote " + parse.QuoteString(string(c.Quote)))
	if c.Escape != c.Quote {
		b.WriteString(", escape " + parse.QuoteString(string(c.Escape)))
	}
	b.WriteString(", delimiter " + parse.QuoteString(string(c.Delim)) + ", allow_quoted_nulls false")
	if c.Header {
		b.WriteString(", header 1)")
	} else {
		b.WriteString(", header 0)")
	}
	return b.String()
}

// kvMetadataOption reads COPY ... TO's KV_METADATA {key: 'value', ...}
// (the tokens after the option's name), DuckDB's footer key/value
// metadata, as the table option kv_metadata: the pairs as a URL query.
func kvMetadataOption(text string, toks []parse.Token) (string, error) {
	if len(toks) < 2 || toks[0].Kind != parse.Op || toks[0].Text != "{" || toks[len(toks)-1].Kind != parse.Op || toks[len(toks)-1].Text != "}" {
		pos := len(text)
		if len(toks) > 0 {
			pos = toks[0].Pos
		}
		return "", errAt(text, pos, "KV_METADATA takes {key: 'value', ...}")
	}
	q := url.Values{}
	for _, pair := range parse.SplitList(toks[1 : len(toks)-1]) {
		if len(pair) != 3 || pair[1].Kind != parse.Op || pair[1].Text != ":" || !kvWord(pair[0]) || !kvWord(pair[2]) {
			return "", errAt(text, toks[0].Pos, "KV_METADATA takes {key: 'value', ...}")
		}
		q.Set(kvText(pair[0]), kvText(pair[2]))
	}
	return q.Encode(), nil
}

// kvWord reports whether a token can be a KV_METADATA key or value.
func kvWord(t parse.Token) bool {
	switch t.Kind {
	case parse.Ident, parse.String, parse.DQuoted, parse.Number:
		return true
	}
	return false
}

// kvText is a KV_METADATA key's or value's text.
func kvText(t parse.Token) string {
	if t.Kind == parse.Ident || t.Kind == parse.Number {
		return t.Text
	}
	return t.Unquoted()
}
