#!/usr/bin/env python3
"""migrate_e2e.py - `ddbc migrate` carried out for real on an engine

usage: migrate_e2e.py DDBC ENDPOINT [--count N] [--races OLD.yaml=NEW.yaml]
                      [--dask SCRIPT] [--lacks-transactions OLD.yaml=NEW.yaml]
                      OLD.yaml=NEW.yaml ...

For each pair: OLD's tables are created from `ddbc export --format
create-table OLD` and filled with N items of `ddbc sample OLD`; the plan
from OLD to NEW is carried out step by step, in its order: API steps
through boto3 (waiting for the table and its indexes to be ACTIVE; an
operation the engine lacks, as dynalite lacks UpdateTimeToLive, is
skipped and said), item steps by `ddbc migrate --step N --apply`. Before
the first step and after every step no item is lost (the tables hold as
many items as before), the stored items pass check-items of the design
whose shape they have, and every access pattern valid at that step
(served(), the rule docs/migrate.md states) finds on the tables, with
`ddbc verify --in-place`, exactly the items it should, the item its
values came from among them. At
the end `ddbc check-items NEW` over a Scan of every table is clean, each
table has NEW's key schema and GSIs, every access pattern of NEW is served
after the last step, and a second `ddbc migrate --apply` of the whole plan
writes 0 items.
With --dask SCRIPT (the first pair only): the recipe of docs/scale.md, 4
segments on a Dask LocalCluster of 2 workers, ends as one run does.
With --races (a pair whose plan rewrites GSI1PK = "EMAIL#{email}" in place, as
tests/diff/index-key-template-changed does): a run killed half way and resumed
from its checkpoint writes exactly what was left (no item twice) and ends
in the same state as an uninterrupted run; a writer that updates 100
items while migrate runs loses no update; the `-o` request lines replayed
by boto3 give the same end state as --apply.
With --lacks-transactions (a pair whose plan changes primary keys, on an
engine without TransactWriteItems: dynalite): migrate says so once, exits
2 and writes nothing.
Prints one line per check; exits 1 when one failed.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

import boto3
from botocore.config import Config

failures = []


def note(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(exe, *args, ok=(0,), stdin=None):
    r = subprocess.run([exe, *args], capture_output=True, text=True, input=stdin)
    if r.returncode not in ok:
        raise RuntimeError(f"ddbc {' '.join(args)} exited {r.returncode}: {r.stderr.strip()[-2000:]}")
    return r


def summary(stderr):
    m = re.search(r"(\d+) read, (\d+) (?:written|to write), (\d+) skipped, (\d+) failed", stderr)
    if not m:
        raise RuntimeError("no summary in: " + stderr[-500:])
    return dict(zip(("read", "written", "skipped", "failed"), map(int, m.groups())))


def snake(op):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower()


class Engine:
    def __init__(self, endpoint):
        self.endpoint = endpoint
        self.db = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                               aws_access_key_id="ddbc", aws_secret_access_key="ddbc",
                               config=Config(retries={"max_attempts": 10}))

    def drop_all(self):
        for t in self.db.list_tables()["TableNames"]:
            self.db.delete_table(TableName=t)
            self.db.get_waiter("table_not_exists").wait(TableName=t, WaiterConfig={"Delay": 0.05})

    def active(self, table):
        for _ in range(2000):
            t = self.db.describe_table(TableName=table)["Table"]
            if t["TableStatus"] == "ACTIVE" and all(
                    g.get("IndexStatus") == "ACTIVE" for g in t.get("GlobalSecondaryIndexes", [])):
                return
            time.sleep(0.02)
        raise RuntimeError(f"table {table} never became ACTIVE")

    def scan(self, table):
        items, kw = [], {"TableName": table}
        while True:
            page = self.db.scan(**kw)
            items += page["Items"]
            if "LastEvaluatedKey" not in page:
                return items
            kw["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def tables(self):
        return sorted(self.db.list_tables()["TableNames"])

    def state(self):
        return {t: sorted(json.dumps(i, sort_keys=True) for i in self.scan(t)) for t in self.tables()}


def load(engine, exe, old, count, tmp):
    engine.drop_all()
    for ct in json.loads(run(exe, "export", "--format", "create-table", old).stdout):
        engine.db.create_table(**ct)
        engine.active(ct["TableName"])
    batches = run(exe, "sample", "--format", "batch", "--count", str(count), old).stdout
    for line in batches.splitlines():
        req = json.loads(line)
        while req:
            req = engine.db.batch_write_item(RequestItems=req).get("UnprocessedItems")
    return sum(len(engine.scan(t)) for t in engine.tables())


def migrate(exe, engine, old, new, *args, ok=(0,)):
    r = run(exe, "migrate", "--endpoint", engine.endpoint, old, new, *args, ok=ok)
    return summary(r.stderr), r


def tables_of(step, engine):
    return [step["table"]] if step.get("table") else engine.tables()


ITEM_ACTIONS = {"rewrite-keys", "rewrite-attribute", "convert-type", "backfill", "backfill-ttl",
                "remove-attribute", "rewrite-delimiter"}


def pattern_ids(exe, design):
    model = json.loads(run(exe, "export", "--format", "model", design).stdout)
    return [p["id"] for p in model.get("access_patterns") or []]


def served(plan, k, old_ids, new_ids):
    """What the tables must serve after step k of plan (0: before any):
    {"old": [pattern ids], "new": [...]} and the design whose shape the
    stored items have ("old" or "new").

    The stored items have OLD's shape until every item step is done and
    NEW's from then on (several item steps of one plan build NEW's shape
    together; between them the code still running is OLD's). A pattern
    that a deploy-code step done by then "runs" is served as NEW defines
    it; one that such a step "stops" is served by no code, so not at all;
    one that a deploy-code step still to come "runs" is served as OLD
    defines it, when OLD has it (its index or shape is not there yet);
    any other as the design whose shape the items have defines it."""
    items = "new" if k > 0 and all(st["step"] <= k for st in plan
                         if st.get("action") in ITEM_ACTIONS) else "old"
    done = [st for st in plan if st["step"] <= k and st.get("action") == "deploy-code"]
    later = [st for st in plan if st["step"] > k and st.get("action") == "deploy-code"]
    out = {"old": [], "new": []}
    for pid in dict.fromkeys(old_ids + new_ids):
        runs = [st["step"] for st in done if pid in st.get("runs", [])]
        stops = [st["step"] for st in done if pid in st.get("stops", [])]
        if runs and (not stops or max(runs) > max(stops)):
            side = "new"
        elif stops:
            continue
        elif any(pid in st.get("runs", []) for st in later):
            side = "old"
        else:
            side = items
        if pid in (new_ids if side == "new" else old_ids):
            out[side].append(pid)
    return out, items


def serve_check(exe, engine, old, new, plan, k, total, name, tmp, ids, rescan=True):
    """After step k: no item lost, the items pass check-items of the design
    whose shape they have, and each pattern valid then returns on the
    tables exactly what it should (`ddbc verify --in-place`). A step that
    sends nothing to the engine (deploy-code, wait) changes no item: the
    items read after the step before stand. Returns what was served."""
    path = os.path.join(tmp, "state.jsonl")
    at = f"step {k}" if k else "before step 1"
    patterns, shape = served(plan, k, *ids)
    design = {"old": old, "new": new}
    if rescan:
        n = 0
        with open(path, "w") as f:
            for t in engine.tables():
                for i in engine.scan(t):
                    f.write(json.dumps({"Item": i}) + "\n")
                    n += 1
        note(n == total, f"{name}: {at}: the tables hold {n} of {total} items")
        r = subprocess.run([exe, "check-items", design[shape], path], capture_output=True,
                           text=True)
        m = re.search(r"(\d+) items: (\d+) ok, (\d+) failed, (\d+) unmatched", r.stdout)
        clean = bool(m) and m.group(3) == "0" and m.group(4) == "0"
        note(clean, f"{name}: {at}: the items are {shape.upper()}'s: "
             + (m.group(0) if m else r.stdout[-400:] + r.stderr[-400:]))
    for side in ("old", "new"):
        if not patterns[side]:
            continue
        args = [exe, "verify", "--in-place", "--endpoint", engine.endpoint, "--items", path]
        for pid in patterns[side]:
            args += ["--pattern", pid]
        r = subprocess.run(args + [design[side]], capture_output=True, text=True)
        last = (r.stdout.strip().splitlines() or [""])[-1]
        note(r.returncode == 0 and re.search(r" 0 differ", last),
             f"{name}: {at}: {side.upper()}'s patterns {', '.join(patterns[side])}: {last}"
             + ("" if r.returncode == 0 else "\n" + r.stdout[-1500:] + r.stderr[-400:]))
    return patterns, shape


def carry_out(exe, engine, old, new, total, name, tmp):
    plan = json.loads(run(exe, "diff", "--format", "plan", old, new, ok=(0, 1)).stdout)
    ids = (pattern_ids(exe, old), pattern_ids(exe, new))
    last = serve_check(exe, engine, old, new, plan, 0, total, name, tmp, ids)
    for step in plan:
        n = step["step"]
        if "operation" in step:
            try:
                getattr(engine.db, snake(step["operation"]))(**step["input"])
            except engine.db.exceptions.ClientError as e:
                code = e.response["Error"]["Code"]
                if "UnknownOperation" not in code and "not supported" not in str(e):
                    raise
                print(f"     {name}: step {n} {step['operation']} skipped: the engine lacks it")
            if "TableName" in step["input"]:
                engine.active(step["input"]["TableName"])
        elif step.get("action") in ITEM_ACTIONS:
            for t in tables_of(step, engine):
                s, _ = migrate(exe, engine, old, new, "--step", str(n), "--table", t, "--apply",
                               "-j", "4")
                note(s["failed"] == 0, f"{name}: step {n} ({step['action']}) on {t}: {s}")
        sent = "operation" in step or step.get("action") in ITEM_ACTIONS
        if sent or served(plan, n, *ids) != last:
            last = serve_check(exe, engine, old, new, plan, n, total, name, tmp, ids, sent)
    everything = (last[1] == "new" and not last[0]["old"]
                  and sorted(last[0]["new"]) == sorted(ids[1]))
    note(everything, f"{name}: after the last step the items are NEW's and every pattern of "
         f"NEW is served: {last}")
    return plan


def check_new(exe, engine, new, name, tmp):
    """check-items NEW over the Scan the last step's check read."""
    path = os.path.join(tmp, "state.jsonl")
    r = subprocess.run([exe, "check-items", new, path], capture_output=True, text=True)
    note(r.returncode == 0, f"{name}: check-items NEW over the Scan is clean"
         + ("" if r.returncode == 0 else ": " + r.stdout[-800:]))


