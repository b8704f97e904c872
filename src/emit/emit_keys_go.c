/* emit_keys_go.c - `ddbc keys --lang go`: the plan as a Go package
 *
 * One file, the standard library only (fmt, strings): constants for
 * names, a builder, parser and begins_with prefix per key, range-bound
 * helpers, type guards over items in DynamoDB JSON as encoding/json
 * decodes them (map[string]any), and a request per read pattern as the
 * JSON the DynamoDB API takes (json.Marshal it, or fill the SDK's input
 * from it). Go exports capitalised names only, so every name of the plan
 * gets its first letter in upper case (ecommerce_user_pk becomes
 * Ecommerce_user_pk; the constants are upper case already), as do the
 * parts' fields. The package is --module, else the prefix in lower case.
 * It passes `go vet`.
 */
#include "emit/emit_keys_int.h"
#include "model/semantics.h"

#include <string.h>

static void str(strbuf *sb, const char *s, size_t len)
{
	keys_string(sb, s, len, false);
}

static void cstr(strbuf *sb, const char *s)
{
	keys_string(sb, s, strlen(s), false);
}

/* A plan name as Go exports it. */
static void exported(strbuf *sb, const char *name)
{
	if (name[0] >= 'a' && name[0] <= 'z') {
		strbuf_addch(sb, (char)(name[0] - 'a' + 'A'));
		strbuf_addstr(sb, name + 1);
	} else if (name[0] == '_') {
		strbuf_addstr(sb, "P");
		strbuf_addstr(sb, name);
	} else {
		strbuf_addstr(sb, name);
	}
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
		      "// with the same names, first letter capitalised. A builder returns the\n"
		      "// key or a *KeyBuildError; a parser returns the parts and whether the key\n"
		      "// has its shape; <KEY>_PREFIX is the text before the first value\n"
		      "// (begins_with); <Key>_prefix_to_<part> and <Key>_after_<part> are the\n"
		      "// range bounds of the keys whose parts up to <part> are given;\n"
		      "// <Prefix>_is_<entity>(item) tells items apart as `ddbc check-items` does;\n"
		      "// <Pattern>_request(...) is the request `ddbc export --format queries`\n"
		      "// writes (a PutItem's takes the item first and writes the pattern's key\n"
		      "// over it).\npackage ");
	strbuf_addstr(sb, w->module);
	strbuf_addstr(sb, "\n\nimport (\n\t\"encoding/base64\"\n\t\"fmt\"\n\t\"strconv\"\n\t\"strings\"\n)\n\n"
		      "// keyDelimiter is the key delimiter, which no text part of a key may hold.\n"
		      "const keyDelimiter = ");
	cstr(sb, w->g->key_delimiter ? w->g->key_delimiter : "");
	strbuf_addstr(sb, "\n\n");
	strbuf_addstr(sb, runtime);
}

