/* emit_keys_go.c - `ddbc keys --lang go`: the plan as a Go package
 *
 * One file, the standard library and aws-sdk-go-v2 (its dynamodb package): constants for
 * names, a builder, parser and begins_with prefix per key, range-bound
 * helpers, type guards over items in DynamoDB JSON as encoding/json
 * decodes them (map[string]any), and a request per pattern both as the
 * SDK's own input (aws-sdk-go-v2's *dynamodb.QueryInput...) and as the
 * JSON the DynamoDB API takes. Every name of the plan is written as Go
 * names things (emit_keys_goname.c: ecommerce_user_pk is EcommerceUserPK,
 * user_id userID), and two plan names that meet so are an error. The
 * package is --module, else the prefix in lower case. It passes `go vet`.
 */
#include "emit/emit_keys_int.h"
#include "model/semantics.h"
#include "util/error.h"

#include <string.h>

static void str(strbuf *sb, const char *s, size_t len)
{
	keys_string(sb, s, len, false);
}

static void cstr(strbuf *sb, const char *s)
{
	keys_string(sb, s, strlen(s), false);
}

/* A module-level plan name as Go names it: MixedCaps, exported, but a
 * key's shape (a name ending in '_', the runtime's data) unexported. */
static void ident(strbuf *sb, const char *name)
{
	size_t n = strlen(name);
	ddbc_go_name(sb, name, !(n && name[n - 1] == '_'));
}

/* A function's, a type's or a field's name: exported. */
static void exported(strbuf *sb, const char *name)
{
	ddbc_go_name(sb, name, true);
}

/* What a parameter's Go name may not be besides the plan's words (which
 * it escapes with a trailing '_', kept here): the runtime's names and
 * the packages a function body names. */
static const char *const body_words[] = {
	"attributeValue", "attributeValues", "aws", "base64", "buildKey", "dynamodb", "fitKey",
	"formatNumber", "keyPart", "parseKey", "strconv", "types", "withAttributes", "withItem",
};

static const char *local_name(keys_writer *w, const char *name)
{
	strbuf sb = STRBUF_INIT;
	ddbc_go_name(&sb, name, false);
	size_t n = strlen(name);
	bool escape = n && name[n - 1] == '_';
	for (size_t i = 0; i < sizeof(body_words) / sizeof(body_words[0]) && !escape; i++)
		escape = !strcmp(sb.buf, body_words[i]);
	if (escape)
		strbuf_addch(&sb, '_');
	const char *r = ddbc_arena_strdup(w->arena, sb.buf);
	strbuf_release(&sb);
	return r;
}

/* Parameters ps with their Go names (enum types too); NULL, after a
 * message, when two plan names meet in one Go name. */
static ddbc_hparam *go_params(keys_writer *w, const ddbc_hparam *ps, size_t n)
{
	ddbc_hparam *q = ddbc_arena_alloc(w->arena, (n + 1) * sizeof(*q));
	for (size_t i = 0; i < n; i++) {
		q[i] = ps[i];
		q[i].name = local_name(w, ps[i].name);
		if (ps[i].enum_type)
			q[i].enum_type = keys_ident(w, ps[i].enum_type);
		for (size_t j = 0; j < i; j++) {
			if (strcmp(q[i].name, q[j].name))
				continue;
			ddbc_err_add(w->err, "keys", "the Go module would have two parameters "
				     "named '%s' (from '%s' and '%s'); rename an attribute or a "
				     "placeholder", q[i].name, ps[j].name, ps[i].name);
			w->failed = true;
			return NULL;
		}
	}
	return q;
}

/* Key k with its parameters' Go names, in w's arena; NULL on a clash. */
static const ddbc_hkey *go_key(keys_writer *w, const ddbc_hkey *k)
{
	ddbc_hkey *c = ddbc_arena_alloc(w->arena, sizeof(*c));
	*c = *k;
	c->params = go_params(w, k->params, k->nparams);
	return c->params ? c : NULL;
}

