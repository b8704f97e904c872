// driver.go - the conformance vectors run with a Go package
//
// usage: driver vectors.json VECTORS.out REQUESTS.out
//
// registry.go (written by tests/keys/vectors.c) maps the names in
// vectors.json to the package's functions. Writes one line per vector, in
// the order of their ids, and the request of every pattern for its
// example arguments as one JSON object { func: request }; "G id HEX" is the
// entity the package's entityOf names for a guard vector ("-": none).
// tests/keys/engine.go sends the requests to an engine with aws-sdk-go-v2.
package main

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	k "ddbckeys/PKG"
)

type vectors struct {
	Keys []struct {
		Builder string
		Parser  *string
		Params  []struct {
			Name   string
			Number bool
		}
		Build []struct {
			ID     int
			Values []string
		}
		Parse []struct {
			ID  int
			Key string
		}
	}
	Guards []struct {
		ID    int
		Item  map[string]any
		Bytes bool
	}
	Requests []struct {
		Func      string
		Operation string
		Item      map[string]any
		Args      []struct {
			Value  string
			Number bool
		}
	}
}

func bytesOf(b64 any) []byte {
	text, _ := b64.(string)
	raw, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		fail(err)
	}
	return raw
}

// native is a DynamoDB JSON value with its Binary values as []byte.
func native(x any) any {
	m, _ := x.(map[string]any)
	switch {
	case m["B"] != nil:
		return map[string]any{"B": bytesOf(m["B"])}
	case m["BS"] != nil:
		set, _ := m["BS"].([]any)
		out := make([]any, len(set))
		for i, b := range set {
			out[i] = bytesOf(b)
		}
		return map[string]any{"BS": out}
	case m["L"] != nil:
		list, _ := m["L"].([]any)
		out := make([]any, len(list))
		for i, y := range list {
			out[i] = native(y)
		}
		return map[string]any{"L": out}
	case m["M"] != nil:
		inner, _ := m["M"].(map[string]any)
		out := map[string]any{}
		for name, y := range inner {
			out[name] = native(y)
		}
		return map[string]any{"M": out}
	}
	return x
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		fail(err)
	}
	lines := map[int]string{}
	for _, key := range v.Keys {
		for _, b := range key.Build {
			built, err := builders[key.Builder](b.Values)
			var kbe *k.KeyBuildError
			switch {
			case err == nil:
				lines[b.ID] = fmt.Sprintf("B %d %s", b.ID, hex.EncodeToString([]byte(built)))
			case errors.As(err, &kbe):
				lines[b.ID] = fmt.Sprintf("B %d refused", b.ID)
			default:
				fail(err)
			}
		}
		for _, p := range key.Parse {
			parts, ok := parsers[*key.Parser](p.Key)
			line := fmt.Sprintf("P %d", p.ID)
			if !ok {
				line += " refused"
			}
			for _, part := range parts {
				if ok {
					line += " " + part
				}
			}
			lines[p.ID] = line
		}
	}
	for _, g := range v.Guards {
		item := k.Item(g.Item)
		if g.Bytes {
			// Binary values, at any depth, as the SDK holds them: []byte.
			item = k.Item{}
			for name, x := range g.Item {
				item[name] = native(x)
			}
		}
		name, ok := entityOf(item)
		if !ok {
			lines[g.ID] = fmt.Sprintf("G %d -", g.ID)
		} else {
			lines[g.ID] = fmt.Sprintf("G %d %s", g.ID, hex.EncodeToString([]byte(name)))
		}
	}
	ids := make([]int, 0, len(lines))
	for id := range lines {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	out, err := os.Create(os.Args[2])
	if err != nil {
		fail(err)
	}
	for _, id := range ids {
		fmt.Fprintln(out, lines[id])
	}
	out.Close()
	requests := map[string]any{}
	for _, r := range v.Requests {
		args := make([]string, len(r.Args))
		for i, a := range r.Args {
			args[i] = a.Value
		}
		req, err := requestFuncs[r.Func](r.Item, args)
		if err != nil {
			fail(err)
		}
		requests[r.Func] = req
	}
	text, err := json.Marshal(requests)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(os.Args[3], text, 0o644); err != nil {
		fail(err)
	}
}
