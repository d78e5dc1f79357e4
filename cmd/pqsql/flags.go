package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/carquet-go/carquet/internal/cli/output"
)

// errHelp is returned after --help printed a command's help (exit 0).
var errHelp = errors.New("help shown")

// cmdFlags is a command's flag set with its help text.
type cmdFlags struct {
	*flag.FlagSet
	e                     *env
	usage, about, example string
	// printHelpFn, when set, prints the help instead of printHelp.
	printHelpFn func(w io.Writer)
}

// newFlags starts the flags of a command. usage is the synopsis after
// "pqsql", about a paragraph, example lines of examples.
func newFlags(e *env, name, usage, about, example string) *cmdFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &cmdFlags{FlagSet: fs, e: e, usage: usage, about: about, example: example}
}

func (c *cmdFlags) printHelp(w io.Writer) {
	fmt.Fprintf(w, "usage: pqsql %s\n\n%s\n", c.usage, strings.TrimSpace(c.about))
	if flags := flagList(c.FlagSet); flags != "" {
		fmt.Fprintf(w, "\nflags:\n%s", flags)
	}
	if c.example != "" {
		fmt.Fprintf(w, "\nexamples:\n")
		for _, l := range strings.Split(strings.TrimSpace(c.example), "\n") {
			fmt.Fprintf(w, "  %s\n", strings.TrimSpace(l))
		}
	}
}

// flagList formats a flag set's flags one per line, with aliases ("same
// as -x") folded into the flag they name and the output-mode switches on
// one line.
func flagList(fs *flag.FlagSet) string {
	aliases := map[string][]string{}
	var modes []string
	fs.VisitAll(func(f *flag.Flag) {
		if target, ok := strings.CutPrefix(f.Usage, "same as -"); ok {
			aliases[target] = append(aliases[target], f.Name)
		}
		if strings.HasPrefix(f.Usage, "output mode "+f.Name) {
			modes = append(modes, "-"+f.Name)
		}
	})
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Usage, "same as -") || strings.HasPrefix(f.Usage, "output mode "+f.Name) {
			return
		}
		names := "-" + f.Name
		for _, a := range aliases[f.Name] {
			names += ", -" + a
		}
		arg, usage := flag.UnquoteUsage(f)
		if arg == "value" {
			arg = "X"
		}
		if arg != "" {
			names += " " + arg
		}
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			usage += " (default " + f.DefValue + ")"
		}
		if len(names) <= 20 {
			fmt.Fprintf(&b, "  %-20s  %s\n", names, usage)
		} else {
			fmt.Fprintf(&b, "  %s\n  %-20s  %s\n", names, "", usage)
		}
		if f.Name == "mode" && len(modes) > 0 {
			fmt.Fprintf(&b, "  %s\n  %-20s  %s\n", strings.Join(modes, " "), "", "the same as -mode NAME")
		}
	})
	return b.String()
}

// parse parses flags wherever they appear among the arguments (flags
// after "--" are arguments) and returns the positional arguments.
func (c *cmdFlags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := c.FlagSet.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if c.printHelpFn != nil {
					c.printHelpFn(c.e.stdout)
					return nil, errHelp
				}
				c.printHelp(c.e.stdout)
				return nil, errHelp
			}
			return nil, fmt.Errorf("%s: %v (see pqsql %s --help): %w", c.Name(), err, c.Name(), errUsage)
		}
		rest := c.FlagSet.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// Parse stops at "--" (consumed) or at the first non-flag.
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// needArgs checks the number of positional arguments.
func (c *cmdFlags) needArgs(pos []string, lo, hi int) error {
	if len(pos) < lo || (hi >= 0 && len(pos) > hi) {
		want := fmt.Sprintf("%d", lo)
		switch {
		case hi < 0:
			want = fmt.Sprintf("at least %d", lo)
		case hi != lo:
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		return fmt.Errorf("%s: want %s argument(s), got %d (usage: pqsql %s): %w", c.Name(), want, len(pos), c.usage, errUsage)
	}
	return nil
}

// outFlags are the output-mode flags shared by the commands that print
// rows and by the shell.
type outFlags struct {
	mode     string
	set      map[output.Mode]*bool // the -box, -csv, ... flags
	noHeader bool
	maxWidth int
}

// outputFlags adds the output-mode flags, except those named in skip
// (a command whose --json means its own JSON document).
func (c *cmdFlags) outputFlags(skip ...string) *outFlags {
	o := &outFlags{set: map[output.Mode]*bool{}}
	c.StringVar(&o.mode, "mode", "", "output mode: "+strings.Join(output.ModeNames(), ", ")+
		" (default box on a terminal, csv otherwise)")
	for i, n := range output.ModeNames() {
		if contains(skip, n) {
			continue
		}
		o.set[output.Mode(i)] = c.Bool(n, false, "output mode "+n)
	}
	c.BoolVar(&o.noHeader, "no-header", false, "leave out the CSV/TSV header line")
	c.IntVar(&o.maxWidth, "width", 0, "width tables must fit (default: the terminal's; -1 does not fit)")
	return o
}

// options resolves the output options: the last mode flag given wins,
// else box on a terminal and CSV when piped.
func (o *outFlags) options(e *env) (output.Options, error) {
	opts := output.Options{Mode: output.CSV, NoHeader: o.noHeader, Width: e.width}
	if e.stdoutTTY {
		opts.Mode = output.Box
	}
	if o.mode != "" {
		m, err := output.ParseMode(o.mode)
		if err != nil {
			return opts, fmt.Errorf("%v: %w", err, errUsage)
		}
		opts.Mode = m
	}
	for i := range output.ModeNames() {
		if b := o.set[output.Mode(i)]; b != nil && *b {
			opts.Mode = output.Mode(i)
		}
	}
	switch {
	case o.maxWidth > 0:
		opts.Width = o.maxWidth
	case o.maxWidth < 0:
		opts.Width = 0
	}
	return opts, nil
}

// stringList is a flag that may be given several times.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