static const char runtime[] =
	"// KeyBuildError is a key that cannot be built: a value its parser would\n"
	"// not read back.\n"
	"type KeyBuildError struct{ Part, Problem string }\n"
	"\n"
	"func (e *KeyBuildError) Error() string { return e.Part + \": \" + e.Problem }\n"
	"\n"
	"// Item is an item in DynamoDB JSON as encoding/json decodes it.\n"
	"type Item = map[string]any\n"
	"\n"
	"// piece is a literal, or a parameter of a key: which, its width, whether\n"
	"// it is a number, its name.\n"
	"type piece struct {\n"
	"\tlit     string\n"
	"\tisParam bool\n"
	"\tparam   int\n"
	"\twidth   int\n"
	"\tnum     bool\n"
	"\tname    string\n"
	"}\n"
	"\n"
	"// keyPart is a parameter's value: a text or a Number's decimal text\n"
	"// (camelCase, which no parameter is, so that none hides it).\n"
	"type keyPart struct {\n"
	"\ttext string\n"
	"\tnum  string\n"
	"}\n"
	"\n"
	"// splitDecimal cuts decimal text into sign, whole digits, '.' and\n"
	"// fraction, exponent (\"\" without); false when s is no decimal number (an\n"
	"// optional sign, digits with at most one '.', an exponent).\n"
	"func splitDecimal(s string) (sign, whole string, dot bool, frac, exp string, ok bool) {\n"
	"\tif s != \"\" && (s[0] == '+' || s[0] == '-') {\n"
	"\t\tsign, s = s[:1], s[1:]\n"
	"\t}\n"
	"\tmant := s\n"
	"\tif i := strings.IndexAny(s, \"eE\"); i >= 0 {\n"
	"\t\tmant, exp = s[:i], s[i+1:]\n"
	"\t\tdigits := exp\n"
	"\t\tif digits != \"\" && (digits[0] == '+' || digits[0] == '-') {\n"
	"\t\t\tdigits = digits[1:]\n"
	"\t\t}\n"
	"\t\tif digits == \"\" || strings.Trim(digits, \"0123456789\") != \"\" {\n"
	"\t\t\treturn \"\", \"\", false, \"\", \"\", false\n"
	"\t\t}\n"
	"\t}\n"
	"\twhole, frac, dot = strings.Cut(mant, \".\")\n"
	"\tif whole+frac == \"\" || strings.Trim(whole+frac, \"0123456789\") != \"\" {\n"
	"\t\treturn \"\", \"\", false, \"\", \"\", false\n"
	"\t}\n"
	"\treturn sign, whole, dot, frac, exp, true\n"
	"}\n"
	"\n"
	"// numberProblem says why decimal text s is no number DynamoDB holds (38\n"
	"// significant digits, zero or 1E-130 to 9.99...E+125), or \"\" when it is one.\n"
	"func numberProblem(s string) string {\n"
	"\t_, whole, _, frac, exp, ok := splitDecimal(s)\n"
	"\tif !ok {\n"
	"\t\treturn \"is no decimal number\"\n"
	"\t}\n"
	"\tdigits := strings.TrimLeft(whole+frac, \"0\")\n"
	"\tif digits == \"\" {\n"
	"\t\treturn \"\"\n"
	"\t}\n"
	"\tfirst := len(whole+frac) - len(digits)\n"
	"\tif n := len(strings.TrimRight(digits, \"0\")); n > 38 {\n"
	"\t\treturn fmt.Sprintf(\"is a number of %d significant digits; DynamoDB keeps at most 38\", n)\n"
	"\t}\n"
	"\te, err := strconv.ParseInt(exp, 10, 64)\n"
	"\tif exp == \"\" {\n"
	"\t\te = 0\n"
	"\t} else if err != nil { // beyond 64 bits: far beyond any range\n"
	"\t\te = 1 << 40\n"
	"\t\tif exp[0] == '-' {\n"
	"\t\t\te = -e\n"
	"\t\t}\n"
	"\t}\n"
	"\tif power := e + int64(len(whole)-first-1); power > 125 || power < -130 {\n"
	"\t\treturn \"is out of DynamoDB's range, 1E-130 to 9.99...E+125\"\n"
	"\t}\n"
	"\treturn \"\"\n"
	"}\n"
	"\n"
	"// numberKey gives the text a Number part is written as, or why not: with\n"
	"// a width, a non-negative whole number zero-padded to exactly width\n"
	"// digits; without, as given less a leading '+', a whole number without\n"
	"// leading zeros or \"-0\" (so one whole number has one key); width -1, a\n"
	"// condition's value, any Number as given, as the queries export sends it.\n"
	"func numberKey(s string, width int) (string, string) {\n"
	"\tsign, whole, dot, _, _, _ := splitDecimal(s)\n"
	"\tif why := numberProblem(s); why != \"\" {\n"
	"\t\treturn \"\", why\n"
	"\t}\n"
	"\tplain := !dot && !strings.ContainsAny(s, \"eE\")\n"
	"\tif width < 0 {\n"
	"\t\treturn s, \"\"\n"
	"\t}\n"
	"\tif width > 0 {\n"
	"\t\tif !plain || sign == \"-\" {\n"
	"\t\t\treturn \"\", \"is not a non-negative whole number\"\n"
	"\t\t}\n"
	"\t\tdigits := strings.TrimLeft(whole, \"0\")\n"
	"\t\tif digits == \"\" {\n"
	"\t\t\tdigits = \"0\"\n"
	"\t\t}\n"
	"\t\tif len(digits) > width {\n"
	"\t\t\treturn \"\", fmt.Sprintf(\"does not fit %d digits\", width)\n"
	"\t\t}\n"
	"\t\treturn strings.Repeat(\"0\", width-len(digits)) + digits, \"\"\n"
	"\t}\n"
	"\tif plain && len(whole) > 1 && whole[0] == '0' {\n"
	"\t\treturn \"\", \"has a leading zero\"\n"
	"\t}\n"
	"\tif plain && sign == \"-\" && strings.Trim(whole, \"0\") == \"\" {\n"
	"\t\treturn \"\", \"is -0\"\n"
	"\t}\n"
	"\treturn strings.TrimPrefix(s, \"+\"), \"\"\n"
	"}\n"
	"\n"
	"// formatNumber writes a Number part (see numberKey) of the parameter name.\n"
	"func formatNumber(v string, width int, name string) (string, error) {\n"
	"\ttext, why := numberKey(v, width)\n"
	"\tif why != \"\" {\n"
	"\t\treturn \"\", &KeyBuildError{name, fmt.Sprintf(\"%q %s\", v, why)}\n"
	"\t}\n"
	"\treturn text, nil\n"
	"}\n"
	"\n"
	"// fitKey refuses a key of more bytes than DynamoDB takes (limit).\n"
	"func fitKey(key string, err error, limit int) (string, error) {\n"
	"\tif err == nil && len(key) > limit {\n"
	"\t\treturn \"\", &KeyBuildError{\"key\", fmt.Sprintf(\"%d bytes, over DynamoDB's %d\", len(key), limit)}\n"
	"\t}\n"
	"\treturn key, err\n"
	"}\n"
	"\n"
	"func buildKey(shape []piece, values []keyPart) (string, error) {\n"
	"\tvar key strings.Builder\n"
	"\tfor i, pc := range shape {\n"
	"\t\tif !pc.isParam {\n"
	"\t\t\tkey.WriteString(pc.lit)\n"
	"\t\t\tcontinue\n"
	"\t\t}\n"
	"\t\tv := values[pc.param]\n"
	"\t\tif pc.num {\n"
	"\t\t\ttext, err := formatNumber(v.num, pc.width, pc.name)\n"
	"\t\t\tif err != nil {\n"
	"\t\t\t\treturn \"\", err\n"
	"\t\t\t}\n"
	"\t\t\tkey.WriteString(text)\n"
	"\t\t\tcontinue\n"
	"\t\t}\n"
	"\t\tnext := \"\"\n"
	"\t\tif i+1 < len(shape) && !shape[i+1].isParam {\n"
	"\t\t\tnext = shape[i+1].lit\n"
	"\t\t}\n"
	"\t\tif keyDelimiter != \"\" && strings.Contains(v.text, keyDelimiter) {\n"
	"\t\t\treturn \"\", &KeyBuildError{pc.name, fmt.Sprintf(\"%q holds the key delimiter\", v.text)}\n"
	"\t\t}\n"
	"\t\tif next != \"\" && strings.Index(v.text+next, next) != len(v.text) {\n"
	"\t\t\treturn \"\", &KeyBuildError{pc.name, fmt.Sprintf(\"%q holds %q\", v.text, next)}\n"
	"\t\t}\n"
	"\t\tkey.WriteString(v.text)\n"
	"\t}\n"
	"\treturn key.String(), nil\n"
	"}\n"
	"\n"
	"// readNumber reads a Number as buildKey writes it, from p: with a width,\n"
	"// exactly width digits, read without their leading zeros; without, the\n"
	"// longest decimal there, which buildKey would write as it is.\n"
	"func readNumber(key string, p, width int) (string, int, bool) {\n"
	"\tisDigit := func(i int) bool { return i < len(key) && key[i] >= '0' && key[i] <= '9' }\n"
	"\tdigits := func(i int) int {\n"
	"\t\tfor isDigit(i) {\n"
	"\t\t\ti++\n"
	"\t\t}\n"
	"\t\treturn i\n"
	"\t}\n"
	"\tif width > 0 {\n"
	"\t\tend := digits(p)\n"
	"\t\tif end-p != width {\n"
	"\t\t\treturn \"\", 0, false\n"
	"\t\t}\n"
	"\t\tv := strings.TrimLeft(key[p:end], \"0\")\n"
	"\t\tif v == \"\" {\n"
	"\t\t\tv = \"0\"\n"
	"\t\t}\n"
	"\t\treturn v, end, true\n"
	"\t}\n"
	"\tend := p\n"
	"\tif end < len(key) && key[end] == '-' {\n"
	"\t\tend++\n"
	"\t}\n"
	"\tend = digits(end)\n"
	"\tif end < len(key) && key[end] == '.' {\n"
	"\t\tend = digits(end + 1)\n"
	"\t}\n"
	"\tif end < len(key) && (key[end] == 'e' || key[end] == 'E') {\n"
	"\t\te := end + 1\n"
	"\t\tif e < len(key) && (key[e] == '+' || key[e] == '-') {\n"
	"\t\t\te++\n"
	"\t\t}\n"
	"\t\tif isDigit(e) {\n"
	"\t\t\tend = digits(e)\n"
	"\t\t}\n"
	"\t}\n"
	"\ts := key[p:end]\n"
	"\tif text, why := numberKey(s, 0); why != \"\" || text != s {\n"
	"\t\treturn \"\", 0, false\n"
	"\t}\n"
	"\treturn s, end, true\n"
	"}\n"
	"\n"
	"// parseKey reads the parts of key: a text part ends where the literal after\n"
	"// it first occurs; a part used twice must read the same.\n"
	"func parseKey(key string, shape []piece, n int) ([]keyPart, bool) {\n"
	"\tparts := make([]keyPart, n)\n"
	"\tseen := make([]bool, n)\n"
	"\tp := 0\n"
	"\tfor i, pc := range shape {\n"
	"\t\tif !pc.isParam {\n"
	"\t\t\tif !strings.HasPrefix(key[p:], pc.lit) {\n"
	"\t\t\t\treturn nil, false\n"
	"\t\t\t}\n"
	"\t\t\tp += len(pc.lit)\n"
	"\t\t\tcontinue\n"
	"\t\t}\n"
	"\t\tvar v keyPart\n"
	"\t\tif pc.num {\n"
	"\t\t\tnum, end, ok := readNumber(key, p, pc.width)\n"
	"\t\t\tif !ok {\n"
	"\t\t\t\treturn nil, false\n"
	"\t\t\t}\n"
	"\t\t\tv.num, p = num, end\n"
	"\t\t} else {\n"
	"\t\t\tend := len(key)\n"
	"\t\t\tif i+1 < len(shape) && !shape[i+1].isParam {\n"
	"\t\t\t\tat := strings.Index(key[p:], shape[i+1].lit)\n"
	"\t\t\t\tif at < 0 {\n"
	"\t\t\t\t\treturn nil, false\n"
	"\t\t\t\t}\n"
	"\t\t\t\tend = p + at\n"
	"\t\t\t}\n"
	"\t\t\tv.text, p = key[p:end], end\n"
	"\t\t}\n"
	"\t\tif seen[pc.param] && parts[pc.param] != v {\n"
	"\t\t\treturn nil, false\n"
	"\t\t}\n"
	"\t\tparts[pc.param], seen[pc.param] = v, true\n"
	"\t}\n"
	"\treturn parts, p == len(key)\n"
	"}\n";

