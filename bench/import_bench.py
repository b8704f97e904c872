#!/usr/bin/env python3
"""import_bench.py - ddbc import's growth on large sources, and its bounds.

For N and 2N entities, times `ddbc import` (CPU time, user + system, of the
child, in --runs interleaved rounds of N then 2N: bench/rounds.py; the
growth is the median of the rounds' own growths, with its spread) on:
- a NoSQL Workbench model of one table whose facets carry template key
  aliases and whose items sit at the table (ddbc's own export: each item
  goes to its facet by the alias its keys spell);
- the same model with label aliases and each facet's items in the facet,
  so every key template is guessed from samples;
- a CloudFormation template of N tables whose names are nested Fn::Sub.
Each must grow at most 2.2x from N to 2N (linear) by that CPU median, and
with valgrind by instructions from M to 2M (--instr-n, 1000) too (a figure
over 2.2x is marked !).
Then a 1 KB template whose Fn::Sub nest would expand to gigabytes must be
refused (the expansion bound) within a second.

usage: import_bench.py [--ddbc PATH] [--n N] [--instr-n M] [--no-valgrind] [--runs K]
                       [--out DIR]
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds  # noqa: E402


def cpu_of(cmd):
    """CPU time (user + system) of one run of cmd; its exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), rc


def instructions(cmd, out):
    """Instructions cmd executes (valgrind cachegrind's I refs), or None without valgrind."""
    log = os.path.join(out, "import-cachegrind.log")
    try:
        subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        f"--cachegrind-out-file={os.path.join(out, 'import-cachegrind.out')}",
                        f"--log-file={log}"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        return None
    if not os.path.exists(log):
        return None
    with open(log) as f:
        m = re.search(r"I\s+refs:\s+([\d,]+)", f.read())
    for name in ("import-cachegrind.log", "import-cachegrind.out"):
        if os.path.exists(os.path.join(out, name)):
            os.unlink(os.path.join(out, name))
    return int(m.group(1).replace(",", "")) if m else None


def best(cmd, runs):
    times, rc = [], 0
    for _ in range(runs):
        t, rc = cpu_of(cmd)
        times.append(t)
    return min(times), rc


def growth_rounds(cmds, runs):
    """Interleaved rounds of cmds[0] (N) and cmds[1] (2N); None when one fails."""
    for cmd in cmds:
        if cpu_of(cmd)[1] != 0:
            return None
    return rounds.interleave(None, lambda: rounds.run(cmds[0]), lambda: rounds.run(cmds[1]),
                             runs)


def workbench(n, guessed):
    facets, items = [], []
    for i in range(n):
        name = f"E{i}"
        data = [{"PK": {"S": f"{name}#{k}{i}"}, "SK": {"S": f"{name}#META#{k}"},
                 "Id": {"S": f"{k}{i}"}, "Note": {"S": "x"}} for k in ("a", "b")]
        f = {"FacetName": name, "NonKeyAttributes": ["Id", "Note"],
             "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"}}
        if guessed:
            f["TableData"] = data
        else:
            f["KeyAttributeAlias"] = {"PartitionKeyAlias": f"{name}#{{Id}}",
                                      "SortKeyAlias": f"{name}#META#{{Note}}"}
            for d in data:
                d["SK"] = {"S": f"{name}#META#x"}
            items += data
        facets.append(f)
    return {"ModelName": "bench", "ModelMetadata": {"Version": "3.0"}, "DataModel": [{
        "TableName": "T",
        "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                          "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
        "NonKeyAttributes": [{"AttributeName": "Id", "AttributeType": "S"},
                             {"AttributeName": "Note", "AttributeType": "S"}],
        "TableFacets": facets, "TableData": items, "BillingMode": "PAY_PER_REQUEST"}]}


def sub_nest(depth, leaf, width):
    v = leaf
    for _ in range(depth):
        v = {"Fn::Sub": ["${a}" * width, {"a": v}]}
    return v