def tables_as_new(exe, engine, new, name):
    """Each table's key schema and GSIs are NEW's CreateTable's."""
    def gsis(t):
        return sorted((g["IndexName"], json.dumps(g["KeySchema"]))
                      for g in t.get("GlobalSecondaryIndexes", []))
    for ct in json.loads(run(exe, "export", "--format", "create-table", new).stdout):
        t = engine.db.describe_table(TableName=ct["TableName"])["Table"]
        same = t["KeySchema"] == ct["KeySchema"] and gsis(t) == gsis(ct)
        note(same, f"{name}: table {ct['TableName']} has NEW's keys and GSIs"
             + ("" if same else f": {t['KeySchema']} {gsis(t)} vs {gsis(ct)}"))


def whole_again(exe, engine, old, new, name):
    for t in engine.tables():
        s, _ = migrate(exe, engine, old, new, "--table", t, "--apply")
        note(s["written"] == 0 and s["failed"] == 0, f"{name}: a second run on {t} writes 0: {s}")


def pair(exe, engine, old, new, count, tmp):
    name = os.path.basename(os.path.dirname(old)) + "/" + os.path.basename(new)
    total = load(engine, exe, old, count, tmp)
    carry_out(exe, engine, old, new, total, name, tmp)
    check_new(exe, engine, new, name, tmp)
    tables_as_new(exe, engine, new, name)
    whole_again(exe, engine, old, new, name)


