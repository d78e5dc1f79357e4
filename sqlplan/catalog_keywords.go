package sqlplan

import (
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// duckdbKeywords is duckdb_keywords(): a row per keyword, sorted as
// DuckDB lists them.
func duckdbKeywords(c *plan.CatalogRows) {
	categoryOf := map[string]string{}
	var words []string
	for _, cat := range parse.KeywordCategories {
		for _, w := range strings.Fields(cat.Words) {
			categoryOf[w] = cat.Category
			words = append(words, w)
		}
	}
	sort.Strings(words)
	name, category := c.Col("keyword_name", plan.TString), c.Col("keyword_category", plan.TString)
	for _, w := range words {
		c.N++
		name.Add(w)
		category.Add(categoryOf[w])
	}
}
