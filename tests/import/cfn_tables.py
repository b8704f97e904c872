#!/usr/bin/env python3
"""cfn_tables.py - a template's tables as a stack of their own, read without ddbc

usage: cfn_tables.py TEMPLATE OUT.json [TEMPLATE OUT.json]...

Reads TEMPLATE (JSON or YAML with CloudFormation's short tags; of a
Serverless Framework service, its `resources`) with cfn-lint's decoder, applies SAM's own translator (samtranslator, as
`sam deploy` does) when the template declares Transform:
AWS::Serverless-2016-10-31, and writes a template that holds only the
DynamoDB tables, with the Parameters, Mappings and Conditions they use.
moto_cfn.py deploys it, so moto evaluates every intrinsic function and
Condition, independently of ddbc's evaluator. What CreateTable does not
take and same_tables.py does not compare (tags, encryption keys, streams'
Kinesis targets, resource policies, contributor insights) is dropped, as
it names resources this stack no longer holds.
"""
import json
import os
import sys

from cfnlint.decode import decode
from cfnlint.template.transforms._sam import Transform

TABLES = ("AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable")
DROPPED = ("Tags", "SSESpecification", "KinesisStreamSpecification", "ResourcePolicy",
           "ContributorInsightsSpecification", "StreamSpecification", "ImportSourceSpecification")
SAM = "AWS::Serverless-2016-10-31"


def plain(v):
    """cfn-lint's node types as plain JSON values."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, str):
        return str(v)
    return v


def units(settings, fixed, scaling):
    """Fixed units, or the least an auto scaling setting keeps."""
    settings = settings or {}
    return settings.get(fixed, settings.get(scaling, {}).get("MinCapacity"))


def global_as_table(props, region):
    """A GlobalTable as the table of its replica in the stack's region
    (moto deploys no GlobalTable; a stack is created in one of its replicas'
    regions): the same keys and indexes; a provisioned one reads as that
    replica says and writes as the table says (CloudFormation's
    AWS::DynamoDB::GlobalTable reference), at the least auto scaling keeps."""
    replicas = props.get("Replicas", [])
    replica = next((r for r in replicas if r.get("Region") == region), replicas[0])
    out = {k: v for k, v in props.items()
           if k in ("TableName", "AttributeDefinitions", "KeySchema", "BillingMode",
                    "LocalSecondaryIndexes", "TimeToLiveSpecification")}
    prov = props.get("BillingMode", "PROVISIONED") == "PROVISIONED"
    out["BillingMode"] = "PROVISIONED" if prov else "PAY_PER_REQUEST"
    R, RA, WA = "ReadCapacityUnits", "ReadCapacityAutoScalingSettings", \
        "WriteCapacityAutoScalingSettings"
    if prov:
        out["ProvisionedThroughput"] = {
            R: units(replica.get("ReadProvisionedThroughputSettings"), R, RA),
            "WriteCapacityUnits": units(props.get("WriteProvisionedThroughputSettings"), "", WA)}
    gsis = []
    for g in props.get("GlobalSecondaryIndexes", []):
        x = {k: v for k, v in g.items() if k in ("IndexName", "KeySchema", "Projection")}
        if prov:
            rg = next((i for i in replica.get("GlobalSecondaryIndexes", [])
                       if i.get("IndexName") == g["IndexName"]), {})
            x["ProvisionedThroughput"] = {
                R: units(rg.get("ReadProvisionedThroughputSettings"), R, RA),
                "WriteCapacityUnits": units(g.get("WriteProvisionedThroughputSettings"), "", WA)}
        gsis.append(x)
    if gsis:
        out["GlobalSecondaryIndexes"] = gsis
    return out


def uses_sam(t):
    tr = t.get("Transform", [])
    return SAM in ([tr] if isinstance(tr, str) else tr)


def main(src, out):
    doc, matches = decode(src)
    if doc is None:
        print(f"{src}: {matches}")
        return 1
    if "Resources" not in doc and "service" in doc and "resources" in doc:
        doc = doc["resources"]  # a Serverless Framework service's own template
    if uses_sam(doc):
        tr = Transform(src, doc, os.environ["AWS_DEFAULT_REGION"])
        errs = tr.transform_template()
        if errs:
            print(f"{src}: SAM refuses it: {errs}")
            return 1
        doc = tr.template()
    doc = plain(doc)
    res = {}
    for name, r in doc.get("Resources", {}).items():
        if r.get("Type") not in TABLES:
            continue
        props = {k: v for k, v in r.get("Properties", {}).items() if k not in DROPPED}
        typ = r["Type"]
        if typ == "AWS::DynamoDB::GlobalTable":
            props = global_as_table(props, os.environ["AWS_DEFAULT_REGION"])
            typ = "AWS::DynamoDB::Table"
        kept = {"Type": typ, "Properties": props}
        if "Condition" in r:
            kept["Condition"] = r["Condition"]
        res[name] = kept
    text = json.dumps([res, doc.get("Conditions", {}), doc.get("Mappings", {})])
    params = {k: v for k, v in doc.get("Parameters", {}).items() if k in text}
    stack = {"Resources": res}
    for k, v in (("Parameters", params), ("Conditions", doc.get("Conditions")),
                 ("Mappings", doc.get("Mappings"))):
        if v:
            stack[k] = v
    with open(out, "w") as f:
        json.dump(stack, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    args = sys.argv[1:]
    sys.exit(max([main(args[i], args[i + 1]) for i in range(0, len(args) - 1, 2)] or [0]))
