#!/usr/bin/env python3
"""tf_check.py - is the Terraform JSON what aws_dynamodb_table takes, for the same tables?

usage: tf_check.py TABLES.tf.json CREATE-TABLE.json

Terraform cannot be installed here, so the shape is checked against the
aws_dynamodb_table documentation by hand: the arguments and blocks it
documents, the ones it requires, capacity only under PROVISIONED, and
attribute blocks for exactly the key attributes (others make Terraform
plan forever). Then each resource is read back as a CreateTable request
and compared with the design's (same_tables.py).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import same_tables  # noqa: E402

TABLE_ARGS = {"name", "billing_mode", "hash_key", "range_key", "read_capacity",
              "write_capacity", "attribute", "global_secondary_index",
              "local_secondary_index", "ttl"}
GSI_ARGS = {"name", "hash_key", "range_key", "key_schema", "projection_type",
            "non_key_attributes", "read_capacity", "write_capacity"}
# The provider release that added global_secondary_index.key_schema.
KEY_SCHEMA_PROVIDER = ">= 6.29.0"
LSI_ARGS = {"name", "range_key", "projection_type", "non_key_attributes"}


def fail(msg):
    raise SystemExit(f"tf_check: {msg}")


def check_block(where, block, allowed, required):
    extra = set(block) - allowed
    if extra:
        fail(f"{where}: arguments aws_dynamodb_table does not document: {sorted(extra)}")
    missing = required - set(block)
    if missing:
        fail(f"{where}: required arguments missing: {sorted(missing)}")
    if block.get("projection_type", "ALL") not in ("ALL", "KEYS_ONLY", "INCLUDE"):
        fail(f"{where}: projection_type {block['projection_type']}")
    if ("non_key_attributes" in block) != (block.get("projection_type") == "INCLUDE"):
        fail(f"{where}: non_key_attributes goes with INCLUDE only")


def schema(block, table_hash=None):
    if "key_schema" in block:
        if "hash_key" in block or "range_key" in block:
            fail(f"{block['name']}: key_schema replaces hash_key and range_key")
        return [{"AttributeName": k["attribute_name"], "KeyType": k["key_type"]}
                for k in block["key_schema"]]
    out = [{"AttributeName": block.get("hash_key", table_hash), "KeyType": "HASH"}]
    if "range_key" in block:
        out.append({"AttributeName": block["range_key"], "KeyType": "RANGE"})
    return out


def projection(block):
    p = {"ProjectionType": block["projection_type"]}
    if "non_key_attributes" in block:
        p["NonKeyAttributes"] = block["non_key_attributes"]
    return p


uses_key_schema = [False]


def as_request(r):
    name = r["name"]
    check_block(name, r, TABLE_ARGS, {"name", "hash_key", "attribute"})
    mode = r.get("billing_mode", "PROVISIONED")
    prov = mode == "PROVISIONED"
    if prov != ("read_capacity" in r and "write_capacity" in r):
        fail(f"{name}: read_capacity and write_capacity go with PROVISIONED only")
    req = {"TableName": name, "BillingMode": mode, "KeySchema": schema(r),
           "AttributeDefinitions": [{"AttributeName": a["name"], "AttributeType": a["type"]}
                                    for a in r["attribute"]]}
    if prov:
        req["ProvisionedThroughput"] = {"ReadCapacityUnits": r["read_capacity"],
                                        "WriteCapacityUnits": r["write_capacity"]}
    keys = {r["hash_key"], r.get("range_key")}
    for g in r.get("global_secondary_index", []):
        check_block(f"{name}.{g.get('name')}", g, GSI_ARGS, {"name", "projection_type"})
        if ("hash_key" in g) == ("key_schema" in g):
            fail(f"{name}.{g['name']}: one of hash_key and key_schema")
        uses_key_schema[0] = uses_key_schema[0] or "key_schema" in g
        x = {"IndexName": g["name"], "KeySchema": schema(g), "Projection": projection(g)}
        if prov:
            x["ProvisionedThroughput"] = {"ReadCapacityUnits": g["read_capacity"],
                                          "WriteCapacityUnits": g["write_capacity"]}
        req.setdefault("GlobalSecondaryIndexes", []).append(x)
        keys |= {k["AttributeName"] for k in x["KeySchema"]}
    for l in r.get("local_secondary_index", []):
        check_block(f"{name}.{l.get('name')}", l, LSI_ARGS, {"name", "range_key", "projection_type"})
        req.setdefault("LocalSecondaryIndexes", []).append(
            {"IndexName": l["name"], "KeySchema": schema(l, r["hash_key"]),
             "Projection": projection(l)})
        keys.add(l["range_key"])
    if {a["name"] for a in r["attribute"]} != keys - {None}:
        fail(f"{name}: attribute blocks must be exactly the key attributes")
    for a in r["attribute"]:
        if a["type"] not in ("S", "N", "B"):
            fail(f"{name}: attribute {a['name']} of type {a['type']}")
    ttl = r.get("ttl")
    if ttl is not None and set(ttl) != {"attribute_name", "enabled"}:
        fail(f"{name}: ttl takes attribute_name and enabled")
    return req


def main(tf, requests):
    with open(tf) as f:
        doc = json.load(f)
    if set(doc) - {"terraform"} != {"resource"} or set(doc["resource"]) != {"aws_dynamodb_table"}:
        fail("expected {\"resource\": {\"aws_dynamodb_table\": ...}} alone")
    got = {}
    for rname, r in doc["resource"]["aws_dynamodb_table"].items():
        if not rname.replace("_", "a").isalnum() or rname[0].isdigit():
            fail(f"resource name {rname!r} is no Terraform identifier")
        req = as_request(r)
        got[req["TableName"]] = same_tables.from_request(req)
    pinned = doc.get("terraform", {}).get("required_providers", {}).get("aws", {})
    if uses_key_schema[0] != (pinned.get("version") == KEY_SCHEMA_PROVIDER):
        fail("key_schema blocks need required_providers aws %s, and only they" % KEY_SCHEMA_PROVIDER)
    with open(requests) as f:
        want = {t["TableName"]: same_tables.from_request(t) for t in json.load(f)}
    if got != want:
        for name in sorted(set(got) | set(want)):
            if got.get(name) != want.get(name):
                print(f"table {name}:\n  terraform: {got.get(name)}\n  design:    {want.get(name)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
