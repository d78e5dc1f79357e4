package main

import (
	"errors"
	"io"
)

var errNotYet = errors.New("not implemented yet")

func runDemo(e *env, args []string) error  { return errNotYet }
func runShell(e *env, args []string) error { return errNotYet }
func shellUsage(w io.Writer)               {}
