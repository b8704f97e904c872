// engine.go - a Go package's pattern requests sent with aws-sdk-go-v2
//
// usage: engine ENDPOINT vectors.json FUNC...
//
// inputs.go (written by tests/keys/vectors.c, with registry.go and helpers.go)
// maps the names in vectors.json to the package's functions. Each FUNC's
// request, as the package's <Pattern>Input returns it (the SDK's own
// *dynamodb.QueryInput, GetItemInput, ScanInput, PutItemInput,
// UpdateItemInput, DeleteItemInput), goes to the engine at ENDPOINT
// with the SDK's own client (Debian's golang-github-aws-aws-sdk-go-v2-dev,
// built offline). Reads go first, without ProjectionExpression, and print
// the entities the package's own type guard finds in what comes back,
// the items as the SDK returns them (a Binary as []byte):
// "FUNC<TAB>ENTITY,ENTITY". Writes follow in the given order: each is
// sent, its key read back, and "FUNC<TAB>ENTITY" names what the guard
// finds there ("" after a DeleteItem), or "FUNC<TAB>FAIL: why".
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	k "ddbckeys/PKG"
)

type request struct {
	Func      string
	Operation string
	Item      map[string]any
	Args      []struct {
		Value  string
		Number bool
	}
}

// attr is a DynamoDB JSON value as the SDK's AttributeValue.
func attr(v any) (types.AttributeValue, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return nil, fmt.Errorf("not a DynamoDB value: %v", v)
	}
	for typ, x := range m {
		switch typ {
		case "S":
			s, _ := x.(string)
			return &types.AttributeValueMemberS{Value: s}, nil
		case "N":
			s, _ := x.(string)
			return &types.AttributeValueMemberN{Value: s}, nil
		case "B":
			if b, ok := x.([]byte); ok {
				return &types.AttributeValueMemberB{Value: b}, nil
			}
			s, _ := x.(string)
			b, err := base64.StdEncoding.DecodeString(s)
			return &types.AttributeValueMemberB{Value: b}, err
		case "BOOL":
			b, _ := x.(bool)
			return &types.AttributeValueMemberBOOL{Value: b}, nil
		case "NULL":
			return &types.AttributeValueMemberNULL{Value: true}, nil
		case "SS", "NS":
			var out []string
			for _, e := range x.([]any) {
				s, _ := e.(string)
				out = append(out, s)
			}
			if typ == "SS" {
				return &types.AttributeValueMemberSS{Value: out}, nil
			}
			return &types.AttributeValueMemberNS{Value: out}, nil
		case "BS":
			var out [][]byte
			for _, e := range x.([]any) {
				s, _ := e.(string)
				b, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return nil, err
				}
				out = append(out, b)
			}
			return &types.AttributeValueMemberBS{Value: out}, nil
		case "L":
			var out []types.AttributeValue
			for _, e := range x.([]any) {
				a, err := attr(e)
				if err != nil {
					return nil, err
				}
				out = append(out, a)
			}
			return &types.AttributeValueMemberL{Value: out}, nil
		case "M":
			out, err := attrs(x)
			return &types.AttributeValueMemberM{Value: out}, err
		}
		return nil, fmt.Errorf("no DynamoDB type %q", typ)
	}
	return nil, nil
}

func attrs(v any) (map[string]types.AttributeValue, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil
	}
	out := map[string]types.AttributeValue{}
	for name, x := range m {
		a, err := attr(x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = a
	}
	return out, nil
}

// item is an item as the SDK returns it, in the DynamoDB JSON shape the
// package's guards read, a Binary kept as the SDK's []byte.
func item(m map[string]types.AttributeValue) k.Item {
	out := k.Item{}
	for name, a := range m {
		out[name] = value(a)
	}
	return out
}

func value(a types.AttributeValue) map[string]any {
	switch v := a.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": v.Value}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": v.Value}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": v.Value}
	case *types.AttributeValueMemberL:
		var l []any
		for _, e := range v.Value {
			l = append(l, value(e))
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberM:
		m := map[string]any{}
		for name, e := range v.Value {
			m[name] = value(e)
		}
		return map[string]any{"M": m}
	}
	return nil
}

// whole drops a read's ProjectionExpression (and the names only it used),
// so that whole items come back to be told apart.
func whole(proj **string, names map[string]string, kce *string) {
	if *proj == nil {
		return
	}
	*proj = nil
	for ref := range names {
		if kce == nil || !strings.Contains(*kce, ref) {
			delete(names, ref)
		}
	}
}

