/* emit_keys_ts.c - `ddbc keys --lang ts`: the plan as a TypeScript module
 *
 * One file, no imports: constants for names, a builder, parser and
 * begins_with prefix per key, range-bound helpers, type guards over items
 * in DynamoDB JSON (what @aws-sdk/client-dynamodb returns), and a request
 * per read pattern that QueryCommand, GetItemCommand or ScanCommand take
 * as it is. A Number is exact decimal text (38 digits, exponents) when
 * read back; builders take that text, a bigint or a finite number.
 * It compiles under `tsc --strict` with target ES2020 or later (bigint).
 */
#include "emit/emit_keys_int.h"
#include "model/semantics.h"

#include <string.h>

static void str(strbuf *sb, const char *s, size_t len)
{
	ddbc_keys_string(sb, s, len, true);
}

static void cstr(strbuf *sb, const char *s)
{
	ddbc_keys_string(sb, s, strlen(s), true);
}

static const char runtime[] =
	"/** A key that cannot be built: a value its parser would not read back. */\n"
	"export class KeyBuildError extends Error {}\n"
	"\n"
	"/** An item as DynamoDB JSON: { PK: { S: \"USER#1\" }, ... }. */\n"
	"export type Item = Readonly<Record<string, unknown>>;\n"
	"\n"
	"/* A key's shape: literals, and [parameter, width, is a number, name]. */\n"
	"type Piece_ = string | readonly [number, number, boolean, string];\n"
	"type Part_ = string;\n"
	"/* A Number: an optional sign, digits with at most one '.', an exponent. */\n"
	"const DECIMAL_ = /^([+-]?)([0-9]*)(?:\\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;\n"
	"\n"
	"/* Why decimal text s is no number DynamoDB holds (38 significant digits,\n"
	" * zero or 1E-130 to 9.99...E+125), or \"\" when it is one. */\n"
	"function numberProblem_(s: string): string {\n"
	"    const m = DECIMAL_.exec(s);\n"
	"    const whole = m === null ? \"\" : m[2] ?? \"\", frac = m === null ? \"\" : m[3] ?? \"\";\n"
	"    if (m === null || whole + frac === \"\")\n"
	"        return \"is no decimal number\";\n"
	"    const all = whole + frac;\n"
	"    const first = all.search(/[1-9]/);\n"
	"    if (first < 0)\n"
	"        return \"\";\n"
	"    const digits = all.slice(first).replace(/0+$/, \"\").length;\n"
	"    if (digits > 38)\n"
	"        return `is a number of ${digits} significant digits; DynamoDB keeps at most 38`;\n"
	"    const power = BigInt(m[4] ?? \"0\") + BigInt(whole.length - first - 1);\n"
	"    if (power > BigInt(125) || power < BigInt(-130))\n"
	"        return \"is out of DynamoDB's range, 1E-130 to 9.99...E+125\";\n"
	"    return \"\";\n"
	"}\n"
	"\n"
	"/* The text a Number part is written as, or why not: with a width, a\n"
	" * non-negative whole number zero-padded to exactly width digits; without,\n"
	" * as given less a leading '+', a whole number without leading zeros or\n"
	" * \"-0\" (so one whole number has one key); width -1, a condition's value,\n"
	" * any Number as given, as the queries export sends it. */\n"
	"function numberKey_(s: string, width: number): [string, string] {\n"
	"    const m = DECIMAL_.exec(s);\n"
	"    const why = numberProblem_(s);\n"
	"    if (m === null || why !== \"\")\n"
	"        return [\"\", why];\n"
	"    const sign = m[1] ?? \"\", whole = m[2] ?? \"\";\n"
	"    const plain = m[3] === undefined && m[4] === undefined;\n"
	"    if (width < 0)\n"
	"        return [s, \"\"];\n"
	"    if (width > 0) {\n"
	"        if (!plain || sign === \"-\")\n"
	"            return [\"\", \"is not a non-negative whole number\"];\n"
	"        const digits = whole.replace(/^0+(?=[0-9])/, \"\");\n"
	"        if (digits.length > width)\n"
	"            return [\"\", `does not fit ${width} digits`];\n"
	"        return [digits.padStart(width, \"0\"), \"\"];\n"
	"    }\n"
	"    if (plain && whole.length > 1 && whole.startsWith(\"0\"))\n"
	"        return [\"\", \"has a leading zero\"];\n"
	"    if (plain && sign === \"-\" && /^0+$/.test(whole))\n"
	"        return [\"\", \"is -0\"];\n"
	"    return [sign === \"+\" ? s.slice(1) : s, \"\"];\n"
	"}\n"
	"\n"
	"/* A Number given as decimal text (exact), a bigint or a finite number\n"
	" * (as JavaScript writes it: 9.99, 1e+21). */\n"
	"function number_(v: string | number | bigint, width: number, name: string): string {\n"
	"    if (typeof v === \"number\" && !Number.isFinite(v))\n"
	"        throw new KeyBuildError(`${name}: ${v} is not a finite number`);\n"
	"    const s = typeof v === \"string\" ? v : v.toString();\n"
	"    const [text, why] = numberKey_(s, width);\n"
	"    if (why !== \"\")\n"
	"        throw new KeyBuildError(`${name}: ${JSON.stringify(s)} ${why}`);\n"
	"    return text;\n"
	"}\n"
	"\n"
	"function text_(v: string, next: string, name: string): string {\n"
	"    if (DELIMITER_ !== \"\" && v.includes(DELIMITER_))\n"
	"        throw new KeyBuildError(`${name}: ${JSON.stringify(v)} holds the key delimiter`);\n"
	"    if (next !== \"\" && (v + next).indexOf(next) !== v.length)\n"
	"        throw new KeyBuildError(`${name}: ${JSON.stringify(v)} holds ${JSON.stringify(next)}`);\n"
	"    return v;\n"
	"}\n"
	"\n"
	"/* A key of more UTF-8 bytes than DynamoDB takes (max) is refused. */\n"
	"function fit_(key: string, max: number): string {\n"
	"    let n = 0;\n"
	"    for (let i = 0; i < key.length; i++) {\n"
	"        const c = key.charCodeAt(i);\n"
	"        const pair = c >= 0xd800 && c < 0xdc00 && i + 1 < key.length &&\n"
	"            key.charCodeAt(i + 1) >= 0xdc00 && key.charCodeAt(i + 1) < 0xe000;\n"
	"        n += c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;\n"
	"        i += pair ? 1 : 0;\n"
	"    }\n"
	"    if (n > max)\n"
	"        throw new KeyBuildError(`key: ${n} bytes, over DynamoDB's ${max}`);\n"
	"    return key;\n"
	"}\n"
	"\n"
	"function build_(shape: readonly Piece_[], values: readonly (string | number | bigint)[]): string {\n"
	"    let key = \"\";\n"
	"    for (let i = 0; i < shape.length; i++) {\n"
	"        const pc = shape[i];\n"
	"        if (typeof pc === \"string\") {\n"
	"            key += pc;\n"
	"            continue;\n"
	"        }\n"
	"        const v = values[pc[0]];\n"
	"        const next = shape[i + 1];\n"
	"        if (pc[2])\n"
	"            key += number_(v, pc[1], pc[3]);\n"
	"        else\n"
	"            key += text_(v as string, typeof next === \"string\" ? next : \"\", pc[3]);\n"
	"    }\n"
	"    return key;\n"
	"}\n"
	"\n"
	"/* A Number as the builder writes it, from p: with a width, exactly width\n"
	" * digits, read without its leading zeros; without, the longest decimal\n"
	" * there, which the builder would write as it is. [text, end] or null. */\n"
	"function readNumber_(key: string, p: number, width: number): [string, number] | null {\n"
	"    const re = width > 0 ? /[0-9]*/y : /-?[0-9]*(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?/y;\n"
	"    re.lastIndex = p;\n"
	"    const m = re.exec(key);\n"
	"    const s = m === null ? \"\" : m[0];\n"
	"    if (width > 0)\n"
	"        return s.length === width ? [s.replace(/^0+(?=[0-9])/, \"\"), p + width] : null;\n"
	"    const [text, why] = numberKey_(s, 0);\n"
	"    return why === \"\" && text === s ? [s, p + s.length] : null;\n"
	"}\n"
	"\n"
	"/* The parts of key, or null: a text part ends where the literal after it\n"
	" * first occurs; a part used twice must read the same. */\n"
	"function parse_(key: string, shape: readonly Piece_[], n: number): Part_[] | null {\n"
	"    const parts: (Part_ | undefined)[] = new Array<Part_ | undefined>(n).fill(undefined);\n"
	"    let p = 0;\n"
	"    for (let i = 0; i < shape.length; i++) {\n"
	"        const pc = shape[i];\n"
	"        if (typeof pc === \"string\") {\n"
	"            if (!key.startsWith(pc, p))\n"
	"                return null;\n"
	"            p += pc.length;\n"
	"            continue;\n"
	"        }\n"
	"        let v: Part_;\n"
	"        if (pc[2]) {\n"
	"            const r = readNumber_(key, p, pc[1]);\n"
	"            if (r === null)\n"
	"                return null;\n"
	"            [v, p] = r;\n"
	"        } else {\n"
	"            const next = shape[i + 1];\n"
	"            const end = typeof next === \"string\" ? key.indexOf(next, p) : key.length;\n"
	"            if (end < 0)\n"
	"                return null;\n"
	"            v = key.slice(p, end);\n"
	"            p = end;\n"
	"        }\n"
	"        const seen = parts[pc[0]];\n"
	"        if (seen !== undefined && seen !== v)\n"
	"            return null;\n"
	"        parts[pc[0]] = v;\n"
	"    }\n"
	"    return p === key.length ? (parts as Part_[]) : null;\n"
	"}\n";

