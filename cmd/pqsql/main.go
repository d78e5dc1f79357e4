// Command pqsql is carquet's SQL shell and Parquet inspection tool.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type command struct {
	name, usage, help string
	run               func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"schema", "pqsql schema FILE", "print a file's schema", runSchema},
		{"info", "pqsql info FILE", "print a file's row groups, column chunks and metadata", runInfo},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pqsql COMMAND [ARGS]")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-28s %s\n", c.usage, c.help)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			if err := c.run(args[1:], stdout, stderr); err != nil {
				fmt.Fprintln(stderr, "pqsql:", err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(stderr, "pqsql: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}