// read sends a read (the package's *dynamodb.GetItemInput, QueryInput or
// ScanInput, as it is but for whole) and returns the items, every page.
func read(ctx context.Context, c *dynamodb.Client, in any) ([]k.Item, error) {
	var items []k.Item
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		whole(&in.ProjectionExpression, in.ExpressionAttributeNames, nil)
		if len(in.ExpressionAttributeNames) == 0 {
			in.ExpressionAttributeNames = nil
		}
		out, err := c.GetItem(ctx, in)
		if err != nil || out.Item == nil {
			return nil, err
		}
		return []k.Item{item(out.Item)}, nil
	case *dynamodb.QueryInput:
		whole(&in.ProjectionExpression, in.ExpressionAttributeNames, in.KeyConditionExpression)
		if len(in.ExpressionAttributeNames) == 0 {
			in.ExpressionAttributeNames = nil
		}
		for {
			out, err := c.Query(ctx, in)
			if err != nil {
				return nil, err
			}
			for _, it := range out.Items {
				items = append(items, item(it))
			}
			if len(out.LastEvaluatedKey) == 0 {
				return items, nil
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
	case *dynamodb.ScanInput:
		whole(&in.ProjectionExpression, in.ExpressionAttributeNames, nil)
		if len(in.ExpressionAttributeNames) == 0 {
			in.ExpressionAttributeNames = nil
		}
		for {
			out, err := c.Scan(ctx, in)
			if err != nil {
				return nil, err
			}
			for _, it := range out.Items {
				items = append(items, item(it))
			}
			if len(out.LastEvaluatedKey) == 0 {
				return items, nil
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
	}
	return nil, fmt.Errorf("%T is no read's input", in)
}

// write sends a write (the package's *dynamodb.PutItemInput,
// UpdateItemInput or DeleteItemInput) and reads its key back: what the
// guard finds there.
func write(ctx context.Context, c *dynamodb.Client, in any, keyNames map[string][]string) (string, error) {
	var err error
	var table *string
	var full map[string]types.AttributeValue
	switch in := in.(type) {
	case *dynamodb.PutItemInput:
		table, full = in.TableName, in.Item
		_, err = c.PutItem(ctx, in)
	case *dynamodb.UpdateItemInput:
		// The UpdateExpression is the caller's (the export leaves it out):
		// one that changes no attribute of the design, as engine.mjs sends.
		table, full = in.TableName, in.Key
		if in.ExpressionAttributeValues == nil {
			in.ExpressionAttributeValues = map[string]types.AttributeValue{}
		}
		in.ExpressionAttributeValues[":ddbcTouched"] = &types.AttributeValueMemberN{Value: "1"}
		in.UpdateExpression = aws.String("SET ddbcTouched = :ddbcTouched")
		_, err = c.UpdateItem(ctx, in)
	case *dynamodb.DeleteItemInput:
		table, full = in.TableName, in.Key
		_, err = c.DeleteItem(ctx, in)
	default:
		return "", fmt.Errorf("%T is no write's input", in)
	}
	_, isDelete := in.(*dynamodb.DeleteItemInput)
	// An example item holds the key the condition wants free: the engine
	// answered, and the item there must still be the pattern's.
	refused := false
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		refused, err = true, nil
	}
	if err != nil {
		return "", err
	}
	key := map[string]types.AttributeValue{}
	for _, name := range keyNames[aws.ToString(table)] {
		key[name] = full[name]
	}
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: key,
		ConsistentRead: aws.Bool(true)})
	if err != nil {
		return "", err
	}
	if isDelete && !refused {
		if out.Item != nil {
			return "", errors.New("the item is still there")
		}
		return "", nil
	}
	if out.Item == nil {
		return "", errors.New("no item at its key")
	}
	name, ok := entityOf(item(out.Item))
	if !ok {
		name = "an item no guard names"
	}
	if refused {
		name += " (its condition refused the write)"
	}
	return name, nil
}

func main() {
	if len(os.Args) < 4 {
		fail(errors.New("usage: engine ENDPOINT vectors.json TABLES.json FUNC..."))
	}
	data, err := os.ReadFile(os.Args[2])
	if err != nil {
		fail(err)
	}
	var v struct{ Requests []request }
	if err := json.Unmarshal(data, &v); err != nil {
		fail(err)
	}
	data, err = os.ReadFile(os.Args[3])
	if err != nil {
		fail(err)
	}
	var tables []struct {
		TableName string
		KeySchema []struct{ AttributeName string }
	}
	if err := json.Unmarshal(data, &tables); err != nil {
		fail(err)
	}
	keyNames := map[string][]string{}
	for _, t := range tables {
		for _, ks := range t.KeySchema {
			keyNames[t.TableName] = append(keyNames[t.TableName], ks.AttributeName)
		}
	}
	run := map[string]bool{}
	for _, f := range os.Args[4:] {
		run[f] = true
	}
	ctx := context.Background()
	c := dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		EndpointResolver: dynamodb.EndpointResolverFromURL(os.Args[1]),
		Credentials:      credentials.NewStaticCredentialsProvider("ddbc", "ddbc", ""),
		RetryMaxAttempts: 1,
	})
	isWrite := map[string]bool{"PutItem": true, "UpdateItem": true, "DeleteItem": true}
	for _, writes := range []bool{false, true} {
		for _, r := range v.Requests {
			if !run[r.Func] || isWrite[r.Operation] != writes {
				continue
			}
			args := make([]string, len(r.Args))
			for i, a := range r.Args {
				args[i] = a.Value
			}
			// The SDK's input as the package's <Pattern>Input returns it.
			in, err := inputFuncs[r.Func](r.Item, args)
			if err != nil {
				fail(err)
			}
			if writes {
				name, err := write(ctx, c, in, keyNames)
				if err != nil {
					name = "FAIL: " + err.Error()
				}
				fmt.Printf("%s\t%s\n", r.Func, name)
				continue
			}
			items, err := read(ctx, c, in)
			if err != nil {
				fail(fmt.Errorf("%s: %w", r.Func, err))
			}
			found := map[string]bool{}
			for _, it := range items {
				name, ok := entityOf(it)
				if !ok {
					name = "an item no guard names"
				}
				found[name] = true
			}
			list := make([]string, 0, len(found))
			for name := range found {
				list = append(list, name)
			}
			sort.Strings(list)
			fmt.Printf("%s\t%s\n", r.Func, strings.Join(list, ","))
		}
	}
}