/* The SDK's side: DynamoDB JSON as aws-sdk-go-v2's AttributeValues. */
static const char sdk_runtime[] =
	"\n"
	"// The SDK's input types: each pattern's <Pattern>Input returns one (a\n"
	"// design without patterns uses neither package otherwise).\n"
	"var _ *dynamodb.QueryInput\n"
	"var _ = aws.String\n"
	"\n"
	"// attributeValue is a value in DynamoDB JSON (as a request function\n"
	"// returns it; a Binary as base64 text or bytes) as the SDK's AttributeValue.\n"
	"func attributeValue(v any) (types.AttributeValue, error) {\n"
	"\tm, ok := v.(map[string]any)\n"
	"\tif !ok || len(m) != 1 {\n"
	"\t\treturn nil, fmt.Errorf(\"%v is no DynamoDB JSON value\", v)\n"
	"\t}\n"
	"\tfor typ, x := range m {\n"
	"\t\tswitch typ {\n"
	"\t\tcase \"S\", \"N\":\n"
	"\t\t\ts, ok := x.(string)\n"
	"\t\t\tif !ok {\n"
	"\t\t\t\treturn nil, fmt.Errorf(\"%s value %v is no string\", typ, x)\n"
	"\t\t\t}\n"
	"\t\t\tif typ == \"S\" {\n"
	"\t\t\t\treturn &types.AttributeValueMemberS{Value: s}, nil\n"
	"\t\t\t}\n"
	"\t\t\treturn &types.AttributeValueMemberN{Value: s}, nil\n"
	"\t\tcase \"B\":\n"
	"\t\t\tb, err := bytesOf(x)\n"
	"\t\t\treturn &types.AttributeValueMemberB{Value: b}, err\n"
	"\t\tcase \"BOOL\":\n"
	"\t\t\tb, ok := x.(bool)\n"
	"\t\t\tif !ok {\n"
	"\t\t\t\treturn nil, fmt.Errorf(\"BOOL value %v is no boolean\", x)\n"
	"\t\t\t}\n"
	"\t\t\treturn &types.AttributeValueMemberBOOL{Value: b}, nil\n"
	"\t\tcase \"NULL\":\n"
	"\t\t\treturn &types.AttributeValueMemberNULL{Value: true}, nil\n"
	"\t\tcase \"SS\", \"NS\", \"BS\", \"L\":\n"
	"\t\t\tl, ok := x.([]any)\n"
	"\t\t\tif !ok {\n"
	"\t\t\t\treturn nil, fmt.Errorf(\"%s value %v is no list\", typ, x)\n"
	"\t\t\t}\n"
	"\t\t\treturn setOrList(typ, l)\n"
	"\t\tcase \"M\":\n"
	"\t\t\tout, err := attributeValues(x)\n"
	"\t\t\treturn &types.AttributeValueMemberM{Value: out}, err\n"
	"\t\t}\n"
	"\t\treturn nil, fmt.Errorf(\"%q is no DynamoDB type\", typ)\n"
	"\t}\n"
	"\treturn nil, nil\n"
	"}\n"
	"\n"
	"func bytesOf(x any) ([]byte, error) {\n"
	"\tif b, ok := x.([]byte); ok {\n"
	"\t\treturn b, nil\n"
	"\t}\n"
	"\ts, ok := x.(string)\n"
	"\tif !ok {\n"
	"\t\treturn nil, fmt.Errorf(\"B value %v is neither bytes nor base64 text\", x)\n"
	"\t}\n"
	"\treturn base64.StdEncoding.DecodeString(s)\n"
	"}\n"
	"\n"
	"func setOrList(typ string, l []any) (types.AttributeValue, error) {\n"
	"\tvar strs []string\n"
	"\tvar bins [][]byte\n"
	"\tvar vals []types.AttributeValue\n"
	"\tfor _, e := range l {\n"
	"\t\tvar err error\n"
	"\t\tswitch typ {\n"
	"\t\tcase \"SS\", \"NS\":\n"
	"\t\t\ts, ok := e.(string)\n"
	"\t\t\tif !ok {\n"
	"\t\t\t\terr = fmt.Errorf(\"%s member %v is no string\", typ, e)\n"
	"\t\t\t}\n"
	"\t\t\tstrs = append(strs, s)\n"
	"\t\tcase \"BS\":\n"
	"\t\t\tvar b []byte\n"
	"\t\t\tb, err = bytesOf(e)\n"
	"\t\t\tbins = append(bins, b)\n"
	"\t\tdefault:\n"
	"\t\t\tvar a types.AttributeValue\n"
	"\t\t\ta, err = attributeValue(e)\n"
	"\t\t\tvals = append(vals, a)\n"
	"\t\t}\n"
	"\t\tif err != nil {\n"
	"\t\t\treturn nil, err\n"
	"\t\t}\n"
	"\t}\n"
	"\tswitch typ {\n"
	"\tcase \"SS\":\n"
	"\t\treturn &types.AttributeValueMemberSS{Value: strs}, nil\n"
	"\tcase \"NS\":\n"
	"\t\treturn &types.AttributeValueMemberNS{Value: strs}, nil\n"
	"\tcase \"BS\":\n"
	"\t\treturn &types.AttributeValueMemberBS{Value: bins}, nil\n"
	"\t}\n"
	"\treturn &types.AttributeValueMemberL{Value: vals}, nil\n"
	"}\n"
	"\n"
	"// attributeValues is a map of DynamoDB JSON values (a Key, an Item,\n"
	"// ExpressionAttributeValues) as the SDK's; nil for none.\n"
	"func attributeValues(v any) (map[string]types.AttributeValue, error) {\n"
	"\tif v == nil {\n"
	"\t\treturn nil, nil\n"
	"\t}\n"
	"\tm, ok := v.(map[string]any)\n"
	"\tif !ok {\n"
	"\t\treturn nil, fmt.Errorf(\"%v is no map of DynamoDB JSON values\", v)\n"
	"\t}\n"
	"\tout := make(map[string]types.AttributeValue, len(m))\n"
	"\tfor name, x := range m {\n"
	"\t\ta, err := attributeValue(x)\n"
	"\t\tif err != nil {\n"
	"\t\t\treturn nil, fmt.Errorf(\"%s: %w\", name, err)\n"
	"\t\t}\n"
	"\t\tout[name] = a\n"
	"\t}\n"
	"\treturn out, nil\n"
	"}\n"
	"\n"
	"// withAttributes is item with the members of key (DynamoDB JSON) written\n"
	"// over it: a PutItem's Item, the caller's left as it is.\n"
	"func withAttributes(item map[string]types.AttributeValue, key any) (map[string]types.AttributeValue, error) {\n"
	"\tk, err := attributeValues(key)\n"
	"\tif err != nil {\n"
	"\t\treturn nil, err\n"
	"\t}\n"
	"\tout := make(map[string]types.AttributeValue, len(item)+len(k))\n"
	"\tfor name, v := range item {\n"
	"\t\tout[name] = v\n"
	"\t}\n"
	"\tfor name, v := range k {\n"
	"\t\tout[name] = v\n"
	"\t}\n"
	"\treturn out, nil\n"
	"}\n";

