/* emit_keys_py.c - `ddbc keys --lang python`: the plan as a Python module
 *
 * One file, the standard library only: constants for names, a builder,
 * parser and begins_with prefix per key, range-bound helpers, type guards
 * over items in DynamoDB JSON (what boto3's client returns), and a request
 * per read pattern that client.query(**request), get_item and scan take as
 * it is. Parts are frozen dataclasses (a parameter may start with '_',
 * which a NamedTuple refuses). It passes `mypy --strict`.
 */
#include "emit/emit_keys_int.h"
#include "model/semantics.h"

#include <string.h>

static void str(strbuf *sb, const char *s, size_t len)
{
	ddbc_keys_string(sb, s, len, false);
}

static void cstr(strbuf *sb, const char *s)
{
	ddbc_keys_string(sb, s, strlen(s), false);
}

static const char runtime[] =
	"\n\nclass KeyBuildError(ValueError):\n"
	"    \"\"\"A key that cannot be built: a value its parser would not read back.\"\"\"\n"
	"\n\n"
	"# A key's shape: literals, and (parameter, width, is a number, name).\n"
	"_Piece = Union[str, Tuple[int, int, bool, str]]\n"
	"_Part = str\n"
	"# A Number's value: exact decimal text, an int or a decimal.Decimal.\n"
	"Number = Union[str, int, decimal.Decimal]\n"
	"Item = Mapping[str, Any]\n"
	"_DECIMAL = re.compile(r\"([+-]?)([0-9]*)(?:\\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\\Z\")\n"
	"\n"
	"\n"
	"def _number_problem(s: str) -> str:\n"
	"    \"\"\"Why decimal text s is no number DynamoDB holds (38 significant\n"
	"    digits, zero or 1E-130 to 9.99...E+125), or \"\" when it is one.\"\"\"\n"
	"    m = _DECIMAL.match(s)\n"
	"    if m is None or (m.group(2) or \"\") + (m.group(3) or \"\") == \"\":\n"
	"        return \"is no decimal number\"\n"
	"    whole = m.group(2) or \"\"\n"
	"    digits = (whole + (m.group(3) or \"\")).lstrip(\"0\")\n"
	"    if digits == \"\":\n"
	"        return \"\"\n"
	"    first = len(whole + (m.group(3) or \"\")) - len(digits)\n"
	"    n = len(digits.rstrip(\"0\"))\n"
	"    if n > 38:\n"
	"        return f\"is a number of {n} significant digits; DynamoDB keeps at most 38\"\n"
	"    e = m.group(4) or \"0\"\n"
	"    # Python refuses int() of very long texts: far beyond any range anyway.\n"
	"    ed = e.lstrip(\"+-\").lstrip(\"0\") or \"0\"\n"
	"    exp = (-1 if e.startswith(\"-\") else 1) * (int(ed) if len(ed) < 16 else 10**16)\n"
	"    power = exp + len(whole) - first - 1\n"
	"    if power > 125 or power < -130:\n"
	"        return \"is out of DynamoDB's range, 1E-130 to 9.99...E+125\"\n"
	"    return \"\"\n"
	"\n"
	"\n"
	"def _number_key(s: str, width: int) -> Tuple[str, str]:\n"
	"    \"\"\"The text a Number part is written as, or why not: with a width, a\n"
	"    non-negative whole number zero-padded to exactly width digits; without,\n"
	"    as given less a leading '+', a whole number without leading zeros or\n"
	"    \"-0\" (so one whole number has one key); width -1, a condition's\n"
	"    value, any Number as given, as the queries export sends it.\"\"\"\n"
	"    m = _DECIMAL.match(s)\n"
	"    why = _number_problem(s)\n"
	"    if m is None or why:\n"
	"        return \"\", why\n"
	"    sign, whole = m.group(1), m.group(2) or \"\"\n"
	"    plain = m.group(3) is None and m.group(4) is None\n"
	"    if width < 0:\n"
	"        return s, \"\"\n"
	"    if width > 0:\n"
	"        if not plain or sign == \"-\":\n"
	"            return \"\", \"is not a non-negative whole number\"\n"
	"        digits = whole.lstrip(\"0\") or \"0\"\n"
	"        if len(digits) > width:\n"
	"            return \"\", f\"does not fit {width} digits\"\n"
	"        return digits.rjust(width, \"0\"), \"\"\n"
	"    if plain and len(whole) > 1 and whole.startswith(\"0\"):\n"
	"        return \"\", \"has a leading zero\"\n"
	"    if plain and sign == \"-\" and whole.strip(\"0\") == \"\":\n"
	"        return \"\", \"is -0\"\n"
	"    return (s[1:] if sign == \"+\" else s), \"\"\n"
	"\n"
	"\n"
	"def _number(v: Number, width: int, name: str) -> str:\n"
	"    \"\"\"A Number given as decimal text, an int or a decimal.Decimal (a float\n"
	"    is refused, as boto3 refuses it: it is not the decimal it looks like).\"\"\"\n"
	"    if isinstance(v, bool) or not isinstance(v, (str, int, decimal.Decimal)):\n"
	"        raise KeyBuildError(f\"{name}: {v!r} is not a str, int or decimal.Decimal\")\n"
	"    s = v if isinstance(v, str) else str(v)\n"
	"    text, why = _number_key(s, width)\n"
	"    if why:\n"
	"        raise KeyBuildError(f\"{name}: {s!r} {why}\")\n"
	"    return text\n"
	"\n\n"
	"def _from_base64(s: str) -> bytes:\n"
	"    \"\"\"A Binary's base64 text as the bytes boto3 takes.\"\"\"\n"
	"    try:\n"
	"        return base64.b64decode(s, validate=True)\n"
	"    except ValueError:\n"
	"        raise KeyBuildError(f\"{s!r} is not base64\") from None\n"
	"\n\n"
	"def _text(v: str, after: str, name: str) -> str:\n"
	"    if not isinstance(v, str):\n"
	"        raise KeyBuildError(f\"{name}: {v!r} is not a string\")\n"
	"    if _DELIMITER and _DELIMITER in v:\n"
	"        raise KeyBuildError(f\"{name}: {v!r} holds the key delimiter\")\n"
	"    if after and (v + after).find(after) != len(v):\n"
	"        raise KeyBuildError(f\"{name}: {v!r} holds {after!r}\")\n"
	"    return v\n"
	"\n\n"
	"def _fit(key: str, max_bytes: int) -> str:\n"
	"    # A key of more UTF-8 bytes than DynamoDB takes is refused.\n"
	"    n = len(key.encode(\"utf-8\", \"surrogatepass\"))\n"
	"    if n > max_bytes:\n"
	"        raise KeyBuildError(f\"key: {n} bytes, over DynamoDB's {max_bytes}\")\n"
	"    return key\n"
	"\n\n"
	"def _build(shape: Sequence[_Piece], values: Sequence[Number]) -> str:\n"
	"    key = []\n"
	"    for i, pc in enumerate(shape):\n"
	"        if isinstance(pc, str):\n"
	"            key.append(pc)\n"
	"            continue\n"
	"        v = values[pc[0]]\n"
	"        after = shape[i + 1] if i + 1 < len(shape) else \"\"\n"
	"        if pc[2]:\n"
	"            key.append(_number(v, pc[1], pc[3]))\n"
	"        else:\n"
	"            key.append(_text(v, after if isinstance(after, str) else \"\", pc[3]))  # type: ignore[arg-type]\n"
	"    return \"\".join(key)\n"
	"\n\n"
	"_READ_DIGITS = re.compile(r\"[0-9]*\")\n"
	"_READ_NUMBER = re.compile(r\"-?[0-9]*(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?\")\n"
	"\n"
	"\n"
	"def _read_number(key: str, p: int, width: int) -> Optional[Tuple[str, int]]:\n"
	"    \"\"\"A Number as the builder writes it, from p: with a width, exactly\n"
	"    width digits, read without its leading zeros; without, the longest\n"
	"    decimal there, which the builder would write as it is.\"\"\"\n"
	"    m = (_READ_DIGITS if width > 0 else _READ_NUMBER).match(key, p)\n"
	"    s = m.group(0) if m else \"\"\n"
	"    if width > 0:\n"
	"        return ((s.lstrip(\"0\") or \"0\"), p + width) if len(s) == width else None\n"
	"    text, why = _number_key(s, 0)\n"
	"    return (s, p + len(s)) if not why and text == s else None\n"
	"\n\n"
	"def _parse(key: str, shape: Sequence[_Piece], n: int) -> Optional[List[_Part]]:\n"
	"    \"\"\"The parts of key, or None: a text part ends where the literal after it\n"
	"    first occurs; a part used twice must read the same.\"\"\"\n"
	"    parts: List[Optional[_Part]] = [None] * n\n"
	"    p = 0\n"
	"    for i, pc in enumerate(shape):\n"
	"        if isinstance(pc, str):\n"
	"            if not key.startswith(pc, p):\n"
	"                return None\n"
	"            p += len(pc)\n"
	"            continue\n"
	"        v: _Part\n"
	"        if pc[2]:\n"
	"            r = _read_number(key, p, pc[1])\n"
	"            if r is None:\n"
	"                return None\n"
	"            v, p = r\n"
	"        else:\n"
	"            after = shape[i + 1] if i + 1 < len(shape) else None\n"
	"            end = key.find(after, p) if isinstance(after, str) else len(key)\n"
	"            if end < 0:\n"
	"                return None\n"
	"            v = key[p:end]\n"
	"            p = end\n"
	"        seen = parts[pc[0]]\n"
	"        if seen is not None and seen != v:\n"
	"            return None\n"
	"        parts[pc[0]] = v\n"
	"    if p != len(key):\n"
	"        return None\n"
	"    return [part for part in parts if part is not None]\n";

