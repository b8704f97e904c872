// helpers.go - what registry.go's entries call, shared by driver.go and engine.go
//
// tests/keys.test copies it next to each of them (each is a program of its
// own, package main).
package main

import (
	"encoding/hex"
	"fmt"
	"os"
)

// num is a vector's Number argument as the package takes it: its decimal
// text, exactly.
func num(s string) string { return s }

// t and n are a parsed part as the expected lines write it.
func t(s string) string { return "t:" + hex.EncodeToString([]byte(s)) }
func n(v string) string { return "n:" + v }

func fail(err error) { fmt.Fprintln(os.Stderr, err); os.Exit(1) }