static const char guard_runtime[] =
	"\n// ---- type guards: which entity an item is, as `ddbc check-items` decides\n\n"
	"// run is a piece of a key language: a literal, or a class (0 anything, 1 no\n"
	"// key delimiter, 2 a number's characters, 3 digits) at least min long.\n"
	"type run struct {\n"
	"\tlit   string\n"
	"\tfixed bool\n"
	"\tclass int\n"
	"\tmin   int\n"
	"\tmax   int // 0: no limit\n"
	"}\n"
	"\n"
	"type keyShape struct {\n"
	"\tname, typ string\n"
	"\tmax       int\n"
	"\truns      []run\n"
	"}\n"
	"\n"
	"type constant struct{ name, typ, value string }\n"
	"\n"
	"type entityShape struct {\n"
	"\tname    string\n"
	"\tkeys    []keyShape\n"
	"\tliteral int\n"
	"\tconsts  []constant\n"
	"\tstored  map[string]bool\n"
	"}\n"
	"\n"
	"func takes(class int, s string, i, j int, delim string) bool {\n"
	"\tc := s[j]\n"
	"\tswitch class {\n"
	"\tcase 2:\n"
	"\t\treturn (c >= '0' && c <= '9') || strings.IndexByte(\"-.eE+\", c) >= 0\n"
	"\tcase 3:\n"
	"\t\treturn c >= '0' && c <= '9'\n"
	"\t}\n"
	"\tend := j + 1\n"
	"\treturn class != 1 || delim == \"\" || end-len(delim) < i || s[end-len(delim):end] != delim\n"
	"}\n"
	"\n"
	"func matches(runs []run, s string, delim string) bool {\n"
	"\tat := map[int]bool{0: true}\n"
	"\tfor _, r := range runs {\n"
	"\t\tnext := map[int]bool{}\n"
	"\t\tfor i := range at {\n"
	"\t\t\tif r.fixed {\n"
	"\t\t\t\tif strings.HasPrefix(s[i:], r.lit) {\n"
	"\t\t\t\t\tnext[i+len(r.lit)] = true\n"
	"\t\t\t\t}\n"
	"\t\t\t\tcontinue\n"
	"\t\t\t}\n"
	"\t\t\tfor j := i; ; j++ {\n"
	"\t\t\t\tif j-i >= r.min {\n"
	"\t\t\t\t\tnext[j] = true\n"
	"\t\t\t\t}\n"
	"\t\t\t\tif r.max > 0 && j-i >= r.max {\n"
	"\t\t\t\t\tbreak\n"
	"\t\t\t\t}\n"
	"\t\t\t\tif j >= len(s) || !takes(r.class, s, i, j, delim) {\n"
	"\t\t\t\t\tbreak\n"
	"\t\t\t\t}\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t\tat = next\n"
	"\t}\n"
	"\treturn at[len(s)]\n"
	"}\n"
	"\n"
	"// withItem is item with the members of key over it: a PutItem's Item.\n"
	"func withItem(item Item, key map[string]any) map[string]any {\n"
	"\tout := make(map[string]any, len(item)+len(key))\n"
	"\tfor name, v := range item {\n"
	"\t\tout[name] = v\n"
	"\t}\n"
	"\tfor name, v := range key {\n"
	"\t\tout[name] = v\n"
	"\t}\n"
	"\treturn out\n"
	"}\n"
	"\n"
	"// member is a member's value; a Binary as bytes (as the SDK holds it) is\n"
	"// read as its base64 text, as check-items reads DynamoDB JSON.\n"
	"func member(item Item, name, typ string) (any, bool) {\n"
	"\tv, ok := item[name].(map[string]any)\n"
	"\tif !ok {\n"
	"\t\treturn nil, false\n"
	"\t}\n"
	"\tm, ok := v[typ]\n"
	"\tif b, isBytes := m.([]byte); isBytes && typ == \"B\" {\n"
	"\t\treturn base64.StdEncoding.EncodeToString(b), ok\n"
	"\t}\n"
	"\treturn m, ok\n"
	"}\n"
	"\n"
	"// decimal is a Number's exact value as text (1, 1.0 and 1e0 give one);\n"
	"// false when s is no number.\n"
	"func decimal(s string) (string, bool) {\n"
	"\tneg := strings.HasPrefix(s, \"-\")\n"
	"\tif neg || strings.HasPrefix(s, \"+\") {\n"
	"\t\ts = s[1:]\n"
	"\t}\n"
	"\tmant, exp := s, \"0\"\n"
	"\tif i := strings.IndexAny(s, \"eE\"); i >= 0 {\n"
	"\t\tmant, exp = s[:i], s[i+1:]\n"
	"\t}\n"
	"\tintPart, frac, _ := strings.Cut(mant, \".\")\n"
	"\tdigits := intPart + frac\n"
	"\tif digits == \"\" || strings.Trim(digits, \"0123456789\") != \"\" {\n"
	"\t\treturn \"\", false\n"
	"\t}\n"
	"\te, err := strconv.ParseInt(exp, 10, 64)\n"
	"\tif err != nil {\n"
	"\t\treturn \"\", false\n"
	"\t}\n"
	"\tdigits = strings.TrimLeft(digits, \"0\")\n"
	"\tif digits == \"\" {\n"
	"\t\treturn \"0\", true\n"
	"\t}\n"
	"\tstripped := strings.TrimRight(digits, \"0\")\n"
	"\te += int64(len(digits)-len(stripped)) - int64(len(frac))\n"
	"\tsign := \"\"\n"
	"\tif neg {\n"
	"\t\tsign = \"-\"\n"
	"\t}\n"
	"\treturn sign + stripped + \"e\" + strconv.FormatInt(e, 10), true\n"
	"}\n"
	"\n"
	"// sameNumber compares two Numbers as DynamoDB does: by value; a text\n"
	"// that is no number equals only itself.\n"
	"func sameNumber(a, b string) bool {\n"
	"\tx, okX := decimal(a)\n"
	"\ty, okY := decimal(b)\n"
	"\tif okX && okY {\n"
	"\t\treturn x == y\n"
	"\t}\n"
	"\treturn a == b\n"
	"}\n"
	"\n"
	"// keyBytes is a key value's bytes as DynamoDB limits them: Binary is\n"
	"// counted decoded, not as its base64 text.\n"
	"func keyBytes(s, typ string) int {\n"
	"\tif typ != \"B\" {\n"
	"\t\treturn len(s)\n"
	"\t}\n"
	"\tn := len(s)\n"
	"\tfor n > 0 && s[n-1] == '=' {\n"
	"\t\tn--\n"
	"\t}\n"
	"\treturn n * 3 / 4\n"
	"}\n"
	"\n"
	"func (e *entityShape) fits(item Item, delim string) bool {\n"
	"\tfor _, k := range e.keys {\n"
	"\t\tv, _ := member(item, k.name, k.typ)\n"
	"\t\ts, ok := v.(string)\n"
	"\t\tif !ok || keyBytes(s, k.typ) > k.max || !matches(k.runs, s, delim) {\n"
	"\t\t\treturn false\n"
	"\t\t}\n"
	"\t}\n"
	"\treturn true\n"
	"}\n"
	"\n"
	"// constantsSay tells whether the item's constant attributes say it is e:\n"
	"// it holds some, each with its value.\n"
	"func (e *entityShape) constantsSay(item Item) bool {\n"
	"\theld := 0\n"
	"\tfor _, c := range e.consts {\n"
	"\t\tif _, ok := item[c.name]; !ok {\n"
	"\t\t\tcontinue\n"
	"\t\t}\n"
	"\t\tv, _ := member(item, c.name, c.typ)\n"
	"\t\tvar same bool\n"
	"\t\tswitch c.typ {\n"
	"\t\tcase \"BOOL\":\n"
	"\t\t\tsame = v == (c.value == \"true\")\n"
	"\t\tcase \"NULL\":\n"
	"\t\t\tsame = v == true\n"
	"\t\tcase \"N\":\n"
	"\t\t\ttext, isText := v.(string)\n"
	"\t\t\tsame = isText && sameNumber(text, c.value)\n"
	"\t\tdefault:\n"
	"\t\t\tsame = v == c.value\n"
	"\t\t}\n"
	"\t\tif !same {\n"
	"\t\t\treturn false\n"
	"\t\t}\n"
	"\t\theld++\n"
	"\t}\n"
	"\treturn held > 0\n"
	"}\n"
	"\n"
	"func (e *entityShape) undeclared(item Item) int {\n"
	"\tn := 0\n"
	"\tfor name := range item {\n"
	"\t\tif !e.stored[name] {\n"
	"\t\t\tn++\n"
	"\t\t}\n"
	"\t}\n"
	"\treturn n\n"
	"}\n"
	"\n"
	"func keep(tied []*entityShape, by func(*entityShape) int, most bool) []*entityShape {\n"
	"\tbest := by(tied[0])\n"
	"\tfor _, e := range tied {\n"
	"\t\tif v := by(e); (most && v > best) || (!most && v < best) {\n"
	"\t\t\tbest = v\n"
	"\t\t}\n"
	"\t}\n"
	"\tvar kept []*entityShape\n"
	"\tfor _, e := range tied {\n"
	"\t\tif by(e) == best {\n"
	"\t\t\tkept = append(kept, e)\n"
	"\t\t}\n"
	"\t}\n"
	"\treturn kept\n"
	"}\n"
	"\n"
	"func entityOf(item Item) (string, bool) {\n"
	"\t// Placeholder values without the delimiter first, then with it.\n"
	"\tfor _, delim := range []string{keyDelimiter, \"\"} {\n"
	"\t\tvar tied []*entityShape\n"
	"\t\tfor i := range entities {\n"
	"\t\t\tif entities[i].fits(item, delim) {\n"
	"\t\t\t\ttied = append(tied, &entities[i])\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t\tif len(tied) > 1 {\n"
	"\t\t\tvar saying []*entityShape\n"
	"\t\t\tfor _, e := range tied {\n"
	"\t\t\t\tif e.constantsSay(item) {\n"
	"\t\t\t\t\tsaying = append(saying, e)\n"
	"\t\t\t\t}\n"
	"\t\t\t}\n"
	"\t\t\tif len(saying) > 0 {\n"
	"\t\t\t\ttied = saying\n"
	"\t\t\t}\n"
	"\t\t\ttied = keep(tied, func(e *entityShape) int { return e.literal }, true)\n"
	"\t\t}\n"
	"\t\tif len(tied) > 1 {\n"
	"\t\t\ttied = keep(tied, func(e *entityShape) int { return e.undeclared(item) }, false)\n"
	"\t\t}\n"
	"\t\tif len(tied) == 1 {\n"
	"\t\t\treturn tied[0].name, true\n"
	"\t\t}\n"
	"\t\tif len(tied) > 1 {\n"
	"\t\t\treturn \"\", false\n"
	"\t\t}\n"
	"\t}\n"
	"\treturn \"\", false\n"
	"}\n";

