#!/usr/bin/env python3
"""roundtrip.py - does workbench export -> import give the design back?

usage: roundtrip.py ORIGINAL-MODEL.json BACK-MODEL.json ORIGINAL-CT.json BACK-CT.json

The MODEL files are `ddbc export --format model` of the design and of what
`import --from workbench` made of its Workbench export; the CT files their
CreateTable requests. They must give the same tables and indexes
(same_tables.py), the same entities on the same tables with the same
stored attributes and types, the same example items, and the same
table-key templates. Descriptions, formats and patterns are not in a
Workbench model and are not compared.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import same_tables  # noqa: E402


def entities(model):
    keys = {}
    for t in model["tables"]:
        primary = t["indexes"][0]  # the table's own key comes first
        keys[t["name"]] = set(primary["partition_key"]) | set(primary.get("sort_key", []))
    out = {}
    for e in model["entities"]:
        attrs = {a["name"]: a["type"] for a in e["attributes"] if a.get("stored", True)}
        tk = {a["name"]: a.get("template") for a in e["attributes"]
              if a["name"] in keys.get(e["table"], set())}
        out[e["name"]] = {"table": e["table"], "attributes": attrs,
                          "table-key templates": tk, "examples": e.get("examples", [])}
    return out


def main(orig_model, back_model, orig_ct, back_ct):
    docs = []
    for p in (orig_model, back_model, orig_ct, back_ct):
        with open(p) as f:
            docs.append(json.load(f))
    status = 0
    ta = {t["TableName"]: same_tables.from_request(t) for t in docs[2]}
    tb = {t["TableName"]: same_tables.from_request(t) for t in docs[3]}
    if ta != tb:
        print(f"tables differ:\n  design: {ta}\n  back:   {tb}")
        status = 1
    ea, eb = entities(docs[0]), entities(docs[1])
    for name in sorted(set(ea) | set(eb)):
        for k in ("table", "attributes", "table-key templates", "examples"):
            a, b = ea.get(name, {}).get(k), eb.get(name, {}).get(k)
            if a != b:
                print(f"entity {name}: {k} differ:\n  design: {a}\n  back:   {b}")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