static const char guard_runtime[] =
	"\n\n# ---- type guards: which entity an item is, as `ddbc check-items` decides\n\n"
	"# A key language: literals, and (class, at least): 0 anything, 1 no key\n"
	"# delimiter, 2 a number's characters, 3 digits.\n"
	"# A fixed string, or (class, at least, at most (0: no limit)).\n"
	"_Run = Union[str, Tuple[int, int, int]]\n"
	"\n\n"
	"@dataclasses.dataclass(frozen=True)\n"
	"class _Shape:\n"
	"    name: str\n"
	"    keys: Tuple[Tuple[str, str, int, Tuple[_Run, ...]], ...]\n"
	"    literal: int\n"
	"    consts: Tuple[Tuple[str, str, str], ...]\n"
	"    stored: FrozenSet[str]\n"
	"\n\n"
	"def _takes(cls: int, s: str, i: int, j: int, delim: str) -> bool:\n"
	"    c = s[j]\n"
	"    if cls == 2:\n"
	"        return \"0\" <= c <= \"9\" or c in \"-.eE+\"\n"
	"    if cls == 3:\n"
	"        return \"0\" <= c <= \"9\"\n"
	"    end = j + 1\n"
	"    return cls != 1 or not delim or end - len(delim) < i or s[end - len(delim):end] != delim\n"
	"\n\n"
	"def _matches(runs: Sequence[_Run], s: str, delim: str) -> bool:\n"
	"    at = {0}\n"
	"    for run in runs:\n"
	"        after = set()\n"
	"        for i in at:\n"
	"            if isinstance(run, str):\n"
	"                if s.startswith(run, i):\n"
	"                    after.add(i + len(run))\n"
	"                continue\n"
	"            j = i\n"
	"            while True:\n"
	"                if j - i >= run[1]:\n"
	"                    after.add(j)\n"
	"                if run[2] and j - i >= run[2]:\n"
	"                    break\n"
	"                if j >= len(s) or not _takes(run[0], s, i, j, delim):\n"
	"                    break\n"
	"                j += 1\n"
	"        at = after\n"
	"    return len(s) in at\n"
	"\n\n"
	"def _member(item: Item, name: str, type_: str) -> Any:\n"
	"    \"\"\"A member's value; a Binary as boto3 returns it (bytes) is read as its\n"
	"    base64 text, as check-items reads DynamoDB JSON.\"\"\"\n"
	"    v = item.get(name)\n"
	"    m = v.get(type_) if isinstance(v, Mapping) else None\n"
	"    if type_ == \"B\" and isinstance(m, (bytes, bytearray)):\n"
	"        return base64.b64encode(bytes(m)).decode(\"ascii\")\n"
	"    return m\n"
	"\n\n"
	"_NUMBER = re.compile(r\"([+-]?)([0-9]*)(?:\\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\\Z\")\n"
	"\n\n"
	"def _decimal(s: str) -> Optional[str]:\n"
	"    \"\"\"A Number's exact value as text (1, 1.0 and 1e0 give one), or None.\"\"\"\n"
	"    m = _NUMBER.match(s)\n"
	"    if m is None or not (m.group(2) or m.group(3)):\n"
	"        return None\n"
	"    frac = m.group(3) or \"\"\n"
	"    digits = (m.group(2) + frac).lstrip(\"0\")\n"
	"    exp = int(m.group(4) or \"0\") - len(frac)\n"
	"    if not digits:\n"
	"        return \"0\"\n"
	"    stripped = digits.rstrip(\"0\")\n"
	"    exp += len(digits) - len(stripped)\n"
	"    return (\"-\" if m.group(1) == \"-\" else \"\") + stripped + \"e\" + str(exp)\n"
	"\n\n"
	"def _same_number(a: str, b: str) -> bool:\n"
	"    \"\"\"Two Numbers as DynamoDB compares them: by value; a text that is no\n"
	"    number equals only itself.\"\"\"\n"
	"    x, y = _decimal(a), _decimal(b)\n"
	"    return x == y if x is not None and y is not None else a == b\n"
	"\n\n"
	"def _key_bytes(v: str, type_: str) -> int:\n"
	"    \"\"\"A key value's bytes as DynamoDB limits them: Binary is counted\n"
	"    decoded, not as its base64 text.\"\"\"\n"
	"    return len(v.rstrip(\"=\")) * 3 // 4 if type_ == \"B\" else len(v.encode(\"utf-8\"))\n"
	"\n\n"
	"def _fits(e: _Shape, item: Item, delim: str) -> bool:\n"
	"    for name, type_, most, runs in e.keys:\n"
	"        v = _member(item, name, type_)\n"
	"        if not isinstance(v, str) or _key_bytes(v, type_) > most or not _matches(runs, v, delim):\n"
	"            return False\n"
	"    return True\n"
	"\n\n"
	"def _constants_say(e: _Shape, item: Item) -> bool:\n"
	"    \"\"\"Whether the item's constant attributes say it is e: it holds some,\n"
	"    each with its value.\"\"\"\n"
	"    held = 0\n"
	"    for name, type_, value in e.consts:\n"
	"        if name not in item:\n"
	"            continue\n"
	"        v = _member(item, name, type_)\n"
	"        if type_ == \"BOOL\":\n"
	"            same = v is (value == \"true\")\n"
	"        elif type_ == \"NULL\":\n"
	"            same = v is True\n"
	"        elif type_ == \"N\":\n"
	"            same = isinstance(v, str) and _same_number(v, value)\n"
	"        else:\n"
	"            same = v == value\n"
	"        if not same:\n"
	"            return False\n"
	"        held += 1\n"
	"    return held > 0\n"
	"\n\n"
	"def _undeclared(e: _Shape, item: Item) -> int:\n"
	"    return sum(1 for name in item if name not in e.stored)\n"
	"\n\n"
	"def _entity_of(item: Item) -> Optional[str]:\n"
	"    # Placeholder values without the delimiter first, then with it.\n"
	"    for delim in (_DELIMITER, \"\"):\n"
	"        tied = [e for e in _ENTITIES if _fits(e, item, delim)]\n"
	"        if len(tied) > 1:\n"
	"            saying = [e for e in tied if _constants_say(e, item)]\n"
	"            if saying:\n"
	"                tied = saying\n"
	"            most = max(e.literal for e in tied)\n"
	"            tied = [e for e in tied if e.literal == most]\n"
	"        if len(tied) > 1:\n"
	"            fewest = min(_undeclared(e, item) for e in tied)\n"
	"            tied = [e for e in tied if _undeclared(e, item) == fewest]\n"
	"        if len(tied) == 1:\n"
	"            return tied[0].name\n"
	"        if tied:\n"
	"            return None\n"
	"    return None\n";