def template(n):
    res = {}
    for i in range(n):
        res[f"T{i}"] = {"Type": "AWS::DynamoDB::Table", "Properties": {
            "TableName": {"Fn::Sub": [f"t{i}-${{x}}", {"x": sub_nest(4, "p", 2)}]},
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}}
    return {"Resources": res}


def write(out, name, doc):
    path = os.path.join(out, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddbc", default="./ddbc")
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default="bench/out")
    # Growth by instructions (which load does not move) on M and 2M, when
    # valgrind is there: it decides; the CPU growth is printed beside it.
    ap.add_argument("--instr-n", type=int, default=1000)
    ap.add_argument("--no-valgrind", dest="valgrind", action="store_false")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    design = os.path.join(a.out, "import.ddb.yaml")
    cases = [
        ("workbench (aliases)", "workbench", lambda k: workbench(k, False)),
        ("workbench (guessed)", "workbench", lambda k: workbench(k, True)),
        ("cloudformation Fn::Sub", "cloudformation", template),
    ]
    if a.valgrind and instructions(["true"], a.out) is None:
        a.valgrind = False
    how = (f"; and instructions on {a.instr_n} and {2 * a.instr_n}; both decide"
           if a.valgrind else "")
    print(f"ddbc import, {a.n} and {2 * a.n} entities (tables for CloudFormation), "
          f"median CPU time of {a.runs} interleaved rounds{how}")
    print(f"{'source':<26}{'N':>9}{'2N':>9}{'N->2N':>12}{'instr.':>9}{'growth':>8}"
          f"{'target':>8}  verdict")
    failed = False
    for name, fmt, gen in cases:
        stem = f"import-{name.split()[0].replace(':', '')}-{'-'.join(name.split()[1:])}"
        stem = re.sub(r"[^a-z0-9-]", "", stem.lower())
        cmds = {}
        for k in (a.n, 2 * a.n) + ((a.instr_n, 2 * a.instr_n) if a.valgrind else ()):
            src = write(a.out, f"{stem}-{k}.json", gen(k))
            cmds[k] = [a.ddbc, "import", "--from", fmt, src, "-o", design]
        r = growth_rounds([cmds[a.n], cmds[2 * a.n]], a.runs)
        if r is None:
            print(f"{name}: ddbc import failed")
            return 1
        growth = rounds.median(r.growths())
        ok = growth <= 2.2
        cells = f"{rounds.figure(r.growths()) + ('!' if growth > 2.2 else ' '):>12}"
        count = [instructions(cmds[k], a.out) for k in (a.instr_n, 2 * a.instr_n)
                 if a.valgrind]
        if count and None not in count and count[0]:
            igrowth = count[1] / count[0]
            ok = ok and igrowth <= 2.2
            cells += (f"{count[0] / 1e9:>8.3f}G{igrowth:>7.2f}x"
                      f"{'!' if igrowth > 2.2 else ' '}")
        else:
            cells += f"{'-':>9}{'-':>8} "
        failed |= not ok
        print(f"{name:<26}{r.cpu():>8.3f}s{rounds.median(r.large):>8.3f}s{cells}{2.2:>7.1f}x"
              f"  {'ok' if ok else 'MISSED'}")
    bomb = write(a.out, "import-sub-bomb.json", {"Resources": {"T": {
        "Type": "AWS::DynamoDB::Table", "Properties": {
            "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": sub_nest(24, "x", 4), "KeyType": "HASH"}]}}}})
    secs, rc = best([a.ddbc, "import", "--from", "cloudformation", bomb, "-o", design], a.runs)
    ok = rc == 2 and secs < 1.0
    failed |= not ok
    print(f"{'Fn::Sub bomb (4^24 bytes)':<26}{secs:>8.3f}s{'':>9}{'':>9}{'':>9}{'':>8}"
          f"{'< 1 s':>8}"
          f"  {'ok (refused)' if ok else 'MISSED (exit %d)' % rc}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
