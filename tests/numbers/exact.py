#!/usr/bin/env python3
"""exact.py - a design's Numbers, read independently of ddbc

usage:
  exact.py digits DESIGN KINDS OUTPUT   every number of KINDS is in OUTPUT, as written
  exact.py items DESIGN plain|dynamodb  the design's example items, as check-items reads them
  exact.py cost DESIGN COST.json        the cost's item sizes and query results, recomputed

The design is read with YAML's base schema, so every scalar stays the text it
was written as (a float would keep 17 of a Number's 38 digits). KINDS picks
where the numbers come from, one letter each: E the example items, A an
attribute's own example, V enum values, P pattern parameter values, L
literals of key conditions. Exit 1 names the first number missing or the first figure
that differs.
"""
import decimal
import json
import re
import sys

import yaml

decimal.getcontext().prec = 200
NUM = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def load(path):
    return yaml.load(open(path, encoding="utf-8"), Loader=yaml.BaseLoader)


def attrs(design, entity):
    return design["entities"][entity].get("attributes", {})


def number_attrs(design, entity):
    return {n for n, a in attrs(design, entity).items() if a.get("type") in ("N", "NS")}


def collect(design, kinds):
    """The number texts of the design, of the kinds asked for."""
    out = []
    for name, ent in design.get("entities", {}).items():
        nums = number_attrs(design, name)
        for a, spec in ent.get("attributes", {}).items():
            if a not in nums:
                continue
            if "A" in kinds and "example" in spec:
                out.append(spec["example"])
            if "V" in kinds:
                out += spec.get("enum", [])
        for item in ent.get("examples", []) if "E" in kinds else []:
            for a, v in item.items():
                if a in nums:
                    out += v if isinstance(v, list) else [v]
    for p in design.get("access_patterns", {}).values():
        if "P" in kinds:
            out += [v for v in p.get("example", {}).values() if NUM.match(v)]
        if "L" in kinds:
            for cond in p.get("key", {}).values():
                if isinstance(cond, dict):
                    for v in cond.values():
                        out += [x for x in (v if isinstance(v, list) else [v]) if NUM.match(x)]
    return [n for n in out if NUM.match(n)]


def token(n):
    return re.compile(r"(?<![\w.+-])" + re.escape(n) + r"(?![\w.])")


def lossy(n):
    """The spellings a double gives n, where they differ from its text."""
    f = float(n)
    forms = {repr(f), "%.17g" % f, "%g" % f}
    return {x for x in forms if decimal.Decimal(x) != decimal.Decimal(n)}


def digits(design, kinds, path):
    text = open(path, encoding="utf-8").read()
    for n in collect(design, kinds):
        if not token(n).search(text):
            print("%s: Number %s is not there digit for digit" % (path, n))
            return 1
    for n in collect(design, "EAVPL"):
        for bad in lossy(n):
            if token(bad).search(text):
                print("%s: Number %s is written as %s, a double's rounding" % (path, n, bad))
                return 1
    return 0


def typed(value, t):
    if t == "N":
        return {"N": value}
    if t == "NS":
        return {"NS": value}
    return {"S": value}


def plain(value, t):
    """JSON text of a plain value: a number bare, with its own digits."""
    if t == "N":
        return value
    if t == "NS":
        return "[" + ", ".join(value) + "]"
    return json.dumps(value)


def items(design, form):
    for name, ent in design["entities"].items():
        types = {a: s.get("type") for a, s in attrs(design, name).items()}
        for item in ent.get("examples", []):
            if form == "dynamodb":
                print(json.dumps({a: typed(v, types[a]) for a, v in item.items()}))
            else:
                print("{" + ", ".join("%s: %s" % (json.dumps(a), plain(v, types[a]))
                                      for a, v in item.items()) + "}")
    return 0


# ---- sizes and query results ----------------------------------------------------------

def number_size(text):
    """DynamoDB's Number: one byte of sign and exponent, then base-100
    digits aligned on the decimal point, one more byte when negative."""
    d = decimal.Decimal(text)
    if d == 0:
        return 1
    sign, ds, exp = d.normalize().as_tuple()
    # Pad to whole base-100 digits on each side of the point.
    low = exp if exp % 2 == 0 else exp - 1
    high = exp + len(ds)
    high = high if high % 2 == 0 else high + 1
    return 1 + (high - low) // 2 + (1 if sign else 0)


def item_size(design, entity, item):
    types = {a: s.get("type") for a, s in attrs(design, entity).items()}
    size = 0
    for a, v in item.items():
        size += len(a.encode())
        t = types.get(a)
        if t == "N":
            size += number_size(v)
        elif t == "NS":
            size += sum(number_size(x) for x in v)
        else:
            size += len(v.encode())
    return size


def holds(cond, value, params):
    """Whether a key value meets its condition (eq, gt, ge, lt, le,
    between, begins_with), Numbers compared by value."""
    def val(x):
        m = re.fullmatch(r"\{(\w+)\}", x)
        return params[m.group(1)] if m else x
    def num(x):
        return decimal.Decimal(x) if NUM.match(x) else x
    if not isinstance(cond, dict):
        return num(val(cond)) == num(value)
    (op, arg), = cond.items()
    if op == "begins_with":
        return value.startswith(val(arg))
    if op == "between":
        return num(val(arg[0])) <= num(value) <= num(val(arg[1]))
    a, v = num(val(arg)), num(value)
    return {"gt": v > a, "ge": v >= a, "lt": v < a, "le": v <= a, "eq": v == a}[op]


def cost(design, path):
    report = json.load(open(path))
    sizes = {}
    for name, ent in design["entities"].items():
        sizes[name] = [item_size(design, name, i) for i in ent.get("examples", [])]
    for e in report["entities"]:
        got, want = e["item_bytes"]["max"], max(sizes[e["entity"]])
        if got != want:
            print("%s: entity %s: item_bytes max %s, its examples' largest is %s bytes"
                  % (path, e["entity"], got, want))
            return 1
    for p in report["patterns"]:
        spec = design["access_patterns"][p["pattern"]]
        if p["operation"] not in ("Query", "GetItem"):
            continue
        found = []
        for name in spec.get("entities", []):
            for item, size in zip(design["entities"][name].get("examples", []), sizes[name]):
                if all(k in item and holds(c, item[k], spec.get("example", {}))
                       for k, c in spec["key"].items()):
                    found.append(size)
        if p["items"] != len(found):
            print("%s: pattern %s reads %s items, its key selects %s"
                  % (path, p["pattern"], p["items"], len(found)))
            return 1
        if spec.get("index") is None and p["bytes"] != sum(found):
            print("%s: pattern %s reads %s bytes, its items hold %s"
                  % (path, p["pattern"], p["bytes"], sum(found)))
            return 1
    return 0


def main():
    cmd, design = sys.argv[1], load(sys.argv[2])
    if cmd == "digits":
        return digits(design, sys.argv[3], sys.argv[4])
    if cmd == "items":
        return items(design, sys.argv[3])
    if cmd == "cost":
        return cost(design, sys.argv[3])
    print("exact.py: unknown command %s" % cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main())