static void head(keys_writer *w)
{
	strbuf *sb = &w->sb;
	strbuf_addstr(sb, "// Code generated by ddbc from the design '");
	keys_comment(sb, w->g->name.s ? w->g->name.s : "");
	strbuf_addstr(sb, "' (");
	keys_comment(sb, keys_source_name(w->g));
	strbuf_addstr(sb, "); DO NOT EDIT.\n\n// Package ");
	strbuf_addstr(sb, w->module);
	strbuf_addstr(sb, " holds the names and builders of the C header (ddbc header),\n"
		      "// named in MixedCaps (HD_ORDER_SK_PREFIX is HdOrderSKPrefix). A builder\n"
		      "// returns the key or a *KeyBuildError; a parser returns the parts and\n"
		      "// whether the key has its shape; <Key>Prefix is the text before the first\n"
		      "// value (begins_with); <Key>PrefixTo<Part> and <Key>After<Part> are the\n"
		      "// range bounds of the keys whose parts up to <part> are given;\n"
		      "// <Prefix>Is<Entity>(item) tells items apart as `ddbc check-items` does;\n"
		      "// <Pattern>Input(...) is the request as the SDK's *dynamodb.QueryInput,\n"
		      "// GetItemInput...; <Pattern>Request(...) is it as the DynamoDB API's JSON\n"
		      "// `ddbc export --format queries` writes (a PutItem's take the item first\n"
		      "// and write the pattern's key over it).\npackage ");
	strbuf_addstr(sb, w->module);
	strbuf_addstr(sb, "\n\nimport (\n\t\"encoding/base64\"\n\t\"fmt\"\n\t\"strconv\"\n\t\"strings\"\n\n"
		      "\t\"github.com/aws/aws-sdk-go-v2/aws\"\n"
		      "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n"
		      "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n)\n\n"
		      "// keyDelimiter is the key delimiter, which no text part of a key may hold.\n"
		      "const keyDelimiter = ");
	cstr(sb, w->g->key_delimiter ? w->g->key_delimiter : "");
	strbuf_addstr(sb, "\n\n");
	strbuf_addstr(sb, runtime);
	strbuf_addstr(sb, sdk_runtime);
}

