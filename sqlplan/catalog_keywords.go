package sqlplan

import (
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// duckdbKeywords is duckdb_keywords(): a row per keyword, sorted as
// DuckDB lists them.
func duckdbKeywords(c *catalogRows) {
	categoryOf := map[string]string{}
	var words []string
	for _, cat := range parse.KeywordCategories {
		for _, w := range strings.Fields(cat.Words) {
			categoryOf[w] = cat.Category
			words = append(words, w)
		}
	}
	sort.Strings(words)
	name, category := c.col("keyword_name", tString), c.col("keyword_category", tString)
	for _, w := range words {
		c.n++
		name.Add(w)
		category.Add(categoryOf[w])
	}
}