/* The keyword arguments of boto3's DynamoDB client methods, as far as a
 * request holds them (the queries export's members; a caller adds the
 * rest, such as an UpdateItem's UpdateExpression). */
static const char kwargs_types[] =
	"\n\n# A value in DynamoDB JSON as boto3's client takes it ({\"S\": \"text\"}; a Binary as bytes).\n"
	"AttributeValue = Dict[str, Any]\n\n\n"
	"class _Kwargs(TypedDict, total=False):\n"
	"    TableName: str\n"
	"    ExpressionAttributeNames: Dict[str, str]\n"
	"    ExpressionAttributeValues: Dict[str, AttributeValue]\n\n\n"
	"class _ReadKwargs(_Kwargs, total=False):\n"
	"    ProjectionExpression: str\n"
	"    ConsistentRead: bool\n\n\n"
	"class GetItemKwargs(_ReadKwargs, total=False):\n"
	"    \"\"\"client.get_item(**kwargs).\"\"\"\n"
	"    Key: Dict[str, AttributeValue]\n\n\n"
	"class ScanKwargs(_ReadKwargs, total=False):\n"
	"    \"\"\"client.scan(**kwargs).\"\"\"\n"
	"    IndexName: str\n"
	"    FilterExpression: str\n"
	"    Limit: int\n"
	"    ExclusiveStartKey: Dict[str, AttributeValue]\n\n\n"
	"class QueryKwargs(ScanKwargs, total=False):\n"
	"    \"\"\"client.query(**kwargs).\"\"\"\n"
	"    KeyConditionExpression: str\n"
	"    ScanIndexForward: bool\n\n\n"
	"class _WriteKwargs(_Kwargs, total=False):\n"
	"    ConditionExpression: str\n"
	"    ReturnValues: str\n\n\n"
	"class PutItemKwargs(_WriteKwargs, total=False):\n"
	"    \"\"\"client.put_item(**kwargs).\"\"\"\n"
	"    Item: Dict[str, AttributeValue]\n\n\n"
	"class UpdateItemKwargs(_WriteKwargs, total=False):\n"
	"    \"\"\"client.update_item(**kwargs); UpdateExpression is the caller's.\"\"\"\n"
	"    Key: Dict[str, AttributeValue]\n"
	"    UpdateExpression: str\n\n\n"
	"class DeleteItemKwargs(_WriteKwargs, total=False):\n"
	"    \"\"\"client.delete_item(**kwargs).\"\"\"\n"
	"    Key: Dict[str, AttributeValue]\n";