static const char guard_runtime[] =
	"\n/* ---- type guards: which entity an item is, as `ddbc check-items` decides */\n\n"
	"/* A key language: literals, and [class, at least]: 0 anything, 1 no key\n"
	" * delimiter, 2 a number's characters, 3 digits. */\n"
	"/* A fixed string, or [class, at least, at most (0: no limit)]. */\n"
	"type Run_ = string | readonly [number, number, number];\n"
	"interface Shape_ {\n"
	"    readonly name: string;\n"
	"    readonly keys: readonly (readonly [string, string, number, readonly Run_[]])[];\n"
	"    readonly literal: number;\n"
	"    readonly consts: readonly (readonly [string, string, string])[];\n"
	"    readonly stored: readonly string[];\n"
	"}\n"
	"\n"
	"function takes_(cls: number, s: string, i: number, j: number, delim: string): boolean {\n"
	"    const c = s.charAt(j);\n"
	"    if (cls === 2)\n"
	"        return (c >= \"0\" && c <= \"9\") || \"-.eE+\".includes(c);\n"
	"    if (cls === 3)\n"
	"        return c >= \"0\" && c <= \"9\";\n"
	"    const end = j + 1;\n"
	"    return cls !== 1 || delim === \"\" || end - delim.length < i ||\n"
	"        s.slice(end - delim.length, end) !== delim;\n"
	"}\n"
	"\n"
	"function matches_(runs: readonly Run_[], s: string, delim: string): boolean {\n"
	"    let at = new Set<number>([0]);\n"
	"    for (const run of runs) {\n"
	"        const next = new Set<number>();\n"
	"        for (const i of at) {\n"
	"            if (typeof run === \"string\") {\n"
	"                if (s.startsWith(run, i))\n"
	"                    next.add(i + run.length);\n"
	"                continue;\n"
	"            }\n"
	"            for (let j = i; ; j++) {\n"
	"                if (j - i >= run[1])\n"
	"                    next.add(j);\n"
	"                if (run[2] > 0 && j - i >= run[2])\n"
	"                    break;\n"
	"                if (j >= s.length || !takes_(run[0], s, i, j, delim))\n"
	"                    break;\n"
	"            }\n"
	"        }\n"
	"        at = next;\n"
	"    }\n"
	"    return at.has(s.length);\n"
	"}\n"
	"\n"
	"const BASE64_ = \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/\";\n"
	"\n"
	"/* Bytes as DynamoDB JSON writes a Binary: base64, padded. */\n"
	"function base64_(b: Uint8Array): string {\n"
	"    let s = \"\";\n"
	"    for (let i = 0; i < b.length; i += 3) {\n"
	"        const n = (b[i] << 16) | ((i + 1 < b.length ? b[i + 1] : 0) << 8) | (i + 2 < b.length ? b[i + 2] : 0);\n"
	"        s += BASE64_.charAt(n >> 18) + BASE64_.charAt((n >> 12) & 63) +\n"
	"            (i + 1 < b.length ? BASE64_.charAt((n >> 6) & 63) : \"=\") +\n"
	"            (i + 2 < b.length ? BASE64_.charAt(n & 63) : \"=\");\n"
	"    }\n"
	"    return s;\n"
	"}\n"
	"\n"
	"/* A Binary's base64 text as the bytes the SDK takes. */\n"
	"function fromBase64_(s: string): Uint8Array {\n"
	"    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s))\n"
	"        throw new KeyBuildError(`${JSON.stringify(s)} is not base64`);\n"
	"    const out = new Uint8Array((s.length / 4) * 3 - (s.endsWith(\"==\") ? 2 : s.endsWith(\"=\") ? 1 : 0));\n"
	"    for (let i = 0, o = 0; i < s.length; i += 4) {\n"
	"        let n = 0;\n"
	"        for (let j = 0; j < 4; j++)\n"
	"            n = (n << 6) | (s.charAt(i + j) === \"=\" ? 0 : BASE64_.indexOf(s.charAt(i + j)));\n"
	"        for (let j = 0; j < 3 && o < out.length; j++)\n"
	"            out[o++] = (n >> (16 - 8 * j)) & 255;\n"
	"    }\n"
	"    return out;\n"
	"}\n"
	"\n"
	"/* A member's value; a Binary as the SDK returns it (a Uint8Array) is\n"
	" * read as its base64 text, as check-items reads DynamoDB JSON. */\n"
	"function member_(item: Item, name: string, type: string): unknown {\n"
	"    const v = item[name];\n"
	"    const m = typeof v === \"object\" && v !== null ? (v as Record<string, unknown>)[type] : undefined;\n"
	"    return type === \"B\" && m instanceof Uint8Array ? base64_(m) : m;\n"
	"}\n"
	"\n"
	"/* A Number's exact value as text (1, 1.0 and 1e0 give one), or null. */\n"
	"function decimal_(s: string): string | null {\n"
	"    const m = /^([+-]?)([0-9]*)(?:\\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(s);\n"
	"    if (m === null || (m[2] ?? \"\") + (m[3] ?? \"\") === \"\")\n"
	"        return null;\n"
	"    let digits = ((m[2] ?? \"\") + (m[3] ?? \"\")).replace(/^0+/, \"\");\n"
	"    let exp = BigInt(m[4] ?? \"0\") - BigInt((m[3] ?? \"\").length);\n"
	"    if (digits === \"\")\n"
	"        return \"0\";\n"
	"    while (digits.endsWith(\"0\")) {\n"
	"        digits = digits.slice(0, -1);\n"
	"        exp += BigInt(1);\n"
	"    }\n"
	"    return (m[1] === \"-\" ? \"-\" : \"\") + digits + \"e\" + exp.toString();\n"
	"}\n"
	"\n"
	"/* Two Numbers as DynamoDB compares them: by value; a text that is no\n"
	" * number equals only itself. */\n"
	"function sameNumber_(a: string, b: string): boolean {\n"
	"    const x = decimal_(a), y = decimal_(b);\n"
	"    return x !== null && y !== null ? x === y : a === b;\n"
	"}\n"
	"\n"
	"function utf8Length_(s: string): number {\n"
	"    let n = 0;\n"
	"    for (const ch of s) {\n"
	"        const cp = ch.codePointAt(0) ?? 0;\n"
	"        n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;\n"
	"    }\n"
	"    return n;\n"
	"}\n"
	"\n"
	"/* A key value's bytes as DynamoDB limits them: Binary is counted\n"
	" * decoded, not as its base64 text. */\n"
	"function keyBytes_(v: string, type: string): number {\n"
	"    return type === \"B\" ? Math.floor((v.replace(/=+$/, \"\").length * 3) / 4) : utf8Length_(v);\n"
	"}\n"
	"\n"
	"function fits_(e: Shape_, item: Item, delim: string): boolean {\n"
	"    return e.keys.every(([name, type, max, runs]) => {\n"
	"        const v = member_(item, name, type);\n"
	"        return typeof v === \"string\" && keyBytes_(v, type) <= max && matches_(runs, v, delim);\n"
	"    });\n"
	"}\n"
	"\n"
	"/* Whether the item's constant attributes say it is e: it holds some, each\n"
	" * with its value. */\n"
	"function constantsSay_(e: Shape_, item: Item): boolean {\n"
	"    let held = 0;\n"
	"    for (const [name, type, value] of e.consts) {\n"
	"        if (item[name] === undefined)\n"
	"            continue;\n"
	"        const v = member_(item, name, type);\n"
	"        const same = type === \"BOOL\" ? v === (value === \"true\") : type === \"NULL\" ? v === true :\n"
	"            type === \"N\" ? typeof v === \"string\" && sameNumber_(v, value) : v === value;\n"
	"        if (!same)\n"
	"            return false;\n"
	"        held++;\n"
	"    }\n"
	"    return held > 0;\n"
	"}\n"
	"\n"
	"function undeclared_(e: Shape_, item: Item): number {\n"
	"    return Object.keys(item).filter((name) => !e.stored.includes(name)).length;\n"
	"}\n"
	"\n"
	"function entityOf_(item: Item): string | null {\n"
	"    /* Placeholder values without the delimiter first, then with it. */\n"
	"    for (const delim of [DELIMITER_, \"\"]) {\n"
	"        let tied = ENTITIES_.filter((e) => fits_(e, item, delim));\n"
	"        if (tied.length > 1) {\n"
	"            const saying = tied.filter((e) => constantsSay_(e, item));\n"
	"            if (saying.length)\n"
	"                tied = saying;\n"
	"            const most = Math.max(...tied.map((e) => e.literal));\n"
	"            tied = tied.filter((e) => e.literal === most);\n"
	"        }\n"
	"        if (tied.length > 1) {\n"
	"            const fewest = Math.min(...tied.map((e) => undeclared_(e, item)));\n"
	"            tied = tied.filter((e) => undeclared_(e, item) === fewest);\n"
	"        }\n"
	"        if (tied.length === 1)\n"
	"            return tied[0].name;\n"
	"        if (tied.length > 1)\n"
	"            return null;\n"
	"    }\n"
	"    return null;\n"
	"}\n";