# ---- races: kill and resume, a concurrent writer, replayed request lines ----------------

def lacks_transactions(exe, engine, old, new, tmp):
    """An engine without TransactWriteItems (dynalite) and a primary-key
    change: one clear message, exit 2, nothing written."""
    load(engine, exe, old, 100, tmp)
    before = engine.state()
    r = subprocess.run([exe, "migrate", "--endpoint", engine.endpoint, "--table", "shop",
                        "--apply", "-j", "2", old, new], capture_output=True, text=True)
    said = r.stderr.count("does not support TransactWriteItems, which moving an item to a "
                          "new primary key needs")
    note(r.returncode == 2 and said == 1 and "cannot be migrated" not in r.stderr
         and engine.state() == before,
         f"an engine without TransactWriteItems: exit {r.returncode}, said once, nothing "
         f"written: {r.stderr.strip().splitlines()[0] if r.stderr.strip() else ''}")


def stale(exe, engine, old, new, count, tmp):
    """The check of served() can fail: before the item step, NEW's patterns
    in place miss the items still under OLD's template, and say which."""
    load(engine, exe, old, count, tmp)
    r = subprocess.run([exe, "verify", "--in-place", "--endpoint", engine.endpoint, new],
                       capture_output=True, text=True)
    said = "does not find the item its values came from" in r.stdout
    note(r.returncode == 1 and said, "NEW's patterns in place before the rewrite differ: "
         + ((r.stdout.strip().splitlines() or [""])[-1] if said else r.stdout[-600:] + r.stderr))