static void shape(strbuf *sb, const char *name, const ddbc_hkey *k)
{
	strbuf_addstr(sb, "var ");
	ident(sb, name);
	strbuf_addstr(sb, " = []piece{");
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (i)
			strbuf_addstr(sb, ", ");
		if (pc->text) {
			strbuf_addstr(sb, "{lit: ");
			str(sb, pc->text, pc->len);
			strbuf_addch(sb, '}');
			continue;
		}
		const ddbc_hparam *pm = &k->params[pc->param];
		strbuf_addf(sb, "{isParam: true, param: %zu, width: %u, num: %s, name: ", pc->param,
			    pc->width, pm->number ? "true" : "false");
		cstr(sb, pm->source);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "}\n");
}

static void params(strbuf *sb, const ddbc_hparam *ps, size_t n)
{
	/* A Number is its exact decimal text, as the SDK's AttributeValueMemberN. */
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s %s", i ? ", " : "", ps[i].name,
			    !ps[i].number && ps[i].enum_type ? ps[i].enum_type : "string");
}

/* The key parts of ps; r (a request) types a pattern's parameters. */
static void parts_of(strbuf *sb, const ddbc_hparam *ps, size_t n, const keys_request *r)
{
	strbuf_addstr(sb, "[]keyPart{");
	for (size_t i = 0; i < n; i++) {
		const char *et = r ? keys_param_enum(r, ps[i].name) : ps[i].enum_type;
		strbuf_addf(sb, ps[i].number ? "%s{num: %s}" : et ? "%s{text: string(%s)}" :
			    "%s{text: %s}", i ? ", " : "", ps[i].name);
	}
	strbuf_addch(sb, '}');
}

static void parts(strbuf *sb, const ddbc_hparam *ps, size_t n)
{
	parts_of(sb, ps, n, NULL);
}

/* A named string type and a constant per value. */
static void enum_type(keys_writer *w, const ddbc_hattr *ha)
{
	strbuf *sb = &w->sb;
	const char *type = keys_ident(w, ha->enum_macro);
	strbuf_addf(sb, "\n// %s is the values of ", type);
	keys_comment(sb, ha->attr->name.s);
	strbuf_addf(sb, " (enum).\ntype %s string\n\nconst (\n", type);
	for (size_t i = 0; i < ha->attr->more->nenum; i++) {
		strbuf_addf(sb, "\t%s %s = ", keys_ident(w, keys_enum_const(w, ha, i)), type);
		keys_enum_value(sb, ha, i, false);
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, ")\n");
}

static void func_head(strbuf *sb, const char *func, const ddbc_hparam *ps, size_t n)
{
	strbuf_addstr(sb, "func ");
	exported(sb, func);
	strbuf_addch(sb, '(');
	params(sb, ps, n);
	strbuf_addstr(sb, ") (string, error) {\n");
}