static void head(keys_writer *w)
{
	strbuf *sb = &w->sb;
	/* The coding cookie first: Python reads one on either of the first
	 * two lines, and the design's name on the second could be one. */
	ddbc_strbuf_addstr(sb, "# -*- coding: utf-8 -*-\n"
		      "# Python key builders generated by ddbc from ");
	ddbc_keys_origin(sb, w->g);
	ddbc_strbuf_addstr(sb, "; do not edit.\n\"\"\"Module ");
	ddbc_strbuf_addstr(sb, w->module);
	ddbc_strbuf_addstr(sb, ": the names and builders of the C header (ddbc header), with\n"
		      "the same names. A builder returns the key or raises KeyBuildError; a parser\n"
		      "returns the parts or None; <key>_PREFIX is the text before the first value\n"
		      "(begins_with); <key>_prefix_to_<part> and <key>_after_<part> are the range\n"
		      "bounds of the keys whose parts up to <part> are given;\n"
		      "<prefix>_is_<entity>(item) tells items apart as `ddbc check-items` does;\n"
		      "<pattern>_request(...) is the request `ddbc export --format queries` writes\n"
		      "(a PutItem's takes the item first and writes the pattern's key over it),\n"
		      "typed as the keyword arguments boto3's client takes:\n"
		      "boto3.client(\"dynamodb\").query(**request) sends it.\n"
		      "\"\"\"\n\nimport base64\nimport dataclasses\nimport decimal\nimport re\n"
		      "from typing import Any, Dict, FrozenSet, List, Literal, Mapping, Optional, Sequence, "
		      "Tuple, TypedDict, Union\n\n"
		      "# The key delimiter, which no text part of a key may hold.\n_DELIMITER = ");
	cstr(sb, w->g->key_delimiter ? w->g->key_delimiter : "");
	ddbc_strbuf_addch(sb, '\n');
	ddbc_strbuf_addstr(sb, runtime);
	ddbc_strbuf_addstr(sb, kwargs_types);
}

