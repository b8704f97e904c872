#!/usr/bin/env python3
"""migrate_bench.py - items migrated per second by `ddbc migrate` against dynalite,
next to a plain boto3 Scan + UpdateItem loop on the same items

usage: migrate_bench.py DDBC ENDPOINT [COUNT]

The change is tests/diff/index-key-template-changed (GSI1PK from
"EMAIL#{email}" to "MAIL#{email}"): COUNT sampled items are written, then
migrated by `ddbc migrate --apply` (-j 1 and -j 4), and, on the same items
written again, by the loop a hand-written script would be: Scan, compute
the new key, UpdateItem without any condition (the floor: no check of the
item's entity, no condition, no retry on a race). Prints items/s of each
and the ratio.
"""
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tests", "e2e"))
from migrate_e2e import Engine, load  # noqa: E402

PAIR = os.path.join(here, "..", "tests", "diff", "index-key-template-changed")


def plain_loop(engine):
    n, kw = 0, {"TableName": "shop"}
    while True:
        page = engine.db.scan(**kw)
        for i in page["Items"]:
            if "email" in i and i.get("GSI1PK", {}).get("S", "").startswith("EMAIL#"):
                engine.db.update_item(TableName="shop", Key={"PK": i["PK"], "SK": i["SK"]},
                                      UpdateExpression="SET GSI1PK = :g",
                                      ExpressionAttributeValues={":g": {"S": "MAIL#" + i["email"]["S"]}})
                n += 1
        if "LastEvaluatedKey" not in page:
            return n
        kw["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def main(argv):
    exe, endpoint = argv[1], argv[2]
    count = int(argv[3]) if len(argv) > 3 else 4000
    engine = Engine(endpoint)
    old, new = os.path.join(PAIR, "bad.old.yaml"), os.path.join(PAIR, "bad.new.yaml")
    rows = []
    for jobs in ("1", "4"):
        load(engine, exe, old, count, None)
        t = time.time()
        r = subprocess.run([exe, "migrate", "--endpoint", endpoint, "--table", "shop", "--apply",
                            "-j", jobs, old, new], capture_output=True, text=True)
        dt = time.time() - t
        written = int(r.stderr.split(" written")[0].split()[-1])
        rows.append((f"ddbc migrate -j {jobs}", written, dt))
    load(engine, exe, old, count, None)
    t = time.time()
    n = plain_loop(engine)
    rows.append(("boto3 Scan + UpdateItem", n, time.time() - t))
    floor = rows[-1][1] / rows[-1][2]
    for name, n, dt in rows:
        print(f"{name:26} {n:6} items in {dt:6.2f} s: {n / dt:7.0f} items/s ({n / dt / floor:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
