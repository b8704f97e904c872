"""guard_expected.py - which entity `ddbc check-items` assigns each guard vector

usage: python3 guard_expected.py vectors.json CHECK-ITEMS.json > lines

CHECK-ITEMS.json is `ddbc check-items --format json` run on the design's
guards.jsonl (tests/keys/vectors_guards.c): every item there holds one
attribute (the probe) no entity defines, so check-items names the entity it
assigned in an unknown-attribute note on it. Prints, per guard vector in id
order, "G ID HEX" (the entity's name as UTF-8 hex) or "G ID -" (none, or
several, fit), the line every language's driver prints for it.
"""
import json
import sys

PROBE = "ddbcGuardProbe"


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        guards = json.load(f)["guards"]
    with open(sys.argv[2], encoding="utf-8") as f:
        result = json.load(f)
    if result["summary"]["items"] != len({g["line"] for g in guards}):
        print("check-items read %d items, not %d" % (result["summary"]["items"],
                                                     len({g["line"] for g in guards})),
              file=sys.stderr)
        return 1
    assigned = {}
    for finding in result["findings"]:
        if finding["kind"] == "unknown-attribute" and finding["attribute"] == PROBE:
            assigned[finding["item"] - 1] = finding["entity"]
    for g in sorted(guards, key=lambda g: g["id"]):
        name = assigned.get(g["line"])
        print("G %d %s" % (g["id"], name.encode().hex() if name else "-"))
    return 0


sys.exit(main())
