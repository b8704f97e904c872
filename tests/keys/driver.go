// driver.go - the conformance vectors run with a Go package
//
// usage: driver vectors.json VECTORS.out REQUESTS.out
//        driver engine ENDPOINT vectors.json FUNC...
//
// registry.go (written by tests/keys/vectors.c) maps the names in
// vectors.json to the package's functions. Writes one line per vector, in
// the order of their ids, and the request of every read pattern for its
// example arguments as one JSON object { func: request }. In engine mode it
// sends the requests of the FUNCs (without ProjectionExpression) to the DynamoDB JSON
// API at ENDPOINT with net/http and prints, per request function, the
// entities the package's own type guard finds in what comes back:
// "FUNC<TAB>ENTITY,ENTITY".
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"

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
		Args      []struct {
			Value  string
			Number bool
		}
	}
}

func num(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(err)
	}
	return v
}

func t(s string) string  { return "t:" + hex.EncodeToString([]byte(s)) }
func n(v int64) string   { return "n:" + strconv.FormatInt(v, 10) }
func fail(err error)     { fmt.Fprintln(os.Stderr, err); os.Exit(1) }

// call sends one request of the DynamoDB JSON protocol.
func call(endpoint, operation string, input map[string]any) (map[string]any, error) {
	body, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest("POST", endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+operation)
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=ddbc/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	req.Header.Set("X-Amz-Date", "20260101T000000Z")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s: %s", resp.Status, text)
	}
	var out map[string]any
	return out, json.Unmarshal(text, &out)
}

func engine(endpoint, path string, funcs []string) {
	run := map[string]bool{}
	for _, f := range funcs {
		run[f] = true
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		fail(err)
	}
	for _, r := range v.Requests {
		if !run[r.Func] {
			continue
		}
		args := make([]string, len(r.Args))
		for i, a := range r.Args {
			args[i] = a.Value
		}
		input, err := requestFuncs[r.Func](args)
		if err != nil {
			fail(err)
		}
		if _, ok := input["ProjectionExpression"]; ok {
			delete(input, "ProjectionExpression")
			if names, ok := input["ExpressionAttributeNames"].(map[string]any); ok {
				kce, _ := input["KeyConditionExpression"].(string)
				for ref := range names {
					if !strings.Contains(kce, ref) {
						delete(names, ref)
					}
				}
				if len(names) == 0 {
					delete(input, "ExpressionAttributeNames")
				}
			}
		}
		operation := r.Operation
		found := map[string]bool{}
		for {
			out, err := call(endpoint, operation, input)
			if err != nil {
				fail(fmt.Errorf("%s: %w", r.Func, err))
			}
			var items []any
			if item, ok := out["Item"]; ok {
				items = append(items, item)
			}
			if page, ok := out["Items"].([]any); ok {
				items = append(items, page...)
			}
			for _, item := range items {
				m, _ := item.(map[string]any)
				name, ok := entityOf(m)
				if !ok {
					name = "an item no guard names"
				}
				found[name] = true
			}
			last, ok := out["LastEvaluatedKey"]
			if !ok {
				break
			}
			input["ExclusiveStartKey"] = last
		}
		names := make([]string, 0, len(found))
		for name := range found {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Printf("%s\t%s\n", r.Func, strings.Join(names, ","))
	}
}

func main() {
	if len(os.Args) >= 4 && os.Args[1] == "engine" {
		engine(os.Args[2], os.Args[3], os.Args[4:])
		return
	}
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
			// Binary values as the SDK holds them: []byte.
			item = k.Item{}
			for name, x := range g.Item {
				m, _ := x.(map[string]any)
				if b64, ok := m["B"].(string); ok {
					raw, err := base64.StdEncoding.DecodeString(b64)
					if err != nil {
						fail(err)
					}
					x = map[string]any{"B": raw}
				}
				item[name] = x
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
		req, err := requestFuncs[r.Func](args)
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
