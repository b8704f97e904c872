#!/usr/bin/env python3
"""mutate.py - wrong types at each field of an import source

usage: mutate.py DDBC FROM SOURCE.json TMPDIR [LIMIT]
For each value of SOURCE (every path, in order, at most LIMIT of them),
writes a copy with that value replaced by one of another JSON type, runs
`ddbc import --from FROM` on it and checks the outcome: exit 0 with a
design written, or exit 2 with a message that names the file and nothing
written. Never a crash, a signal or another exit status. Exit 1 names the
first path that breaks this.
"""
import json
import os
import subprocess
import sys

OTHERS = [None, True, 7, 2.5, "x", [], {}, [1], {"k": 1}]


def paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from paths(x, path + (i,))


def replaced(doc, path, new):
    if not path:
        return new
    doc = json.loads(json.dumps(doc))
    cur = doc
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = new
    return doc


def kind(v):
    return type(v).__name__ if v is not None else "null"


def main():
    ddbc, fmt, src, tmp = sys.argv[1:5]
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else 400
    with open(src) as f:
        doc = json.load(f)
    case = os.path.join(tmp, "mutant.json")
    out = os.path.join(tmp, "mutant.ddb.yaml")
    all_paths = list(paths(doc))
    step = max(1, len(all_paths) // limit)
    runs = 0
    for n, path in enumerate(all_paths[::step]):
        old = doc
        for p in path:
            old = old[p]
        # One replacement of another type per path, chosen by position.
        others = [o for o in OTHERS if kind(o) != kind(old)]
        new = others[n % len(others)]
        with open(case, "w") as f:
            json.dump(replaced(doc, path, new), f)
        if os.path.exists(out):
            os.unlink(out)
        r = subprocess.run([ddbc, "import", "--from", fmt, case, "-o", out],
                           capture_output=True, text=True, timeout=20)
        runs += 1
        where = "/".join(map(str, path)) or "(root)"
        if r.returncode == 0 and os.path.exists(out):
            continue
        if r.returncode == 2 and "mutant.json" in r.stderr and not os.path.exists(out):
            continue
        print(f"{src}: {where} = {json.dumps(new)}: exit {r.returncode}, "
              f"stderr {r.stderr.strip()[:300]!r}, output {'written' if os.path.exists(out) else 'none'}")
        return 1
    print(f"{src}: {runs} mutants, each imported or refused with a message")
    return 0


if __name__ == "__main__":
    sys.exit(main())
