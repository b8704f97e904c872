#!/usr/bin/env python3
"""same_tables.py - does a design's CreateTable export create the source's tables?

usage: same_tables.py FORMAT EXPORT.json SOURCE...
FORMAT is describe-table, workbench or mcp. Both sides are reduced to what
CreateTable sets (key schemas, key attribute types, indexes with their
projections, billing and capacity) and compared; exit 1 names the first
difference. INCLUDE lists are compared without the table's and index's keys,
which every index projects anyway.
"""
import json
import sys


def proj(p, keys):
    t = p.get("ProjectionType", "ALL")
    nk = sorted(set(p.get("NonKeyAttributes", [])) - set(keys)) if t == "INCLUDE" else []
    return (t, tuple(nk))


def ks(schema):
    return tuple((k["AttributeName"], k["KeyType"]) for k in schema)


def table_shape(t, billing, read_write, key_types):
    keys = [k["AttributeName"] for k in t["KeySchema"]]
    def idx(x):
        names = keys + [k["AttributeName"] for k in x["KeySchema"]]
        cap = None
        if billing == "PROVISIONED" and "ProvisionedThroughput" in x:
            pt = x["ProvisionedThroughput"]
            cap = (pt["ReadCapacityUnits"], pt["WriteCapacityUnits"])
        return (ks(x["KeySchema"]), proj(x.get("Projection", {}), names), cap)
    return {
        "keys": ks(t["KeySchema"]),
        "types": key_types,
        "gsi": {x["IndexName"]: idx(x) for x in t.get("GlobalSecondaryIndexes", [])},
        "lsi": {x["IndexName"]: idx(x)[:2] for x in t.get("LocalSecondaryIndexes", [])},
        "billing": billing,
        "capacity": read_write if billing == "PROVISIONED" else None,
    }


def key_types(t):
    used = {k["AttributeName"] for k in t["KeySchema"]}
    for x in t.get("GlobalSecondaryIndexes", []) + t.get("LocalSecondaryIndexes", []):
        used |= {k["AttributeName"] for k in x["KeySchema"]}
    return {d["AttributeName"]: d["AttributeType"] for d in t["AttributeDefinitions"]
            if d["AttributeName"] in used}


def from_request(t):
    billing = t.get("BillingMode", "PROVISIONED")
    pt = t.get("ProvisionedThroughput", {})
    return table_shape(t, billing, (pt.get("ReadCapacityUnits"), pt.get("WriteCapacityUnits")),
                       key_types(t))


def from_describe(doc):
    t = doc.get("Table", doc.get("TableDescription"))
    mode = t.get("BillingModeSummary", {}).get("BillingMode")
    pt = t.get("ProvisionedThroughput", {})
    rw = (pt.get("ReadCapacityUnits", 0), pt.get("WriteCapacityUnits", 0))
    if mode is None:
        mode = "PAY_PER_REQUEST" if rw == (0, 0) else "PROVISIONED"
    return t["TableName"], table_shape(t, mode, rw, key_types(t))


def wb_schema(ka):
    out = [{"AttributeName": ka["PartitionKey"]["AttributeName"], "KeyType": "HASH"}]
    if "SortKey" in ka:
        out.append({"AttributeName": ka["SortKey"]["AttributeName"], "KeyType": "RANGE"})
    return out


def from_workbench(doc):
    for m in doc["DataModel"]:
        defs = [m["KeyAttributes"]["PartitionKey"]] + (
            [m["KeyAttributes"]["SortKey"]] if "SortKey" in m["KeyAttributes"] else [])
        t = {"KeySchema": wb_schema(m["KeyAttributes"]), "GlobalSecondaryIndexes": []}
        for g in m.get("GlobalSecondaryIndexes", []):
            t["GlobalSecondaryIndexes"].append({"IndexName": g["IndexName"],
                                                "KeySchema": wb_schema(g["KeyAttributes"]),
                                                "Projection": g.get("Projection", {})})
            defs += [g["KeyAttributes"][k] for k in ("PartitionKey", "SortKey")
                     if k in g["KeyAttributes"]]
        for x in m.get("LocalSecondaryIndexes", []):
            # An LSI's partition key is the table's.
            ka = dict(x["KeyAttributes"], PartitionKey=m["KeyAttributes"]["PartitionKey"])
            t.setdefault("LocalSecondaryIndexes", []).append(
                {"IndexName": x["IndexName"], "KeySchema": wb_schema(ka),
                 "Projection": x.get("Projection", {})})
            defs.append(x["KeyAttributes"]["SortKey"])
        t["AttributeDefinitions"] = defs
        mode = m.get("BillingMode", "PAY_PER_REQUEST")
        pt = m.get("ProvisionedCapacitySettings", {}).get("ProvisionedThroughput", {})
        # A model states no index capacity: its GSIs are created with the table's.
        for g in t["GlobalSecondaryIndexes"]:
            g["ProvisionedThroughput"] = pt
        yield m["TableName"], table_shape(t, mode, (pt.get("ReadCapacityUnits"),
                                                    pt.get("WriteCapacityUnits")),
                                          key_types(t))


