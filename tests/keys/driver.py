"""driver.py - the conformance vectors run with a Python module

usage: python3 driver.py MODULE_DIR MODULE vectors.json VECTORS.out REQUESTS.out

Writes one line per vector, in the order of their ids (tests/keys/vectors.c
says which), and the request of every read pattern for its example
arguments as one JSON object { func: request }.
"""
import importlib
import json
import sys


def main() -> None:
    mod_dir, mod_name, vec_path, out_path, req_path = sys.argv[1:]
    sys.path.insert(0, mod_dir)
    m = importlib.import_module(mod_name)
    with open(vec_path, encoding="utf-8") as f:
        v = json.load(f)
    lines = []

    def arg(value, number):
        return int(value) if number else value

    for k in v["keys"]:
        for b in k["build"]:
            args = [arg(x, k["params"][i]["number"]) for i, x in enumerate(b["values"])]
            try:
                line = "B %d %s" % (b["id"], getattr(m, k["builder"])(*args).encode().hex())
            except m.KeyBuildError:
                line = "B %d refused" % b["id"]
            lines.append((b["id"], line))
        for p in k["parse"]:
            r = getattr(m, k["parser"])(p["key"])
            if r is None:
                parts = " refused"
            else:
                parts = "".join(
                    " n:%d" % getattr(r, q["name"]) if q["number"]
                    else " t:" + getattr(r, q["name"]).encode().hex()
                    for q in k["params"])
            lines.append((p["id"], "P %d%s" % (p["id"], parts)))
    lines.sort()
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for _, line in lines))
    requests = {}
    for r in v["requests"]:
        requests[r["func"]] = getattr(m, r["func"])(
            *[arg(a["value"], a["number"]) for a in r["args"]])
    with open(req_path, "w", encoding="utf-8") as f:
        json.dump(requests, f)


main()
