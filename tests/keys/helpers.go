// helpers.go - what registry.go's entries call, shared by driver.go and engine.go
//
// tests/keys.test copies it next to each of them (each is a program of its
// own, package main).
package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
)

// num is a vector's number argument as the package takes it.
func num(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(err)
	}
	return v
}

// t and n are a parsed part as the expected lines write it.
func t(s string) string { return "t:" + hex.EncodeToString([]byte(s)) }
func n(v int64) string  { return "n:" + strconv.FormatInt(v, 10) }

func fail(err error) { fmt.Fprintln(os.Stderr, err); os.Exit(1) }