static void head(keys_writer *w)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, "// TypeScript key builders generated by ddbc from ");
	ddbc_keys_origin(sb, w->g);
	ddbc_strbuf_addstr(sb, "; do not edit.\n//\n// Module ");
	ddbc_keys_comment(sb, w->module);
	ddbc_strbuf_addstr(sb, ": the names and builders of the C header (ddbc header), with the\n"
		      "// same names. A builder returns the key or throws KeyBuildError; a parser\n"
		      "// returns the parts or null; <key>_PREFIX is the text before the first\n"
		      "// value (begins_with); <key>_prefix_to_<part> and <key>_after_<part> are\n"
		      "// the range bounds of the keys whose parts up to <part> are given;\n"
		      "// <prefix>_is_<entity>(item) tells items apart as `ddbc check-items` does;\n"
		      "// <pattern>_request(...) is the request `ddbc export --format queries` writes\n"
		      "// (a PutItem's takes the item first and writes the pattern's key over it),\n"
		      "// typed as @aws-sdk/client-dynamodb's QueryCommandInput, GetItemCommandInput...\n"
		      "// (a type-only import: nothing of the SDK is loaded at run time).\n"
		      "// Needs target ES2020 or later (bigint).\n\n"
		      "import type {\n    DeleteItemCommandInput, GetItemCommandInput, PutItemCommandInput,\n"
		      "    QueryCommandInput, ScanCommandInput, UpdateItemCommandInput,\n"
		      "} from \"@aws-sdk/client-dynamodb\";\n\n");
	ddbc_strbuf_addstr(sb, "/** The key delimiter, which no text part of a key may hold. */\n"
		      "const DELIMITER_: string = ");
	cstr(sb, w->g->key_delimiter ? w->g->key_delimiter : "");
	ddbc_strbuf_addstr(sb, ";\n\n");
	ddbc_strbuf_addstr(sb, runtime);
}

