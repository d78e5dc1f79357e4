// Command duckq runs the SQL statements on its standard input (each ending
// in ';' at the end of a line) on DuckDB, or on carquet with -carquet DIR,
// and prints each result with its column types: a quick way to check what
// DuckDB answers when a differential failure needs a second look.
package main

import (
	"bufio"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"

	_ "github.com/carquet-go/carquet/driver"
)

func main() {
	carquet := flag.String("carquet", "", "run on carquet over this folder instead of DuckDB")
	flag.Parse()
	db, err := open(*carquet)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	text, err := io.ReadAll(bufio.NewReader(os.Stdin))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, stmt := range strings.Split(string(text), ";\n") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			fmt.Println("> " + stmt)
			show(db, stmt)
		}
	}
}

func open(dir string) (*sql.DB, error) {
	if dir != "" {
		return sql.Open("carquet", dir)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	_, err = db.Exec("SET TimeZone='UTC'")
	return db, err
}

// show prints the rows of one statement, or its error.
func show(db *sql.DB, stmt string) {
	rows, err := db.Query(stmt)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer rows.Close()
	cts, _ := rows.ColumnTypes()
	var names []string
	for _, c := range cts {
		names = append(names, c.Name()+" "+c.DatabaseTypeName())
	}
	fmt.Println(strings.Join(names, " | "))
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			fmt.Println("error:", err)
			return
		}
		var cells []string
		for _, v := range vals {
			cells = append(cells, fmt.Sprintf("%T:%v", v, v))
		}
		fmt.Println(strings.Join(cells, " | "))
	}
	if err := rows.Err(); err != nil {
		fmt.Println("error:", err)
	}
}
