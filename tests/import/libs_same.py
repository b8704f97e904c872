#!/usr/bin/env python3
"""libs_same.py - does a library model's import give back the design it came from?

usage: libs_same.py FORMAT ORIGINAL.model.json IMPORTED.model.json
Both are `ddbc export --format model` outputs. Compared: each table's keys and
indexes (GSI and LSI, their key attributes and projection), each entity's
table and attributes (name, type, key template); exit 1 names every
difference. What the library cannot hold is normalized away on the original's
side, the list in NOT_HELD (tests/import-libs.test prints it):
"""
import json
import re
import sys

NOT_HELD = {
    "all": ["access patterns (no library model holds them as data)",
            "descriptions, formats, examples, required and enum details",
            "stored: false (a key part the library types and stores like any attribute)",
            "templates inside templates (the library holds the flattened key)",
            "ddbc-ignore comments (catalog's key-overlap: the imported design is loaded "
            "with --rule key-overlap=off)"],
    "electrodb": ["projections (ElectroDB's indexes project every attribute)",
                  "templates of attributes that are no key (ElectroDB computes them in code)",
                  "types other than S, N, BOOL, SS, NS (ElectroDB's 'any': S)"],
    "dynamodb-toolbox": ["projections (Toolbox's indexes project every attribute)",
                         "M and L (written as any(), read as S)"],
    "onetable": ["a single table's name (a OneTable schema has none: the file names it)",
                 "NS and BS (OneTable's Set: SS)"],
}

PLACE = re.compile(r"\{\{|\}\}|\{([^{}:]+)(:0\d+)?\}")


def flatten(tpl, attrs, depth=0):
    def sub(m):
        if m.group(1) is None or m.group(2) or depth > 16:
            return m.group(0)
        a = attrs.get(m.group(1))
        if a and a.get("template") is not None:
            return flatten(a["template"], attrs, depth + 1)
        return m.group(0)
    return PLACE.sub(sub, tpl)


def shape(model, fmt, side):
    tables = {}
    for t in model["tables"]:
        ix = {}
        for i in t["indexes"]:
            proj = i.get("projection", "all")
            if side == "orig" and fmt in ("electrodb", "dynamodb-toolbox"):
                proj = "all"
            if isinstance(proj, list):
                proj = sorted(proj)
            key = "table" if i["kind"] == "table" else i["name"]
            pk = i.get("partition_key", [])
            ix[key] = (i["kind"], tuple(pk) if i["kind"] != "lsi" else (), tuple(i.get("sort_key", [])),
                       json.dumps(proj))
        tables[t["name"]] = ix
    ents = {}
    for e in model["entities"]:
        attrs = {a["name"]: a for a in e["attributes"]}
        keyish = {a["name"] for a in e["attributes"] if a.get("key")}
        out = {}
        for a in e["attributes"]:
            t = a["type"]
            tpl = a.get("template")
            if side == "orig":
                if tpl is not None:
                    tpl = flatten(tpl, attrs)
                if fmt == "electrodb":
                    if t not in ("S", "N", "BOOL", "SS", "NS"):
                        t = "S"
                    if a["name"] not in keyish:
                        tpl = None
                if fmt == "dynamodb-toolbox" and t in ("M", "L"):
                    t = "S"
                if fmt == "onetable" and t in ("NS", "BS"):
                    t = "SS"
            if tpl is not None:
                t = "S"
            out[a["name"]] = (t, tpl)
        ents[e["name"]] = (e["table"], out)
    return tables, ents


def main():
    fmt, orig, back = sys.argv[1:4]
    with open(orig) as f:
        o = json.load(f)
    with open(back) as f:
        b = json.load(f)
    ot, oe = shape(o, fmt, "orig")
    bt, be = shape(b, fmt, "back")
    diffs = []
    if fmt == "onetable" and len(ot) == 1 and len(bt) == 1:
        bt = {next(iter(ot)): next(iter(bt.values()))}
        be = {k: (next(iter(ot)), v[1]) for k, v in be.items()}
    if ot != bt:
        diffs.append("tables: %s\n   now: %s" % (ot, bt))
    for name in sorted(set(oe) | set(be)):
        if oe.get(name) != be.get(name):
            x, y = oe.get(name), be.get(name)
            if x and y and x[0] == y[0]:
                for an in sorted(set(x[1]) | set(y[1])):
                    if x[1].get(an) != y[1].get(an):
                        diffs.append("entity %s attribute %s: %s, back %s" %
                                     (name, an, x[1].get(an), y[1].get(an)))
            else:
                diffs.append("entity %s: %s, back %s" % (name, x, y))
    for d in diffs:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--not-held"]:
        for k, v in NOT_HELD.items():
            for x in v:
                print("%s: %s" % (k, x))
        sys.exit(0)
    sys.exit(main())
