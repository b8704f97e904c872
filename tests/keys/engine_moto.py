"""engine_moto.py - each design's generated Python pattern requests on moto with boto3

usage: python3 engine_moto.py DIR...

Each DIR holds what tests/keys.test made for one design: vectors.json (per
pattern its request function, example arguments and entities),
model.json and tables.json (the model and CreateTable exports) and the
module keys_N.py. moto's server runs in this process on 127.0.0.1 (a free
port) and stops at the end. The tables are created and every example item
put; every request the module returns goes to boto3's client as it is
(client.query(**request), get_item, scan): the items that come back, told
apart by the module's own <prefix>_entity_of, must be exactly the
pattern's entities (for a sample; in other designs some of them, as in
engine.mjs), and the request as returned (ProjectionExpression included)
as many items. Then every write the module returns (PutItem with the
export's item, UpdateItem, DeleteItem) is sent and its key read back: the
guard must name one of the pattern's entities there (none after a
DeleteItem). DIR/py.entities gets what was found, as engine.mjs writes
it. Prints a line per check; exits 1 when one failed.
"""
import base64
import decimal
import glob
import importlib
import json
import logging
import os
import sys

import boto3
from moto.server import ThreadedMotoServer

NO_GUARD = "an item no guard names"


def to_attr(value, type_=None):
    if type_ == "S":
        return {"S": value if isinstance(value, str) else json.dumps(value)}
    if type_ == "N":
        return {"N": str(value)}
    if type_ == "B":
        return {"B": base64.b64decode(str(value))}
    if type_ == "BOOL":
        return {"BOOL": bool(value)}
    if type_ == "NULL":
        return {"NULL": True}
    if type_ == "SS":
        return {"SS": [str(v) for v in value]}
    if type_ == "NS":
        return {"NS": [str(v) for v in value]}
    if value is None:
        return {"NULL": True}
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, (int, float)):
        return {"N": str(value)}
    if isinstance(value, list):
        return {"L": [to_attr(v) for v in value]}
    return {"M": {k: to_attr(v) for k, v in value.items()}}


def whole(request):
    """The request without ProjectionExpression (and the names only it used)."""
    copy = dict(request)
    if "ProjectionExpression" in copy:
        del copy["ProjectionExpression"]
        names = copy.get("ExpressionAttributeNames")
        if names:
            used = copy.get("KeyConditionExpression", "")
            kept = {ref: n for ref, n in names.items() if ref in used}
            if kept:
                copy["ExpressionAttributeNames"] = kept
            else:
                del copy["ExpressionAttributeNames"]
    return copy


def read_all(client, operation, request):
    if operation == "GetItem":
        item = client.get_item(**request).get("Item")
        return [item] if item else []
    call = client.query if operation == "Query" else client.scan
    items, start = [], None
    while True:
        page = dict(request)
        if start:
            page["ExclusiveStartKey"] = start
        out = call(**page)
        items += out.get("Items", [])
        start = out.get("LastEvaluatedKey")
        if not start:
            return items


WRITES = ("PutItem", "UpdateItem", "DeleteItem")
REFUSED = " (its condition refused the write)"


def native(value):
    """A DynamoDB JSON value as boto3 takes it: a Binary as bytes."""
    if "B" in value:
        return {"B": base64.b64decode(value["B"])}
    if "BS" in value:
        return {"BS": [base64.b64decode(b) for b in value["BS"]]}
    if "M" in value:
        return {"M": {k: native(x) for k, x in value["M"].items()}}
    if "L" in value:
        return {"L": [native(x) for x in value["L"]]}
    return value


def arg(a):
    """A request function's argument: a Number as the decimal.Decimal
    boto3's users hold (its text when Decimal would spell it otherwise), a
    condition's BOOL ("true" or "false") as bool, else the text."""
    if a["number"]:
        d = decimal.Decimal(a["value"])
        return d if str(d) == a["value"] else a["value"]
    return a["value"] == "true" if a.get("bool") else a["value"]


