"""driver.py - the conformance vectors run with a Python module

usage: python3 driver.py MODULE_DIR MODULE vectors.json VECTORS.out REQUESTS.out

Writes one line per vector, in the order of their ids (tests/keys/vectors.c
says which), and the request of every pattern for its example
arguments as one JSON object { func: request }.
"""
import base64
import decimal
import importlib
import json
import re
import sys


def native(x):
    """A DynamoDB JSON value with its Binary values as bytes."""
    if "B" in x:
        return {"B": base64.b64decode(x["B"])}
    if "BS" in x:
        return {"BS": [base64.b64decode(b) for b in x["BS"]]}
    if "L" in x:
        return {"L": [native(y) for y in x["L"]]}
    if "M" in x:
        return {"M": {k: native(y) for k, y in x["M"].items()}}
    return x


def main() -> None:
    mod_dir, mod_name, vec_path, out_path, req_path = sys.argv[1:]
    sys.path.insert(0, mod_dir)
    m = importlib.import_module(mod_name)
    with open(vec_path, encoding="utf-8") as f:
        v = json.load(f)
    lines = []

    def arg(value, number, flag=False):
        # A condition's BOOL value comes as "true" or "false"; a Number as
        # its decimal text, which the module takes as it is.
        return (value == "true") if flag else value

    def build(k, args):
        try:
            return getattr(m, k["builder"])(*args).encode().hex()
        except m.KeyBuildError:
            return "refused"

    def natives(x):
        """A Number's other spellings: an int for a whole one, a Decimal
        where it writes the same text; each must build what its text does."""
        out = []
        if re.fullmatch(r"0|-?[1-9][0-9]*", x):
            out.append(int(x))
        try:
            if str(decimal.Decimal(x)) == x:
                out.append(decimal.Decimal(x))
        except decimal.InvalidOperation:
            pass
        return out

    for k in v["keys"]:
        for b in k["build"]:
            args = [arg(x, k["params"][i]["number"]) for i, x in enumerate(b["values"])]
            key = build(k, args)
            for i, q in enumerate(k["params"]):
                for n in natives(args[i]) if q["number"] else []:
                    got = build(k, args[:i] + [n] + args[i + 1:])
                    if got != key:
                        lines.append((b["id"], "B %d %r builds %s, its text %s"
                                      % (b["id"], n, got, key)))
            lines.append((b["id"], "B %d %s" % (b["id"], key)))
        for p in k["parse"]:
            r = getattr(m, k["parser"])(p["key"])
            if r is None:
                parts = " refused"
            else:
                parts = "".join(
                    " n:" + getattr(r, q["name"]) if q["number"]
                    else " t:" + getattr(r, q["name"]).encode().hex()
                    for q in k["params"])
            lines.append((p["id"], "P %d%s" % (p["id"], parts)))
    for g in v["guards"]:
        item = g["item"]
        if g["bytes"]:
            # Binary values, at any depth, as boto3 returns them: bytes.
            item = {k: native(x) for k, x in item.items()}
        name = getattr(m, v["entity_of"])(item)
        lines.append((g["id"], "G %d %s" % (g["id"], "-" if name is None
                                             else name.encode().hex())))
    lines.sort()
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for _, line in lines))
    requests = {}
    for r in v["requests"]:
        args = [arg(a["value"], a["number"], a.get("bool", False)) for a in r["args"]]
        if "item" in r:
            args.insert(0, r["item"])
        requests[r["func"]] = getattr(m, r["func"])(*args)
    with open(req_path, "w", encoding="utf-8") as f:
        # Bytes (a Binary boto3 takes) as the export writes them: base64.
        json.dump(requests, f,
                  default=lambda b: base64.b64encode(b).decode("ascii"))


main()
