#!/usr/bin/env python3
"""Generates a large DynamoDB JSON file of samples/stamp-rally.ddb.yaml items.

usage: gen_items.py --shape scan|export|lines|array --mb SIZE [--broken N] OUT

scan    `aws dynamodb scan` output, pretty-printed as the AWS CLI prints it
export  DynamoDB S3 export lines ({"Item": {...}} per line), DynamoDB JSON
lines   plain JSON lines;  array: a plain JSON array, one item per line
Items cycle through User, UserStamp and StampMaster, each well-formed;
every Nth item (--broken, default 1000) has a wrong type, so the check has
findings to write. Deterministic: the same arguments give the same file.
"""
import argparse
import json
import sys


def items():
    n = 0
    while True:
        u = "U%032x" % (n * 2654435761 % (1 << 128))
        ev = "stamp-rally-%06d" % (n % 1000)
        ts = "2026-05-%02dT%02d:%02d:%02d.%03dZ" % (1 + n % 28, n % 24, n % 60, n % 59, n % 1000)
        k = n % 3
        if k == 0:
            it = {"PK": f"EVENT#{ev}#USER#{u}", "SK": "PROFILE", "entityType": "USER",
                  "eventId": ev, "lineUserId": u, "createdAt": ts, "updatedAt": ts,
                  "GSI1PK": f"EVENT#{ev}#USERS", "GSI1SK": f"{ts}#{u}"}
        elif k == 1:
            s = "%03d" % (n % 997)
            it = {"PK": f"EVENT#{ev}#USER#{u}", "SK": f"STAMP#{s}", "entityType": "USER_STAMP",
                  "eventId": ev, "lineUserId": u, "stampId": s, "acquiredAt": ts,
                  "flexMessageSent": True, "flexMessageSentAt": ts}
        else:
            o = n % 997
            s = "%03d" % o
            it = {"PK": f"EVENT#{ev}#STAMP#{s}", "SK": "MASTER", "entityType": "STAMP_MASTER",
                  "eventId": ev, "stampId": s, "name": "スタンプ %d" % o, "order": o,
                  "isActive": n % 2 == 0,
                  "flexMessageContent": {"type": "flex", "altText": "獲得しました",
                                         "contents": {"type": "bubble", "size": "kilo"}},
                  "GSI1PK": f"EVENT#{ev}#STAMP_MASTERS", "GSI1SK": "%03d" % o}
        yield n, it
        n += 1


def typed(v):
    if isinstance(v, bool):
        return {"BOOL": v}
    if v is None:
        return {"NULL": True}
    if isinstance(v, (int, float)):
        return {"N": str(v)}
    if isinstance(v, str):
        return {"S": v}
    if isinstance(v, list):
        return {"L": [typed(x) for x in v]}
    return {"M": {k: typed(x) for k, x in v.items()}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="scan", choices=["scan", "export", "lines", "array"])
    ap.add_argument("--mb", type=float, default=200)
    ap.add_argument("--broken", type=int, default=1000)
    ap.add_argument("out")
    a = ap.parse_args()
    limit = int(a.mb * 1024 * 1024)
    f = open(a.out, "w", encoding="utf-8") if a.out != "-" else sys.stdout
    size = 0
    count = 0
    head = {"scan": '{\n    "Items": [\n', "array": "[\n"}.get(a.shape, "")
    f.write(head)
    size += len(head)
    for n, it in items():
        if a.broken and n % a.broken == a.broken - 1:
            it["eventId"] = 42          # wrong type: N, expected S
        if a.shape == "scan":
            text = json.dumps({k: typed(v) for k, v in it.items()}, ensure_ascii=False, indent=4)
            text = "\n".join("        " + l for l in text.split("\n"))
        elif a.shape == "export":
            text = json.dumps({"Item": {k: typed(v) for k, v in it.items()}}, ensure_ascii=False,
                              separators=(",", ":"))
        else:
            text = json.dumps(it, ensure_ascii=False)
        sep = "" if count == 0 else (",\n" if a.shape in ("scan", "array") else "")
        chunk = sep + text + ("" if a.shape in ("scan", "array") else "\n")
        f.write(chunk)
        size += len(chunk.encode("utf-8"))
        count += 1
        if size >= limit:
            break
    if a.shape == "scan":
        f.write('\n    ],\n    "Count": %d,\n    "ScannedCount": %d,\n'
                '    "ConsumedCapacity": null\n}\n' % (count, count))
    elif a.shape == "array":
        f.write("\n]\n")
    f.close()
    print(f"{a.out}: {count} items", file=sys.stderr)


if __name__ == "__main__":
    main()