static void shape(strbuf *sb, const char *name, const ddbc_hkey *k)
{
	ddbc_strbuf_addf(sb, "%s: Tuple[_Piece, ...] = (", name);
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (pc->text) {
			str(sb, pc->text, pc->len);
		} else {
			const ddbc_hparam *pm = &k->params[pc->param];
			ddbc_strbuf_addf(sb, "(%zu, %u, %s, ", pc->param, pc->width,
				    pm->number ? "True" : "False");
			cstr(sb, pm->source);
			ddbc_strbuf_addch(sb, ')');
		}
		ddbc_strbuf_addstr(sb, i + 1 < k->npieces || k->npieces == 1 ? ", " : "");
	}
	ddbc_strbuf_addstr(sb, ")\n");
}

static void params(strbuf *sb, const ddbc_hparam *ps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addf(sb, "%s%s: %s", i ? ", " : "", ps[i].name,
			    ps[i].number ? "Number" : ps[i].enum_type ? ps[i].enum_type : "str");
}

/* The values as a Literal type (typing.get_args gives them back). */
static void enum_type(keys_writer *w, const ddbc_hattr *ha)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addf(sb, "%s = Literal[", ha->enum_macro);
	for (size_t i = 0; i < ha->attr->more->nenum; i++) {
		ddbc_strbuf_addstr(sb, i ? ", " : "");
		ddbc_keys_enum_value(sb, ha, i, false);
	}
	ddbc_strbuf_addstr(sb, "]  # enum\n");
}