def kill_resume(exe, engine, old, new, count, tmp, table):
    load(engine, exe, old, count, tmp)
    todo, _ = migrate(exe, engine, old, new, "--table", table, "--dry-run")
    ck = os.path.join(tmp, "ck.json")
    if os.path.exists(ck):
        os.unlink(ck)
    # Slowed down by --max-units so that it is killed half way.
    p = subprocess.Popen([exe, "migrate", "--endpoint", engine.endpoint, old, new, "--table",
                          table, "--apply", "--checkpoint", ck, "--max-units", "100"],
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        left, _ = migrate(exe, engine, old, new, "--table", table, "--dry-run")
        if left["written"] <= todo["written"] // 2:
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGKILL)
    p.wait()
    left, _ = migrate(exe, engine, old, new, "--table", table, "--dry-run")
    note(0 < left["written"] < todo["written"],
         f"killed after {todo['written'] - left['written']} of {todo['written']} writes")
    ckd = json.load(open(ck))
    s, _ = migrate(exe, engine, old, new, "--table", table, "--apply", "--checkpoint", ck)
    note(s["written"] == left["written"] and s["failed"] == 0,
         f"the resumed run writes exactly the {left['written']} left, none twice: {s}")
    note(s["read"] < todo["read"], f"the resumed run starts at its checkpoint: "
         f"{s['read']} of {todo['read']} items read again ({ckd['parts']})")
    resumed = engine.state()
    load(engine, exe, old, count, tmp)
    migrate(exe, engine, old, new, "--table", table, "--apply")
    note(engine.state() == resumed, "killed and resumed ends as a run never stopped")


def replay(exe, engine, old, new, count, tmp, table):
    load(engine, exe, old, count, tmp)
    lines = os.path.join(tmp, "requests.jsonl")
    migrate(exe, engine, old, new, "--table", table, "-o", lines)
    for line in open(lines):
        r = json.loads(line)
        getattr(engine.db, snake(r["operation"]))(**r["input"])
    replayed = engine.state()
    load(engine, exe, old, count, tmp)
    migrate(exe, engine, old, new, "--table", table, "--apply")
    note(engine.state() == replayed, f"-o lines replayed by boto3 give the --apply state "
         f"({sum(1 for _ in open(lines))} requests)")