static void helper(strbuf *sb, const keys_key *kk, const ddbc_hkey *k, const keys_cut *c,
		   bool after)
{
	const ddbc_hpiece *next = &k->pieces[c->piece + 1];
	const char *func = after ? c->after_func : c->prefix_func;
	strbuf_addstr(sb, "\n// ");
	exported(sb, func);
	strbuf_addstr(sb, after ? " is above every key with these parts (range-bound-prefix).\n"
			  : " is the begins_with prefix of the keys with these parts.\n");
	func_head(sb, func, k->params, c->nparams);
	if (!after) {
		strbuf_addstr(sb, "\treturn buildKey(");
		ident(sb, kk->shape);
		strbuf_addf(sb, "[:%zu], ", c->piece + 2);
		parts(sb, k->params, c->nparams);
		strbuf_addstr(sb, ")\n}\n");
		return;
	}
	/* Locals end in "__", which no parameter does. */
	strbuf_addstr(sb, "\tk__, err__ := ");
	exported(sb, c->prefix_func);
	strbuf_addch(sb, '(');
	for (size_t i = 0; i < c->nparams; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", k->params[i].name);
	strbuf_addstr(sb, ")\n\tif err__ != nil {\n\t\treturn \"\", err__\n\t}\n\treturn k__[:len(k__)-len(");
	str(sb, next->text, next->len);
	strbuf_addstr(sb, ")] + ");
	str(sb, c->after, c->after_len);
	strbuf_addstr(sb, ", nil\n}\n");
}

static void parser(strbuf *sb, const keys_key *kk, const ddbc_hkey *k)
{
	const ddbc_hattr *ha = kk->ha;
	strbuf_addstr(sb, "\n// ");
	exported(sb, ha->parts_struct);
	strbuf_addstr(sb, " holds the parts of a key.\ntype ");
	exported(sb, ha->parts_struct);
	strbuf_addstr(sb, " struct {\n");
	for (size_t i = 0; i < k->nparams; i++) {
		strbuf_addch(sb, '\t');
		exported(sb, ha->key->params[i].name);  /* the plan's: UserID, not Userid */
		strbuf_addstr(sb, " string\n");  /* a Number's exact text */
	}
	strbuf_addstr(sb, "}\n\n// ");
	exported(sb, ha->parse_func);
	strbuf_addstr(sb, " reads a key back into its parts.\nfunc ");
	exported(sb, ha->parse_func);
	strbuf_addstr(sb, "(key string) (");
	exported(sb, ha->parts_struct);
	strbuf_addstr(sb, ", bool) {\n\tv, ok := parseKey(key, ");
	ident(sb, kk->shape);
	strbuf_addf(sb, ", %zu)\n\tif !ok {\n\t\treturn ", k->nparams);
	exported(sb, ha->parts_struct);
	strbuf_addstr(sb, "{}, false\n\t}\n\treturn ");
	exported(sb, ha->parts_struct);
	strbuf_addch(sb, '{');
	for (size_t i = 0; i < k->nparams; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		exported(sb, ha->key->params[i].name);
		strbuf_addf(sb, k->params[i].number ? ": v[%zu].num" : ": v[%zu].text", i);
	}
	strbuf_addstr(sb, "}, true\n}\n");
}

static void key(keys_writer *w, const keys_key *kk)
{
	strbuf *sb = &w->sb;
	const ddbc_hattr *ha = kk->ha;
	const ddbc_hkey *k = go_key(w, ha->key);
	if (!k)
		return;
	shape(sb, kk->shape, k);
	strbuf_addstr(sb, "\n// ");
	exported(sb, ha->func);
	strbuf_addstr(sb, " builds the key.\n");
	func_head(sb, ha->func, k->params, k->nparams);
	strbuf_addstr(sb, k->max_bytes ? "\tk__, err__ := buildKey(" : "\treturn buildKey(");
	ident(sb, kk->shape);
	strbuf_addstr(sb, ", ");
	parts(sb, k->params, k->nparams);
	if (k->max_bytes)
		strbuf_addf(sb, ")\n\treturn fitKey(k__, err__, %zu)\n}\n", k->max_bytes);
	else
		strbuf_addstr(sb, ")\n}\n");
	if (ha->parse_func)
		parser(sb, kk, k);
	for (size_t i = 0; i < kk->ncuts; i++) {
		helper(sb, kk, k, &kk->cuts[i], false);
		if (kk->cuts[i].after_func)
			helper(sb, kk, k, &kk->cuts[i], true);
	}
}

static const keys_syntax syntax;

static const keys_data_style data_style = {
	"\t{\n\t\tname: ", ",\n\t\tkeys: []keyShape{", "{", "}, ", "[]run{", "}",
	"{fixed: true, lit: ", "}", "{class: %d, min: %zu, max: %zu}",
	"},\n\t\tliteral: %zu,\n\t\tconsts: []constant{", "{", "}, ",
	"},\n\t\tstored: map[string]bool{", ": true, ", "},\n\t},\n",
};

static void guards(keys_writer *w, const keys_guard *gs, size_t n, const char *entity_of)
{
	strbuf *sb = &w->sb;
	strbuf_addstr(sb, guard_runtime);
	strbuf_addstr(sb, "\nvar entities = []entityShape{\n");
	for (size_t i = 0; i < n; i++) {
		keys_guard_data(&w->sb, &gs[i], &data_style, syntax.ts);
		keys_flush(w);
	}
	strbuf_addstr(sb, "}\n\n// ");
	exported(sb, entity_of);
	strbuf_addstr(sb, " names the entity the item is; false when none or several fit it.\n"
		      "func ");
	exported(sb, entity_of);
	strbuf_addstr(sb, "(item Item) (string, bool) {\n\treturn entityOf(item)\n}\n");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, "\n// ");
		exported(sb, gs[i].func);
		strbuf_addstr(sb, " tells whether the item is a ");
		keys_comment(sb, gs[i].e->name.s);
		strbuf_addstr(sb, ".\nfunc ");
		exported(sb, gs[i].func);
		strbuf_addstr(sb, "(item Item) bool {\n\tname, ok := ");
		exported(sb, entity_of);
		strbuf_addstr(sb, "(item)\n\treturn ok && name == ");
		cstr(sb, gs[i].e->name.s);
		strbuf_addstr(sb, "\n}\n");
	}
}

static void value_expr(strbuf *sb, const keys_request *r, size_t i)
{
	bool number;
	unsigned width;
	const char *name = keys_cond_value(r, i, &number, &width);
	if (name) {
		/* An N value as checked before (request()), any other as it is. */
		if (number)
			strbuf_addf(sb, "n%zu__", i);
		else
			strbuf_addf(sb, keys_param_enum(r, name) ? "string(%s)" : "%s", name);
		return;
	}
	strbuf_addf(sb, "v%zu__", i);
}

static const keys_json_style style = { "map[string]any{", "}", "[]any{", "}", "true", "false",
				       "nil", false, NULL, NULL, "withItem(item__, ", ")" };

static void sdk_input(keys_writer *w, const keys_request *r);

