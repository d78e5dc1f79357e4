//go:build !linux

package main

func beMain() {}
