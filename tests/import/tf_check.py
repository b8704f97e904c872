#!/usr/bin/env python3
"""tf_check.py - is the Terraform JSON what aws_dynamodb_table takes, for the same tables?

usage: tf_check.py TABLES.tf.json CREATE-TABLE.json

Terraform cannot be installed here, so the shape is checked against the
aws_dynamodb_table documentation by hand: the arguments and blocks it
documents, the ones it requires, capacity only under PROVISIONED, and
attribute blocks for exactly the key attributes (others make Terraform
plan forever); the table settings' blocks (point_in_time_recovery,
on_demand_throughput, warm_throughput, replica, global_table_witness,
server_side_encryption) and the resources aws_dynamodb_contributor_insights
and aws_dynamodb_resource_policy, with the arguments the AWS provider 6.x
documents. Then each resource is read back as a CreateTable request and
compared with the design's (same_tables.py), its settings too.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import same_tables  # noqa: E402

TABLE_ARGS = {"name", "billing_mode", "hash_key", "range_key", "read_capacity",
              "write_capacity", "attribute", "global_secondary_index",
              "local_secondary_index", "ttl",
              # the table settings (SPEC 8.7), as the provider 6.x documents them
              "deletion_protection_enabled", "stream_enabled", "stream_view_type",
              "server_side_encryption", "point_in_time_recovery", "on_demand_throughput",
              "warm_throughput", "replica", "global_table_witness", "tags"}
GSI_ARGS = {"name", "hash_key", "range_key", "key_schema", "projection_type",
            "non_key_attributes", "read_capacity", "write_capacity",
            "on_demand_throughput", "warm_throughput"}
# Each settings block: its arguments (the documented ones) and the required.
BLOCKS = {
    "on_demand_throughput": ({"max_read_request_units", "max_write_request_units"}, set()),
    "warm_throughput": ({"read_units_per_second", "write_units_per_second"}, set()),
    "point_in_time_recovery": ({"enabled", "recovery_period_in_days"}, {"enabled"}),
    "server_side_encryption": ({"enabled", "kms_key_arn"}, {"enabled"}),
    "global_table_witness": ({"region_name"}, {"region_name"}),
    "replica": ({"region_name", "kms_key_arn", "point_in_time_recovery",
                 "deletion_protection_enabled", "propagate_tags", "consistency_mode"},
                {"region_name"}),
}
# The resources beside the tables, with their documented arguments.
EXTRA_RESOURCES = {
    "aws_dynamodb_contributor_insights": ({"table_name", "index_name", "region"}, {"table_name"}),
    "aws_dynamodb_resource_policy": ({"resource_arn", "policy",
                                      "confirm_remove_self_resource_access"},
                                     {"resource_arn", "policy"}),
}
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
    settings_request(name, r, req)
    return req


def check_settings_block(where, key, block):
    """A settings block: one object (a list of them for replica) of its arguments."""
    allowed, required = BLOCKS[key]
    blocks = block if key == "replica" else [block]
    if not isinstance(block, (list if key == "replica" else dict)):
        fail(f"{where}: {key} must be {'a list of blocks' if key == 'replica' else 'one block'}")
    for b in blocks:
        check_block(f"{where}.{key}", b, allowed, required)
        if key == "replica" and b.get("consistency_mode", "EVENTUAL") not in ("STRONG", "EVENTUAL"):
            fail(f"{where}: consistency_mode {b['consistency_mode']}")
        if key in ("on_demand_throughput", "warm_throughput") and not b:
            fail(f"{where}: an empty {key} block")


def settings_request(name, r, req):
    """The settings blocks checked and read back as CreateTable's fields."""
    for key in BLOCKS:
        if key in r:
            check_settings_block(name, key, r[key])
    for g in r.get("global_secondary_index", []):
        for key in ("on_demand_throughput", "warm_throughput"):
            if key in g:
                check_settings_block(f"{name}.{g['name']}", key, g[key])
    if ("stream_view_type" in r) != bool(r.get("stream_enabled")):
        fail(f"{name}: stream_view_type goes with stream_enabled = true")
    if "global_table_witness" in r and not all(
            b.get("consistency_mode") == "STRONG" for b in r.get("replica", [{}])):
        fail(f"{name}: global_table_witness needs replicas with consistency_mode STRONG")
    if "deletion_protection_enabled" in r:
        req["DeletionProtectionEnabled"] = r["deletion_protection_enabled"]
    if "stream_view_type" in r and "replica" not in r:
        req["StreamSpecification"] = {"StreamEnabled": True,
                                      "StreamViewType": r["stream_view_type"]}
    if "tags" in r:
        req["Tags"] = [{"Key": k, "Value": v} for k, v in r["tags"].items()]
    names = {"max_read_request_units": "MaxReadRequestUnits",
             "max_write_request_units": "MaxWriteRequestUnits",
             "read_units_per_second": "ReadUnitsPerSecond",
             "write_units_per_second": "WriteUnitsPerSecond"}
    def back(b):
        return {names[k]: v for k, v in b.items()}
    if "on_demand_throughput" in r:
        req["OnDemandThroughput"] = back(r["on_demand_throughput"])
    if "warm_throughput" in r:
        req["WarmThroughput"] = back(r["warm_throughput"])
    for g, x in zip(r.get("global_secondary_index", []), req.get("GlobalSecondaryIndexes", [])):
        if "on_demand_throughput" in g:
            x["OnDemandThroughput"] = back(g["on_demand_throughput"])
        if "warm_throughput" in g:
            x["WarmThroughput"] = back(g["warm_throughput"])
    sse = r.get("server_side_encryption")
    if sse and sse["enabled"]:
        req["SSESpecification"] = {"Enabled": True, "SSEType": "KMS"}
        if "kms_key_arn" in sse:
            req["SSESpecification"]["KMSMasterKeyId"] = sse["kms_key_arn"]