static void args(strbuf *sb, const ddbc_hparam *ps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addf(sb, "%s%s", i ? ", " : "", ps[i].name);
	if (n == 1)
		ddbc_strbuf_addch(sb, ',');
}

static void helper(strbuf *sb, const keys_key *kk, const keys_cut *c, bool after)
{
	const ddbc_hkey *k = kk->ha->key;
	const ddbc_hpiece *next = &k->pieces[c->piece + 1];
	ddbc_strbuf_addf(sb, "\n\ndef %s(", after ? c->after_func : c->prefix_func);
	params(sb, k->params, c->nparams);
	ddbc_strbuf_addstr(sb, ") -> str:\n");
	if (!after) {
		ddbc_strbuf_addf(sb, "    \"\"\"begins_with prefix of the keys with these parts.\"\"\"\n"
			    "    return _build(%s[:%zu], (", kk->shape, c->piece + 2);
		args(sb, k->params, c->nparams);
		ddbc_strbuf_addstr(sb, "))\n");
		return;
	}
	ddbc_strbuf_addf(sb, "    \"\"\"Above every key with these parts (range-bound-prefix).\"\"\"\n"
		    "    k__ = %s(", c->prefix_func);
	for (size_t i = 0; i < c->nparams; i++)
		ddbc_strbuf_addf(sb, "%s%s", i ? ", " : "", k->params[i].name);
	ddbc_strbuf_addstr(sb, ")\n    return k__[:len(k__) - len(");
	str(sb, next->text, next->len);
	ddbc_strbuf_addstr(sb, ")] + ");
	str(sb, c->after, c->after_len);
	ddbc_strbuf_addch(sb, '\n');
}

static void parser(strbuf *sb, const keys_key *kk)
{
	const ddbc_hattr *ha = kk->ha;
	const ddbc_hkey *k = ha->key;
	ddbc_strbuf_addf(sb, "\n\n@dataclasses.dataclass(frozen=True)\nclass %s:\n", ha->parts_struct);
	for (size_t i = 0; i < k->nparams; i++)
		ddbc_strbuf_addf(sb, "    %s: str\n", k->params[i].name);  /* a Number's exact text */
	ddbc_strbuf_addf(sb, "\n\ndef %s(key: str) -> Optional[%s]:\n"
		    "    v = _parse(key, %s, %zu)\n"
		    "    if v is None:\n        return None\n    return %s(",
		    ha->parse_func, ha->parts_struct, kk->shape, k->nparams, ha->parts_struct);
	for (size_t i = 0; i < k->nparams; i++)
		ddbc_strbuf_addf(sb, "%sv[%zu]", i ? ", " : "", i);
	ddbc_strbuf_addstr(sb, ")\n");
}