static void shape(strbuf *sb, const char *name, const ddbc_hkey *k)
{
	ddbc_strbuf_addf(sb, "const %s: readonly Piece_[] = [", name);
	for (size_t i = 0; i < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i];
		if (i)
			ddbc_strbuf_addstr(sb, ", ");
		if (pc->text) {
			str(sb, pc->text, pc->len);
			continue;
		}
		const ddbc_hparam *pm = &k->params[pc->param];
		ddbc_strbuf_addf(sb, "[%zu, %u, %s, ", pc->param, pc->width, pm->number ? "true" : "false");
		cstr(sb, pm->source);
		ddbc_strbuf_addch(sb, ']');
	}
	ddbc_strbuf_addstr(sb, "];\n");
}

static void params(strbuf *sb, const ddbc_hparam *ps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addf(sb, "%s%s: %s", i ? ", " : "", ps[i].name,
			    ps[i].number ? "string | number | bigint" :
			    ps[i].enum_type ? ps[i].enum_type : "string");
}

/* The values as a constant and their union as a type of the same name. */
static void enum_type(keys_writer *w, const ddbc_hattr *ha)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addf(sb, "export const %s = [", ha->enum_macro);
	for (size_t i = 0; i < ha->attr->more->nenum; i++) {
		ddbc_strbuf_addstr(sb, i ? ", " : "");
		ddbc_keys_enum_value(sb, ha, i, true);
	}
	ddbc_strbuf_addf(sb, "] as const; // enum\nexport type %s = (typeof %s)[number];\n",
		    ha->enum_macro, ha->enum_macro);
}