SETTINGS = ("DeletionProtectionEnabled", "StreamSpecification", "Tags", "OnDemandThroughput",
            "WarmThroughput", "SSESpecification")


def settings_of(req, design):
    """What CreateTable sets of the settings; a global table's stream is the
    provider's to require (NEW_AND_OLD_IMAGES), so it is compared only
    where the design has no replicas."""
    out = {k: req[k] for k in SETTINGS if k in req}
    gsis = {x["IndexName"]: {k: x[k] for k in ("OnDemandThroughput", "WarmThroughput") if k in x}
            for x in req.get("GlobalSecondaryIndexes", [])}
    out["gsi"] = {k: v for k, v in gsis.items() if v}
    return out


def main(tf, requests):
    with open(tf) as f:
        doc = json.load(f)
    if set(doc) - {"terraform"} != {"resource"} or "aws_dynamodb_table" not in doc["resource"] \
            or set(doc["resource"]) - {"aws_dynamodb_table"} - set(EXTRA_RESOURCES):
        fail("expected {\"resource\": {\"aws_dynamodb_table\": ...}} and its settings' resources")
    tables = doc["resource"]["aws_dynamodb_table"]
    for rtype, (allowed, required) in EXTRA_RESOURCES.items():
        for rname, r in doc["resource"].get(rtype, {}).items():
            check_block(f"{rtype}.{rname}", r, allowed, required)
            ref = r.get("table_name", r.get("resource_arn", ""))
            # A table's own is named as the table's resource; a GSI's
            # (index_name) names its table's resource and one of its GSIs.
            table = ref[len("${aws_dynamodb_table."):].split(".")[0] if \
                ref.startswith("${aws_dynamodb_table.") else None
            if table not in tables or ref not in (f"${{aws_dynamodb_table.{table}.name}}",
                                                  f"${{aws_dynamodb_table.{table}.arn}}") \
                    or (rname != table and "index_name" not in r):
                fail(f"{rtype}.{rname}: does not name its table's resource")
            if "index_name" in r and r["index_name"] not in \
                    [g["name"] for g in tables[table].get("global_secondary_index", [])]:
                fail(f"{rtype}.{rname}: index_name {r['index_name']!r} is no GSI of {table}")
            if "policy" in r:
                json.loads(r["policy"])
    got, got_settings = {}, {}
    for rname, r in tables.items():
        if not rname.replace("_", "a").isalnum() or rname[0].isdigit():
            fail(f"resource name {rname!r} is no Terraform identifier")
        req = as_request(r)
        got[req["TableName"]] = same_tables.from_request(req)
        got_settings[req["TableName"]] = settings_of(req, r)
    pinned = doc.get("terraform", {}).get("required_providers", {}).get("aws", {})
    if uses_key_schema[0] != (pinned.get("version") == KEY_SCHEMA_PROVIDER):
        fail("key_schema blocks need required_providers aws %s, and only they" % KEY_SCHEMA_PROVIDER)
    with open(requests) as f:
        reqs = json.load(f)
    want = {t["TableName"]: same_tables.from_request(t) for t in reqs}
    for t in reqs:
        w = settings_of(t, None)
        r = [x for x in tables.values() if x["name"] == t["TableName"]]
        if r and "replica" in r[0]:
            w.pop("StreamSpecification", None)
        if w != got_settings.get(t["TableName"]):
            print(f"table {t['TableName']} settings:\n  terraform: "
                  f"{got_settings.get(t['TableName'])}\n  design:    {w}")
            return 1
    if got != want:
        for name in sorted(set(got) | set(want)):
            if got.get(name) != want.get(name):
                print(f"table {name}:\n  terraform: {got.get(name)}\n  design:    {want.get(name)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