def concurrent(exe, engine, old, new, count, tmp, table, attr, template):
    """A writer changes attr (a value migrate reads) of 100 items, as the old
    code writes them, while migrate runs: every change must survive, with
    NEW's attribute rendered from the value written."""
    load(engine, exe, old, count, tmp)
    items = [i for i in engine.scan(table) if attr in i][:100]
    src = attr
    done = threading.Event()

    def writer():
        for k, i in enumerate(items):
            key = {"PK": i["PK"], "SK": i["SK"]}
            v = f"w{k}x@example.com"
            engine.db.update_item(TableName=table, Key=key,
                                  UpdateExpression="SET #a = :v, #g = :g",
                                  ExpressionAttributeNames={"#a": src, "#g": template[0]},
                                  ExpressionAttributeValues={":v": {"S": v},
                                                             ":g": {"S": template[1](v)}})
            time.sleep(0.01)
        done.set()

    th = threading.Thread(target=writer)
    th.start()
    s, r = migrate(exe, engine, old, new, "--table", table, "--apply", "--max-units", "300")
    th.join()
    s2, _ = migrate(exe, engine, old, new, "--table", table, "--apply")
    after = {json.dumps([i["PK"], i["SK"]]): i for i in engine.scan(table)}
    lost = 0
    for k, i in enumerate(items):
        got = after.get(json.dumps([i["PK"], i["SK"]]))
        v = f"w{k}x@example.com"
        if not got or got.get(src, {}).get("S") != v or got[template[0]]["S"] != template[2](v):
            lost += 1
    races = re.search(r"(\d+) writes raced", r.stderr)
    note(lost == 0, f"a writer updating 100 items during the run loses none "
         f"({races.group(1) if races else 0} writes raced and were redone; then {s2})")


def dask(exe, engine, old, new, count, tmp, script):
    """The recipe of docs/scale.md: 4 segments as tasks of a LocalCluster of
    2 workers (Debian's python3-distributed for /usr/bin/python3)."""
    load(engine, exe, old, count, tmp)
    r = subprocess.run(["/usr/bin/python3", os.path.abspath(script), "--workers", "2",
                        "--segments", "4", "--", "--table", "shop", "--apply", "--endpoint",
                        engine.endpoint, os.path.abspath(old), os.path.abspath(new)],
                       capture_output=True, text=True, cwd=tmp,
                       env=dict(os.environ, DDBC=os.path.abspath(exe)))
    spread = engine.state()
    last = (r.stdout.strip().splitlines() or [""])[-1]
    load(engine, exe, old, count, tmp)
    migrate(exe, engine, old, new, "--table", "shop", "--apply")
    note(r.returncode == 0 and engine.state() == spread,
         f"the Dask recipe on 2 workers ends as one run: {last} {r.stderr[-300:]}")


def main(argv):
    exe, endpoint = argv[1], argv[2]
    args = argv[3:]
    count, races, dask_script, no_tx = 1000, None, None, None
    pairs = []
    while args:
        a = args.pop(0)
        if a == "--count":
            count = int(args.pop(0))
        elif a == "--dask":
            dask_script = args.pop(0)
        elif a == "--races":
            races = args.pop(0).split("=", 1)
        elif a == "--lacks-transactions":
            no_tx = args.pop(0).split("=", 1)
        else:
            pairs.append(a.split("=", 1))
    engine = Engine(endpoint)
    with tempfile.TemporaryDirectory() as tmp:
        if dask_script:
            try:
                dask(exe, engine, *pairs[0], count, tmp, dask_script)
            except Exception as e:
                note(False, f"dask: {e}")
            pairs = []
        for old, new in pairs:
            try:
                pair(exe, engine, old, new, count, tmp)
            except Exception as e:  # one pair's trouble is said, the others run
                note(False, f"{old}={new}: {e}")
        if no_tx:
            try:
                lacks_transactions(exe, engine, *no_tx, tmp)
            except Exception as e:
                note(False, f"lacks transactions: {e}")
        if races:
            old, new = races
            try:
                stale(exe, engine, old, new, count, tmp)
                kill_resume(exe, engine, old, new, count, tmp, "shop")
                replay(exe, engine, old, new, count, tmp, "shop")
                concurrent(exe, engine, old, new, count, tmp, "shop", "email",
                           ("GSI1PK", lambda v: "EMAIL#" + v, lambda v: "MAIL#" + v))
            except Exception as e:
                note(False, f"races: {e}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
