#!/usr/bin/env python3
"""moto_cfn.py - does the exported template deploy exactly the design's tables?

usage: moto_cfn.py TEMPLATE.json CREATE-TABLE.json [TEMPLATE CREATE-TABLE]...

For each pair (one process for all: moto is slow to start), creates a
stack from TEMPLATE on moto's CloudFormation (in process), then
describes every table the CreateTable requests name and compares what
CreateTable sets (same_tables.py) with the requests. Exit 1 names the
first difference; the stack must hold no other table. moto's
CloudFormation creates no AWS::DynamoDB::GlobalTable (a design's table
with replicas): those are left out of the comparison, said on stdout
(cfn-lint checks them).
"""
import json
import os
import re
import sys

import boto3
import botocore.exceptions
from moto import mock_aws

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import same_tables  # noqa: E402


@mock_aws
def check(template, requests):
    with open(template) as f:
        body = f.read()
    with open(requests) as f:
        want = {t["TableName"]: same_tables.from_request(t) for t in json.load(f)}
    try:
        resources = json.loads(body).get("Resources", {})
    except ValueError:
        resources = {}   # a YAML template of tests/import: none is global
    for res in resources.values():
        if res.get("Type") == "AWS::DynamoDB::GlobalTable":
            name = res["Properties"]["TableName"]
            print(f"{template}: global table {name}: not deployed (moto has no GlobalTable)")
            want.pop(name, None)
    try:
        boto3.client("cloudformation").create_stack(StackName="ddbc", TemplateBody=body)
    except botocore.exceptions.ClientError as e:
        print(f"{template}: moto refuses the stack: {e}")
        return 1
    ddb = boto3.client("dynamodb")
    got = {}
    for name in ddb.list_tables()["TableNames"]:
        doc = ddb.describe_table(TableName=name)
        # A table without TableName is named STACK-LogicalId-SUFFIX; ddbc
        # import names it by its logical id.
        m = re.fullmatch(r"ddbc-(.+)-[A-Z0-9]+", name)
        key = m.group(1) if m and m.group(1) in want and name not in want else name
        got[key] = same_tables.from_describe(json.loads(json.dumps(doc, default=str)))[1]
    if got == want:
        return 0
    for name in sorted(set(got) | set(want)):
        if got.get(name) != want.get(name):
            print(f"{template}: table {name}:\n  deployed: {got.get(name)}\n  design:   {want.get(name)}")
    return 1


def main(args):
    status = 0
    for i in range(0, len(args) - 1, 2):
        status |= check(args[i], args[i + 1])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