static void args(strbuf *sb, const ddbc_hparam *ps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addf(sb, "%s%s", i ? ", " : "", ps[i].name);
}

static void cut(strbuf *sb, const keys_key *kk, const keys_cut *c)
{
	const ddbc_hkey *k = kk->ha->key;
	const ddbc_hpiece *next = &k->pieces[c->piece + 1];
	ddbc_strbuf_addf(sb, "/** begins_with prefix of the keys with these parts. */\n"
		    "export function %s(", c->prefix_func);
	params(sb, k->params, c->nparams);
	ddbc_strbuf_addf(sb, "): string {\n    return build_(%s.slice(0, %zu), [", kk->shape, c->piece + 2);
	args(sb, k->params, c->nparams);
	ddbc_strbuf_addstr(sb, "]);\n}\n");
	if (!c->after_func)
		return;
	ddbc_strbuf_addf(sb, "/** Above every key with these parts: an inclusive upper or exclusive\n"
		    " * lower bound that takes them all in (range-bound-prefix). */\n"
		    "export function %s(", c->after_func);
	params(sb, k->params, c->nparams);
	/* Locals end in "__", which no parameter does. */
	ddbc_strbuf_addf(sb, "): string {\n    const k__ = %s(", c->prefix_func);
	args(sb, k->params, c->nparams);
	ddbc_strbuf_addstr(sb, ");\n    return k__.slice(0, k__.length - ");
	str(sb, next->text, next->len);
	ddbc_strbuf_addstr(sb, ".length) + ");
	str(sb, c->after, c->after_len);
	ddbc_strbuf_addstr(sb, ";\n}\n");
}

