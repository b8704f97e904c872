#!/usr/bin/env python3
"""gen_design_items.py N PER_TABLE --mb SIZE OUT - items of a generated design.

Writes DynamoDB S3 export lines ({"Item": {...}} in DynamoDB JSON, one a
line) of the design `gen_design.py N 1 PER_TABLE` makes: each item is of
an entity drawn at random among the N, with keys its templates produce, so
every item matches exactly one entity. With PER_TABLE = N the design is
one table of N entities (the single-table shape), where an item's entity
must be found among all N. Deterministic: the same arguments give the
same file.
"""
import argparse
import json
import random


def item(i, rnd):
    tag = f"E{i:05d}"
    uid = f"u{rnd.randrange(10**6):06d}"
    seq = rnd.randrange(1000)
    day = f"2026-{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d}"
    state = rnd.choice(["OPEN", "DONE", "HOLD"])
    s = lambda v: {"S": v}
    return {"PK": s(f"{tag}#{uid}"), "SK": s(f"{tag}#SEQ#{seq:06d}"),
            "GSI1PK": s(f"{tag}#STATE#{state}"), "GSI1SK": s(f"{day}#{uid}"),
            "ownerId": s(uid), "seq": {"N": str(seq)}, "phase": s(state), "onDay": s(day),
            "area": s(f"eu-{rnd.randrange(1, 4)}"), "tier": s(f"t{rnd.randrange(1, 4)}"),
            "LSI1SK": s(day + "T10:00:00.000Z"), "payload": {"M": {"k": s(f"v{i}")}}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("per_table", type=int)
    ap.add_argument("--mb", type=float, required=True)
    ap.add_argument("out")
    a = ap.parse_args()
    rnd = random.Random(1)
    limit = int(a.mb * 2**20)
    size = 0
    with open(a.out, "w") as f:
        while size < limit:
            line = json.dumps({"Item": item(rnd.randrange(a.n), rnd)},
                              separators=(",", ":")) + "\n"
            f.write(line)
            size += len(line)


if __name__ == "__main__":
    main()