def names(k):
    return [k] if isinstance(k, str) else list(k or [])


def mcp_key_type(tj, key):
    """A key is N when, in some entity, its template is exactly one
    integer or decimal field (or, without a template, it is such a field);
    S otherwise (the importer's documented rule, read here on its own)."""
    cfg = tj["table_config"]
    for e in tj.get("entities", {}).values():
        fields = {f["name"]: f["type"] for f in e.get("fields", [])}
        pairs = list(zip(names(cfg["partition_key"]), names(e.get("pk_template"))))
        pairs += list(zip(names(cfg.get("sort_key")), names(e.get("sk_template"))))
        for m in e.get("gsi_mappings", []):
            g = next((g for g in tj.get("gsi_list", []) if g["name"] == m.get("name")), None)
            if g:
                pairs += list(zip(names(g["partition_key"]), names(m.get("pk_template"))))
                pairs += list(zip(names(g.get("sort_key")), names(m.get("sk_template"))))
        for k, t in pairs:
            inner = t[1:-1] if t.startswith("{") and t.endswith("}") else None
            if k == key and inner and "{" not in inner and "}" not in inner and \
                    fields.get(inner) in ("integer", "decimal"):
                return "N"
        if key in fields and fields[key] in ("integer", "decimal") and \
                not any(k == key for k, _ in pairs):
            return "N"
    return "S"


def from_mcp(doc):
    for tj in doc["tables"]:
        cfg = tj["table_config"]
        ks = [{"AttributeName": cfg["partition_key"], "KeyType": "HASH"}]
        if cfg.get("sort_key"):
            ks.append({"AttributeName": cfg["sort_key"], "KeyType": "RANGE"})
        t = {"KeySchema": ks, "GlobalSecondaryIndexes": []}
        for g in tj.get("gsi_list", []):
            gks = [{"AttributeName": n, "KeyType": "HASH"} for n in names(g["partition_key"])]
            gks += [{"AttributeName": n, "KeyType": "RANGE"} for n in names(g.get("sort_key"))]
            proj = {"ProjectionType": g.get("projection", "ALL")}
            if proj["ProjectionType"] == "INCLUDE":
                proj["NonKeyAttributes"] = g.get("included_attributes", [])
            t["GlobalSecondaryIndexes"].append({"IndexName": g["name"], "KeySchema": gks,
                                                "Projection": proj})
        used = {k["AttributeName"] for x in [t] + t["GlobalSecondaryIndexes"] for k in x["KeySchema"]}
        t["AttributeDefinitions"] = [{"AttributeName": n, "AttributeType": mcp_key_type(tj, n)}
                                     for n in sorted(used)]
        yield cfg["table_name"], table_shape(t, "PAY_PER_REQUEST", (None, None), key_types(t))


def main():
    fmt, export, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(export) as f:
        got = {t["TableName"]: from_request(t) for t in json.load(f)}
    want = {}
    for s in sources:
        with open(s) as f:
            doc = json.load(f)
        if fmt == "describe-table":
            name, shape = from_describe(doc)
            want[name] = shape
        elif fmt == "mcp":
            want.update(from_mcp(doc))
        else:
            want.update(from_workbench(doc))
    if got == want:
        return 0
    for name in sorted(set(got) | set(want)):
        if got.get(name) != want.get(name):
            print(f"table {name}:\n  export: {got.get(name)}\n  source: {want.get(name)}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