static void parser(strbuf *sb, const keys_key *kk)
{
	const ddbc_hattr *ha = kk->ha;
	const ddbc_hkey *k = ha->key;
	ddbc_strbuf_addf(sb, "export interface %s {\n", ha->parts_struct);
	/* A Number part is its decimal text, exact. */
	for (size_t i = 0; i < k->nparams; i++)
		ddbc_strbuf_addf(sb, "    readonly %s: string;\n", k->params[i].name);
	ddbc_strbuf_addf(sb, "}\nexport function %s(key: string): %s | null {\n"
		    "    const v = parse_(key, %s, %zu);\n"
		    "    if (v === null)\n        return null;\n    return { ",
		    ha->parse_func, ha->parts_struct, kk->shape, k->nparams);
	for (size_t i = 0; i < k->nparams; i++)
		ddbc_strbuf_addf(sb, "%s%s: v[%zu]", i ? ", " : "", k->params[i].name, i);
	ddbc_strbuf_addstr(sb, " };\n}\n");
}

static void key(keys_writer *w, const keys_key *kk)
{
	strbuf *sb = &w->sb;
	const ddbc_hattr *ha = kk->ha;
	const ddbc_hkey *k = ha->key;
	shape(sb, kk->shape, k);
	ddbc_strbuf_addf(sb, "export function %s(", ha->func);
	params(sb, k->params, k->nparams);
	ddbc_strbuf_addf(sb, "): string {\n    return %sbuild_(%s, [", k->max_bytes ? "fit_(" : "",
		    kk->shape);
	args(sb, k->params, k->nparams);
	if (k->max_bytes)
		ddbc_strbuf_addf(sb, "]), %zu);\n}\n", k->max_bytes);
	else
		ddbc_strbuf_addstr(sb, "]);\n}\n");
	if (ha->parse_func)
		parser(sb, kk);
	for (size_t i = 0; i < kk->ncuts; i++)
		cut(sb, kk, &kk->cuts[i]);
}