def write(client, m, entity_of, r, keys):
    """Sends the write the module returns, then reads its key back: after a
    PutItem or UpdateItem an item the module's guard names as one of the
    pattern's entities, after a DeleteItem none."""
    args = [arg(a) for a in r["args"]]
    if r["operation"] == "PutItem":
        args.insert(0, {k: native(x) for k, x in r["item"].items()})
    request = getattr(m, r["func"])(*args)
    send = {"PutItem": client.put_item, "UpdateItem": client.update_item,
            "DeleteItem": client.delete_item}[r["operation"]]
    sending = dict(request)
    if r["operation"] == "UpdateItem":
        # The UpdateExpression is the caller's (the export leaves it out):
        # one that changes no attribute of the design, as engine.mjs sends.
        sending["UpdateExpression"] = "SET ddbcTouched = :ddbcTouched"
        sending["ExpressionAttributeValues"] = dict(
            request.get("ExpressionAttributeValues", {}), **{":ddbcTouched": {"N": "1"}})
    refused = False
    try:
        send(**sending)
    except client.exceptions.ConditionalCheckFailedException:
        # An example item holds the key the condition wants free: the
        # engine answered, and the item there must still be the pattern's.
        refused = True
    sent = request.get("Item") or request["Key"]
    key = {k: sent[k] for k in keys[request["TableName"]]}
    item = client.get_item(TableName=request["TableName"], Key=key,
                           ConsistentRead=True).get("Item")
    if r["operation"] == "DeleteItem" and not refused:
        return (["the item is still there"] if item else []), ""
    if not item:
        return ["no item at its key"], ""
    entity = getattr(m, entity_of)(item) or NO_GUARD
    problems = [] if entity in r["entities"] else ["%s is not the pattern's" % entity]
    return problems, entity + (REFUSED if refused else "")


def run_design(client, d):
    with open(os.path.join(d, "vectors.json"), encoding="utf-8") as f:
        v = json.load(f)
    with open(os.path.join(d, "model.json"), encoding="utf-8") as f:
        model = json.load(f)
    with open(os.path.join(d, "tables.json"), encoding="utf-8") as f:
        tables = json.load(f)
    sys.path.insert(0, d)
    name = os.path.basename(glob.glob(os.path.join(d, "keys_*.py"))[0])[:-3]
    m = importlib.import_module(name)
    strict = os.path.exists(os.path.join(d, "sample"))
    failed = 0
    found = []
    for t in tables:
        client.create_table(**t)
    try:
        for e in model["entities"]:
            types = {a["name"]: a["type"] for a in e["attributes"]}
            for ex in e["examples"]:
                item = {k: to_attr(x, types.get(k)) for k, x in ex.items()}
                client.put_item(TableName=e["table"], Item=item)
        keys = {t["TableName"]: [k["AttributeName"] for k in t["KeySchema"]] for t in tables}
        for r in v["requests"]:
            if r["operation"] in WRITES:
                continue
            what = f"Python {r['func']} returns {json.dumps(r['entities'])}"
            args = [arg(a) for a in r["args"]]
            request = getattr(m, r["func"])(*args)
            items = read_all(client, r["operation"], whole(request))
            got = {getattr(m, v["entity_of"])(item) or NO_GUARD for item in items}
            want = set(r["entities"])
            problems = []
            if got - want:
                problems.append("returned %s too" % ", ".join(sorted(got - want)))
            found.append("%s\t%s\n" % (r["func"], ",".join(sorted(got))))
            if strict and want - got:
                problems.append("returned no %s" % ", ".join(sorted(want - got)))
            if "ProjectionExpression" in request:
                projected = read_all(client, r["operation"], request)
                if len(projected) != len(items):
                    problems.append(f"{len(projected)} item(s) with ProjectionExpression, "
                                    f"{len(items)} without")
            if problems:
                failed += 1
                print(f"FAIL - {what}: {'; '.join(problems)}")
            else:
                print(f"ok - {what}")
        # Writes after every read, in the design's order.
        for r in v["requests"]:
            if r["operation"] in WRITES:
                problems, entity = write(client, m, v["entity_of"], r, keys)
                found.append("%s\t%s\n" % (r["func"], entity))
                what = f"Python {r['func']} ({r['operation']}) leaves {entity or 'no item'}"
                if problems:
                    failed += 1
                    print(f"FAIL - {what}: {'; '.join(problems)}")
                else:
                    print(f"ok - {what}")
    finally:
        for t in tables:
            client.delete_table(TableName=t["TableName"])
    with open(os.path.join(d, "py.entities"), "w", encoding="utf-8") as f:
        f.write("".join(found))
    return failed


def main(dirs):
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        client = boto3.client("dynamodb", endpoint_url=f"http://{host}:{port}",
                              region_name="us-east-1", aws_access_key_id="ddbc",
                              aws_secret_access_key="ddbc")
        failed = sum(run_design(client, d) for d in dirs)
    finally:
        server.stop()
    return 1 if failed else 0


sys.exit(main(sys.argv[1:]))