static void shape(strbuf *sb, const char *name, const ddbc_hkey *k)
{
	strbuf_addf(sb, "var %s = []piece{", name);
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
	strbuf_addf(sb, "\n// %s is the values of ", ha->enum_macro);
	keys_comment(sb, ha->attr->name.s);
	strbuf_addf(sb, " (enum).\ntype %s string\n\nconst (\n", ha->enum_macro);
	for (size_t i = 0; i < ha->attr->more->nenum; i++) {
		strbuf_addf(sb, "\t%s %s = ", keys_enum_const(w, ha, i), ha->enum_macro);
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

static void helper(strbuf *sb, const keys_key *kk, const keys_cut *c, bool after)
{
	const ddbc_hkey *k = kk->ha->key;
	const ddbc_hpiece *next = &k->pieces[c->piece + 1];
	const char *func = after ? c->after_func : c->prefix_func;
	strbuf_addstr(sb, "\n// ");
	exported(sb, func);
	strbuf_addstr(sb, after ? " is above every key with these parts (range-bound-prefix).\n"
			  : " is the begins_with prefix of the keys with these parts.\n");
	func_head(sb, func, k->params, c->nparams);
	if (!after) {
		strbuf_addf(sb, "\treturn buildKey(%s[:%zu], ", kk->shape, c->piece + 2);
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

static void parser(strbuf *sb, const keys_key *kk)
{
	const ddbc_hattr *ha = kk->ha;
	const ddbc_hkey *k = ha->key;
	strbuf_addstr(sb, "\n// ");
	exported(sb, ha->parts_struct);
	strbuf_addstr(sb, " holds the parts of a key.\ntype ");
	exported(sb, ha->parts_struct);
	strbuf_addstr(sb, " struct {\n");
	for (size_t i = 0; i < k->nparams; i++) {
		strbuf_addch(sb, '\t');
		exported(sb, k->params[i].name);
		strbuf_addstr(sb, " string\n");  /* a Number's exact text */
	}
	strbuf_addstr(sb, "}\n\n// ");
	exported(sb, ha->parse_func);
	strbuf_addstr(sb, " reads a key back into its parts.\nfunc ");
	exported(sb, ha->parse_func);
	strbuf_addstr(sb, "(key string) (");
	exported(sb, ha->parts_struct);
	strbuf_addf(sb, ", bool) {\n\tv, ok := parseKey(key, %s, %zu)\n\tif !ok {\n\t\treturn ",
		    kk->shape, k->nparams);
	exported(sb, ha->parts_struct);
	strbuf_addstr(sb, "{}, false\n\t}\n\treturn ");
	exported(sb, ha->parts_struct);
	strbuf_addch(sb, '{');
	for (size_t i = 0; i < k->nparams; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		exported(sb, k->params[i].name);
		strbuf_addf(sb, k->params[i].number ? ": v[%zu].num" : ": v[%zu].text", i);
	}
	strbuf_addstr(sb, "}, true\n}\n");
}

static void key(keys_writer *w, const keys_key *kk)
{
	strbuf *sb = &w->sb;
	const ddbc_hattr *ha = kk->ha;
	const ddbc_hkey *k = ha->key;
	shape(sb, kk->shape, k);
	strbuf_addstr(sb, "\n// ");
	exported(sb, ha->func);
	strbuf_addstr(sb, " builds the key.\n");
	func_head(sb, ha->func, k->params, k->nparams);
	strbuf_addf(sb, k->max_bytes ? "\tk__, err__ := buildKey(%s, " : "\treturn buildKey(%s, ",
		    kk->shape);
	parts(sb, k->params, k->nparams);
	if (k->max_bytes)
		strbuf_addf(sb, ")\n\treturn fitKey(k__, err__, %zu)\n}\n", k->max_bytes);
	else
		strbuf_addstr(sb, ")\n}\n");
	if (ha->parse_func)
		parser(sb, kk);
	for (size_t i = 0; i < kk->ncuts; i++) {
		helper(sb, kk, &kk->cuts[i], false);
		if (kk->cuts[i].after_func)
			helper(sb, kk, &kk->cuts[i], true);
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

static void request(keys_writer *w, const keys_request *r)
{
	strbuf *sb = &w->sb;
	const ddbc_pattern *p = r->hp->pattern;
	strbuf_addstr(sb, "\n// ---- access pattern ");
	keys_comment(sb, p->id.s);
	strbuf_addf(sb, "\n\nconst %s = ", r->op_const);
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
		const ddbc_hkey *k = &r->hp->values[i].key;
		strbuf_addf(sb, "\tv%zu__, err__ := buildKey(%s, ", i, r->shapes[i]);
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
}

static void tail(keys_writer *w)
{
	(void)w;
}

static const keys_syntax syntax = { "//", "const ", "", " //", "\n", false };

const keys_ops ddbc_keys_go_ops = { &syntax, head, key, guards, request, tail, enum_type };