static const keys_syntax syntax;

static const keys_data_style data_style = {
	"    {\n        name: ", ",\n        keys: [", "[", "], ", "[", "]", "", "", "[%d, %zu, %zu]",
	"],\n        literal: %zu,\n        consts: [", "[", "], ", "],\n        stored: [", ", ",
	"],\n    },\n",
};

static void guards(keys_writer *w, const keys_guard *gs, size_t n, const char *entity_of)
{
	strbuf *sb = &w->sb;
	ddbc_strbuf_addstr(sb, guard_runtime);
	ddbc_strbuf_addstr(sb, "\nconst ENTITIES_: readonly Shape_[] = [\n");
	for (size_t i = 0; i < n; i++) {
		ddbc_keys_guard_data(&w->sb, &gs[i], &data_style, syntax.ts);
		ddbc_keys_flush(w);
	}
	ddbc_strbuf_addf(sb, "];\n\n/** The entity the item is, or null: none or several fit it. */\n"
		    "export function %s(item: Item): string | null {\n"
		    "    return entityOf_(item);\n}\n", entity_of);
	for (size_t i = 0; i < n; i++) {
		ddbc_strbuf_addf(sb, "export function %s(item: Item): boolean {\n    return %s(item) === ",
			    gs[i].func, entity_of);
		cstr(sb, gs[i].e->name.s);
		ddbc_strbuf_addstr(sb, ";\n}\n");
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
			ddbc_strbuf_addf(sb, "number_(%s, %d, \"%s\")", name, width ? (int)width : -1,
				    name);
		else
			ddbc_strbuf_addstr(sb, name);
		return;
	}
	const ddbc_hkey *k = &r->hp->values[i].key;
	ddbc_strbuf_addf(sb, "build_(%s, [", r->shapes[i]);
	args(sb, k->params, k->nparams);
	ddbc_strbuf_addstr(sb, "])");
}

static const keys_json_style style = { "{", "}", "[", "]", "true", "false", "null", true,
				       "fromBase64_(", ")", "{...item__, ...", "}" };

static void request(keys_writer *w, const keys_request *r)
{
	strbuf *sb = &w->sb;
	const ddbc_pattern *p = r->hp->pattern;
	ddbc_strbuf_addstr(sb, "\n// ---- access pattern ");
	ddbc_keys_comment(sb, p->id.s);
	ddbc_strbuf_addf(sb, "\n\nexport const %s = ", r->op_const);
	cstr(sb, r->operation);
	ddbc_strbuf_addstr(sb, ";\n");
	for (size_t i = 0; i < r->hp->nvalues; i++)
		if (r->shapes[i])
			shape(sb, r->shapes[i], &r->hp->values[i].key);
	/* A PutItem's item, whatever its type: the SDK's Record<string,
	 * AttributeValue> stays one. */
	ddbc_strbuf_addf(sb, "export function %s%s(%s", r->func, r->item ? "<T extends Item>" : "",
		    r->item ? "item__: T" : "");
	ddbc_strbuf_addstr(sb, r->item && r->nparams ? ", " : "");
	ddbc_keys_request_params(sb, r, ": ", (const char *const[3]){ "string", "string | number | bigint", "boolean" });
	/* The SDK's own input type; a PutItem's Item the caller's item with
	 * the key over it (the SDK's input when T is the SDK's item). */
	if (r->item)
		ddbc_strbuf_addstr(sb, "): Omit<PutItemCommandInput, \"Item\"> & { Item: T } {\n    return ");
	else
		ddbc_strbuf_addf(sb, "): %sCommandInput {\n    return ", r->operation);
	ddbc_keys_json(sb, r->input, &style, r, value_expr, 1);
	ddbc_strbuf_addstr(sb, ";\n}\n");
}

static void tail(keys_writer *w)
{
	(void)w;
}

static const keys_syntax syntax = { "//", "export const ", ";", " //", "\n", true };

const keys_ops ddbc_keys_ts_ops = { &syntax, head, key, guards, request, tail, enum_type,
				    NULL, "TypeScript" };
