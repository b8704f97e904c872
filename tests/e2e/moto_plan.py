#!/usr/bin/env python3
"""moto_plan.py - `ddbc diff --format plan` applied for real, on moto

usage: moto_plan.py DDBC OLD.yaml=NEW.yaml ...

For each pair: OLD's tables are created from `ddbc export --format
create-table OLD` (and TTL enabled where OLD sets it, as a deployment would),
the API steps of the plan from OLD to NEW are sent in order, and then
DescribeTable and DescribeTimeToLive must show NEW's tables: key schema,
GSIs with their projections, LSIs, billing mode and throughput, TTL. A pair
whose plan has a manual step is skipped: its API steps alone do not reach
NEW. moto runs in this process (mock_aws); no network is used.
Prints one line per pair and ends with "N passed, N failed, N skipped";
exits 1 when a pair failed, 2 on a usage error.
"""
import json
import os
import re
import subprocess
import sys

import boto3
from moto import mock_aws

counts = {"passed": 0, "failed": 0, "skipped": 0}


def ddbc(exe, *args):
    r = subprocess.run([exe, *args], capture_output=True, text=True)
    if r.returncode not in (0, 1) or not r.stdout:
        raise RuntimeError(f"ddbc {' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def snake(operation):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation).lower()


def projection(p):
    out = {"ProjectionType": p["ProjectionType"]}
    if p.get("NonKeyAttributes"):
        out["NonKeyAttributes"] = sorted(p["NonKeyAttributes"])
    return out


def indexes(list_, provisioned):
    out = {}
    for ix in list_ or []:
        shape = {"KeySchema": ix["KeySchema"], "Projection": projection(ix["Projection"])}
        if provisioned and "ProvisionedThroughput" in ix:
            t = ix["ProvisionedThroughput"]
            shape["Throughput"] = (t["ReadCapacityUnits"], t["WriteCapacityUnits"])
        out[ix["IndexName"]] = shape
    return out


def key_types(req_or_desc):
    return {d["AttributeName"]: d["AttributeType"] for d in req_or_desc["AttributeDefinitions"]}


def shape(t, ttl):
    """What must agree between NEW's CreateTable and the described table."""
    billing = t.get("BillingMode") or t.get("BillingModeSummary", {}).get("BillingMode") or "PROVISIONED"
    provisioned = billing == "PROVISIONED"
    types = key_types(t)
    keys = [k["AttributeName"] for ix in [t, *(t.get("GlobalSecondaryIndexes") or []),
                                         *(t.get("LocalSecondaryIndexes") or [])]
            for k in ix["KeySchema"]]
    s = {
        "KeySchema": t["KeySchema"],
        "KeyTypes": {k: types.get(k) for k in sorted(set(keys))},
        "GSIs": indexes(t.get("GlobalSecondaryIndexes"), provisioned),
        "LSIs": indexes(t.get("LocalSecondaryIndexes"), False),
        "BillingMode": billing,
        "TTL": ttl,
    }
    if provisioned and "ProvisionedThroughput" in t:
        p = t["ProvisionedThroughput"]
        s["Throughput"] = (p["ReadCapacityUnits"], p["WriteCapacityUnits"])
    return s


def ttl_of(model, table):
    for t in model["tables"]:
        if t["name"] == table:
            return t.get("ttl")
    return None


def described_ttl(client, table):
    d = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
    return d.get("AttributeName") if d.get("TimeToLiveStatus") in ("ENABLED", "ENABLING") else None


def run_pair(exe, old, new):
    name = f"{os.path.relpath(old)} -> {os.path.basename(new)}"
    plan = ddbc(exe, "diff", "--format", "plan", old, new)
    if any("manual" in step for step in plan):
        counts["skipped"] += 1
        print(f"skip - {name}: the plan has manual steps")
        return
    old_tables = ddbc(exe, "export", "--format", "create-table", old)
    old_model = ddbc(exe, "export", "--format", "model", old)
    new_tables = ddbc(exe, "export", "--format", "create-table", new)
    new_model = ddbc(exe, "export", "--format", "model", new)
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        for req in old_tables:
            client.create_table(**req)
            ttl = ttl_of(old_model, req["TableName"])
            if ttl:
                client.update_time_to_live(TableName=req["TableName"], TimeToLiveSpecification={
                    "Enabled": True, "AttributeName": ttl})
        for step in plan:
            getattr(client, snake(step["operation"]))(**step["input"])
        problems = []
        for req in new_tables:
            got = client.describe_table(TableName=req["TableName"])["Table"]
            want = shape(req, ttl_of(new_model, req["TableName"]))
            have = shape(got, described_ttl(client, req["TableName"]))
            for k in want:
                if want[k] != have.get(k):
                    problems.append(f"{req['TableName']} {k}: want {want[k]}, have {have.get(k)}")
    if problems:
        counts["failed"] += 1
        print(f"not ok - {name} ({len(plan)} steps):\n  " + "\n  ".join(problems))
    else:
        counts["passed"] += 1
        print(f"ok - {name} ({len(plan)} steps)")


def main(argv):
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for pair in argv[1:]:
        old, new = pair.split("=", 1)
        try:
            run_pair(argv[0], old, new)
        except Exception as e:  # one broken pair must not hide the others
            counts["failed"] += 1
            print(f"not ok - {old} -> {new}: {type(e).__name__}: {e}")
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