static void request(keys_writer *w, const keys_request *plan_r)
{
	strbuf *sb = &w->sb;
	const ddbc_pattern *p = plan_r->hp->pattern;
	/* The request with its parameters' Go names. */
	keys_request go_r = *plan_r;
	const keys_request *r = &go_r;
	go_r.params = go_params(w, plan_r->params, plan_r->nparams);
	if (!go_r.params)
		return;
	strbuf_addstr(sb, "\n// ---- access pattern ");
	keys_comment(sb, p->id.s);
	strbuf_addf(sb, "\n\nconst %s = ", keys_ident(w, r->op_const));
	cstr(sb, r->operation);
	strbuf_addch(sb, '\n');
	for (size_t i = 0; i < r->hp->nvalues; i++)
		if (r->shapes[i])
			shape(sb, r->shapes[i], &r->hp->values[i].key);
	strbuf_addstr(sb, "\n// ");
	exported(sb, r->func);
	strbuf_addstr(sb, " is the request of the access pattern, as the DynamoDB API's JSON.\nfunc ");
	exported(sb, r->func);
	strbuf_addch(sb, '(');
	strbuf_addstr(sb, r->item ? "item__ Item" : "");
	strbuf_addstr(sb, r->item && r->nparams ? ", " : "");
	keys_request_params(sb, r, " ", (const char *const[3]){ "string", "string", "bool" });
	strbuf_addstr(sb, ") (map[string]any, error) {\n");
	for (size_t i = 0; i < r->hp->nvalues; i++) {
		if (!r->shapes[i])
			continue;
		const ddbc_hkey *k = go_key(w, &r->hp->values[i].key);
		if (!k)
			return;
		strbuf_addf(sb, "\tv%zu__, err__ := buildKey(%s, ", i, keys_ident(w, r->shapes[i]));
		parts_of(sb, k->params, k->nparams, r);
		strbuf_addstr(sb, ")\n\tif err__ != nil {\n\t\treturn nil, err__\n\t}\n");
	}
	/* A condition's N values checked as a key's Numbers are. */
	for (size_t i = r->hp->nvalues; i < r->hp->nvalues + r->ncond; i++) {
		bool number = false;
		unsigned width = 0;  /* a key's, where a key pads the parameter */
		const char *name = keys_cond_value(r, i, &number, &width);
		if (!number || !r->slots[i])
			continue;
		strbuf_addf(sb, "\tn%zu__, err%zu__ := formatNumber(%s, %d, ", i, i, name,
			    width ? (int)width : -1);
		cstr(sb, r->params[r->cond_param[i - r->hp->nvalues]].source);
		strbuf_addf(sb, ")\n\tif err%zu__ != nil {\n\t\treturn nil, err%zu__\n\t}\n", i, i);
	}
	strbuf_addstr(sb, "\treturn ");
	keys_json(sb, r->input, &style, r, value_expr, 1);
	strbuf_addstr(sb, ", nil\n}\n");
	sdk_input(w, r);
}

/* Whether member `name` of a request is a map of names to names (the
 * rest of its objects map names to values). */
static bool names_member(const char *name)
{
	return !strcmp(name, "ExpressionAttributeNames");
}

/* Member `name` of a request as its SDK input's field: a string
 * (aws.String), a boolean, a Limit, the names (map[string]string) as
 * the export writes them; a map of values (Key, Item,
 * ExpressionAttributeValues) from local m<i>__, converted before. */
static void sdk_field(strbuf *sb, const char *name, const json_t *v, size_t i)
{
	strbuf_addf(sb, "\t\t%s: ", name);
	if (json_is_string(v)) {
		strbuf_addstr(sb, "aws.String(");
		cstr(sb, json_string_value(v));
		strbuf_addch(sb, ')');
	} else if (json_is_boolean(v)) {
		strbuf_addstr(sb, json_is_true(v) ? "aws.Bool(true)" : "aws.Bool(false)");
	} else if (json_is_integer(v)) {
		strbuf_addf(sb, "aws.Int32(%lld)", (long long)json_integer_value(v));
	} else if (json_is_object(v) && names_member(name)) {
		const char *k;
		json_t *m;
		strbuf_addstr(sb, "map[string]string{");
		json_object_foreach((json_t *)v, k, m) {
			strbuf_addstr(sb, "\n\t\t\t");
			cstr(sb, k);
			strbuf_addstr(sb, ": ");
			cstr(sb, json_string_value(m));
			strbuf_addch(sb, ',');
		}
		strbuf_addstr(sb, "\n\t\t}");
	} else {
		strbuf_addf(sb, "m%zu__", i);
	}
	strbuf_addstr(sb, ",\n");
}

/* <Pattern>Input: the request as the SDK's own input
 * (*dynamodb.QueryInput ...), from <Pattern>Request's JSON: the values
 * through attributeValues, the rest written as fields here. A PutItem's
 * takes the item as the SDK holds one and writes the pattern's key over it. */
static void sdk_input(keys_writer *w, const keys_request *r)
{
	strbuf *sb = &w->sb;
	const char *stem = ddbc_arena_strndup(w->arena, r->func, strlen(r->func) - strlen("_request"));
	const char *func = keys_concat(w, stem, "_input");
	if (!keys_name(w, func))
		return;
	const char *gofunc = keys_ident(w, func), *request = keys_ident(w, r->func);
	strbuf_addf(sb, "\n// %s is the request of the access pattern as the SDK's "
		    "*dynamodb.%sInput", gofunc, r->operation);
	strbuf_addstr(sb, r->item ? ";\n// the pattern's key is written over a copy of item__.\n"
			  : ".\n");
	strbuf_addf(sb, "func %s(", gofunc);
	strbuf_addstr(sb, r->item ? "item__ map[string]types.AttributeValue" : "");
	strbuf_addstr(sb, r->item && r->nparams ? ", " : "");
	keys_request_params(sb, r, " ", (const char *const[3]){ "string", "string", "bool" });
	const char *name;
	json_t *v;
	size_t maps = 0;  /* a Scan's may have none: then no r__ */
	json_object_foreach(r->input, name, v)
		maps += json_is_object(v) && !names_member(name);
	strbuf_addf(sb, ") (*dynamodb.%sInput, error) {\n\t%s, err__ := %s(", r->operation,
		    maps ? "r__" : "_", request);
	strbuf_addstr(sb, r->item ? "Item{}" : "");
	for (size_t i = 0; i < r->nparams; i++)
		strbuf_addf(sb, "%s%s", i || r->item ? ", " : "", r->params[i].name);
	strbuf_addstr(sb, ")\n\tif err__ != nil {\n\t\treturn nil, err__\n\t}\n");
	size_t i = 0;
	json_object_foreach(r->input, name, v) {
		i++;
		if (!json_is_object(v) || names_member(name))
			continue;
		if (r->item && v == r->item)
			strbuf_addf(sb, "\tm%zu__, err__ := withAttributes(item__, r__[", i);
		else
			strbuf_addf(sb, "\tm%zu__, err__ := attributeValues(r__[", i);
		cstr(sb, name);
		strbuf_addstr(sb, "])\n\tif err__ != nil {\n\t\treturn nil, err__\n\t}\n");
	}
	strbuf_addf(sb, "\treturn &dynamodb.%sInput{\n", r->operation);
	i = 0;
	json_object_foreach(r->input, name, v)
		sdk_field(sb, name, v, ++i);
	strbuf_addstr(sb, "\t}, nil\n}\n");
}

static void tail(keys_writer *w)
{
	(void)w;
}

static const keys_syntax syntax = { "//", "const ", "", " //", "\n", false };

const keys_ops ddbc_keys_go_ops = { &syntax, head, key, guards, request, tail, enum_type,
				    ident, "Go" };
