#!/usr/bin/env python3
"""moto_settings.py - does moto accept the CreateTable requests with the table settings?

usage: moto_settings.py CREATE-TABLE.json [OUTDIR]

Creates every table of the export (`ddbc export --format create-table`) on
moto, in process, with boto3, whose request validation knows each field
(DeletionProtectionEnabled, StreamSpecification, SSESpecification, Tags,
OnDemandThroughput, WarmThroughput, ResourcePolicy; per GSI
OnDemandThroughput and WarmThroughput); then reads each table back and
checks that what moto keeps of them is what the request said: deletion
protection, the stream, the tags and the encryption (moto 5 keeps no
OnDemandThroughput or WarmThroughput: those are checked only as accepted).
With OUTDIR, each table's describe-table output is written there as
TABLE.json, for `ddbc import --from describe-table` to read back.
"""
import json
import os
import sys

import boto3
from moto import mock_aws


def fail(msg):
    raise SystemExit(f"moto_settings: {msg}")


def check(client, req):
    name = req["TableName"]
    t = client.describe_table(TableName=name)["Table"]
    if "DeletionProtectionEnabled" in req and \
            t.get("DeletionProtectionEnabled") != req["DeletionProtectionEnabled"]:
        fail(f"{name}: DeletionProtectionEnabled {t.get('DeletionProtectionEnabled')}")
    want = req.get("StreamSpecification")
    if want and t.get("StreamSpecification", {}).get("StreamViewType") != want["StreamViewType"]:
        fail(f"{name}: StreamSpecification {t.get('StreamSpecification')}")
    if "Tags" in req:
        tags = client.list_tags_of_resource(ResourceArn=t["TableArn"])["Tags"]
        if sorted(map(json.dumps, tags)) != sorted(map(json.dumps, req["Tags"])):
            fail(f"{name}: tags {tags}")
    if "SSESpecification" in req and t.get("SSEDescription", {}).get("SSEType") != "KMS":
        fail(f"{name}: SSEDescription {t.get('SSEDescription')}")
    return t


def main(path, outdir=None):
    with open(path) as f:
        requests = json.load(f)
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "ddbc")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "ddbc")
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        for req in requests:
            client.create_table(**req)
        for req in requests:
            t = check(client, req)
            if outdir:
                with open(os.path.join(outdir, req["TableName"] + ".json"), "w") as f:
                    json.dump({"Table": t}, f, default=str)
    print(f"moto_settings: {len(requests)} tables created with their settings")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