static void key(keys_writer *w, const keys_key *kk)
{
	strbuf *sb = &w->sb;
	const ddbc_hattr *ha = kk->ha;
	const ddbc_hkey *k = ha->key;
	shape(sb, kk->shape, k);
	ddbc_strbuf_addf(sb, "\n\ndef %s(", ha->func);
	params(sb, k->params, k->nparams);
	ddbc_strbuf_addf(sb, ") -> str:\n    return %s_build(%s, (", k->max_bytes ? "_fit(" : "",
		    kk->shape);
	args(sb, k->params, k->nparams);
	if (k->max_bytes)
		ddbc_strbuf_addf(sb, ")), %zu)\n", k->max_bytes);
	else
		ddbc_strbuf_addstr(sb, "))\n");
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
	"    _Shape(\n        ", ",\n        (", "(", "), ", "(", ")", "", "", "(%d, %zu, %zu)",
	"),\n        %zu,\n        (", "(", "), ", "),\n        frozenset((", ", ", ")),\n    ),\n",
};

static void guards(keys_writer *w, const keys_guard *gs, size_t n, const char *entity_of)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, guard_runtime);
	ddbc_strbuf_addstr(sb, "\n\n_ENTITIES: Tuple[_Shape, ...] = (\n");
	for (size_t i = 0; i < n; i++) {
		ddbc_keys_guard_data(&w->sb, &gs[i], &data_style, syntax.ts);
		ddbc_keys_flush(w);
	}
	ddbc_strbuf_addf(sb, ")\n\n\ndef %s(item: Item) -> Optional[str]:\n"
		    "    \"\"\"The entity the item is, or None: none or several fit it.\"\"\"\n"
		    "    return _entity_of(item)\n", entity_of);
	for (size_t i = 0; i < n; i++) {
		ddbc_strbuf_addf(sb, "\n\ndef %s(item: Item) -> bool:\n    return %s(item) == ",
			    gs[i].func, entity_of);
		cstr(sb, gs[i].e->name.s);
		ddbc_strbuf_addch(sb, '\n');
	}
}

static void value_expr(strbuf *sb, const keys_request *r, size_t i)
{
	bool number;
	unsigned width;
	const char *name = keys_cond_value(r, i, &number, &width);
	if (name) {
		/* An N value in decimal, any other as it is. */
		/* An N value as its text (a key's width where a key pads it), any
		 * other as it is. */
		if (number)
			ddbc_strbuf_addf(sb, "_number(%s, %d, \"%s\")", name, width ? (int)width : -1,
				    name);
		else
			ddbc_strbuf_addstr(sb, name);
		return;
	}
	const ddbc_hkey *k = &r->hp->values[i].key;
	ddbc_strbuf_addf(sb, "_build(%s, (", r->shapes[i]);
	args(sb, k->params, k->nparams);
	ddbc_strbuf_addstr(sb, "))");
}

static const keys_json_style style = { "{", "}", "[", "]", "True", "False", "None", false,
				       "_from_base64(", ")", "{**item__, **", "}" };

static void request(keys_writer *w, const keys_request *r)
{
	strbuf *sb = &w->sb;
	const ddbc_pattern *p = r->hp->pattern;
	ddbc_strbuf_addstr(sb, "\n\n# ---- access pattern ");
	ddbc_keys_comment(sb, p->id.s);
	ddbc_strbuf_addf(sb, "\n\n%s = ", r->op_const);
	cstr(sb, r->operation);
	ddbc_strbuf_addch(sb, '\n');
	for (size_t i = 0; i < r->hp->nvalues; i++)
		if (r->shapes[i])
			shape(sb, r->shapes[i], &r->hp->values[i].key);
	ddbc_strbuf_addf(sb, "\n\ndef %s(%s", r->func, r->item ? "item__: Item" : "");
	ddbc_strbuf_addstr(sb, r->item && r->nparams ? ", " : "");
	ddbc_keys_request_params(sb, r, ": ", (const char *const[3]){ "str", "Number", "bool" });
	ddbc_strbuf_addf(sb, ") -> %sKwargs:\n    return ", r->operation);
	ddbc_keys_json(sb, r->input, &style, r, value_expr, 1);
	ddbc_strbuf_addch(sb, '\n');
}

static void tail(keys_writer *w)
{
	(void)w;
}

static const keys_syntax syntax = { "#", "", "", "  #", "\n\n", false };

const keys_ops ddbc_keys_py_ops = { &syntax, head, key, guards, request, tail, enum_type,
				    NULL, "Python" };
