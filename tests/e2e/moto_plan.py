#!/usr/bin/env python3
"""moto_plan.py - `ddbc diff --format plan` carried out for real, on moto

usage: moto_plan.py DDBC OLD.yaml=NEW.yaml ...

For each pair: OLD's tables are created from `ddbc export --format
create-table OLD` (TTL enabled where OLD sets it, as a deployment would)
and filled with OLD's example items (an entity without examples gets items
made up from its attributes' types, one per value of its enum, keys
rendered from its templates). Then the plan from OLD to NEW is carried out
step by step, in its order: API steps through boto3, manual steps by the
small executor below, which does what each step's facts say (rewrite items
from the old template to the new, convert a type, backfill, copy the TTL
attribute, wait; the hour DynamoDB imposes between two UpdateTimeToLive
calls on a table is simulated: a second call within it fails as DynamoDB's
would). The application is simulated too: at first it runs OLD's access
patterns; a "deploy-code" step stops running those it names in "stops" and
runs those in "runs" as NEW defines them. After EVERY step the tables must
be valid: each ACTIVE, every item that holds a GSI's key attributes holds
them with the types the GSI was created with (else the index leaves it out
and writes fail), and every access pattern in use has its table and index
(a plan must stop the code using an index before deleting it, and deploy
code that runs a pattern only once its index exists). With
MOTO_PLAN_IGNORE_CODE=1 the deploy-code steps are skipped, which must make
a plan that deletes an index in use fail (the check's own proof). At the end
DescribeTable and DescribeTimeToLive must show NEW's tables (key schema,
GSIs and their projections, LSIs, billing, throughput, TTL), and every item
must be as NEW's templates render it: `ddbc check-items NEW` on a scan of
every table finds nothing, and no item was lost. moto runs in this process
(mock_aws); no network is used.
Prints one line per pair and ends with "N passed, N failed"; exits 1 when a
pair failed, 2 on a usage error.
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal

import boto3
from moto import mock_aws

counts = {"passed": 0, "failed": 0}
TTL_HOUR = 3600


class PlanError(Exception):
    pass


def ddbc(exe, *args, ok=(0, 1)):
    r = subprocess.run([exe, *args], capture_output=True, text=True)
    if r.returncode not in ok or not r.stdout:
        raise RuntimeError(f"ddbc {' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def snake(operation):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation).lower()


# ---- what must agree between NEW's CreateTable and the described table ------------------

def projection(p):
    out = {"ProjectionType": p["ProjectionType"]}
    if p.get("NonKeyAttributes"):
        out["NonKeyAttributes"] = sorted(p["NonKeyAttributes"])
    return out


def indexes(list_, provisioned):
    out = {}
    for ix in list_ or []:
        shape = {"KeySchema": ix["KeySchema"], "Projection": projection(ix["Projection"])}
        if provisioned and "ProvisionedThroughput" in ix:
            t = ix["ProvisionedThroughput"]
            shape["Throughput"] = (t["ReadCapacityUnits"], t["WriteCapacityUnits"])
        out[ix["IndexName"]] = shape
    return out


def key_types(req_or_desc):
    return {d["AttributeName"]: d["AttributeType"] for d in req_or_desc["AttributeDefinitions"]}


def shape(t, ttl):
    billing = t.get("BillingMode") or t.get("BillingModeSummary", {}).get("BillingMode") or "PROVISIONED"
    provisioned = billing == "PROVISIONED"
    types = key_types(t)
    keys = [k["AttributeName"] for ix in [t, *(t.get("GlobalSecondaryIndexes") or []),
                                         *(t.get("LocalSecondaryIndexes") or [])]
            for k in ix["KeySchema"]]
    s = {
        "KeySchema": t["KeySchema"],
        "KeyTypes": {k: types.get(k) for k in sorted(set(keys))},
        "GSIs": indexes(t.get("GlobalSecondaryIndexes"), provisioned),
        "LSIs": indexes(t.get("LocalSecondaryIndexes"), False),
        "BillingMode": billing,
        "TTL": ttl,
    }
    if provisioned and "ProvisionedThroughput" in t:
        p = t["ProvisionedThroughput"]
        s["Throughput"] = (p["ReadCapacityUnits"], p["WriteCapacityUnits"])
    return s


def ttl_of(model, table):
    for t in model["tables"]:
        if t["name"] == table:
            return t.get("ttl")
    return None


def described_ttl(client, table):
    d = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
    return d.get("AttributeName") if d.get("TimeToLiveStatus") in ("ENABLED", "ENABLING") else None


# ---- templates: parse a stored value, render a new one ----------------------------------

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}:]+)(?::0(\d+))?\}")


def template_parts(template):
    """[(literal, None) | (None, (name, width))] of a template."""
    parts, pos = [], 0
    for m in PLACEHOLDER.finditer(template):
        if m.start() > pos:
            parts.append((template[pos:m.start()], None))
        if m.group(0) in ("{{", "}}"):
            parts.append((m.group(0)[0], None))
        else:
            parts.append((None, (m.group(1), int(m.group(2)) if m.group(2) else None)))
        pos = m.end()
    if pos < len(template):
        parts.append((template[pos:], None))
    return parts


def parse(template, value, delimiter):
    """The placeholder values a stored value was rendered from, or None."""
    rx, names = "", []
    for lit, ph in template_parts(template):
        if ph is None:
            rx += re.escape(lit)
        else:
            names.append(ph[0])
            rx += "(-?[0-9.]+)" if ph[1] else f"([^{re.escape(delimiter)}]+?)"
    m = re.fullmatch(rx, value)
    return dict(zip(names, m.groups())) if m else None


def plain(v):
    """A DynamoDB value as text, for a template."""
    (t, x), = v.items()
    return str(x) if t in ("S", "N") else None


def render(template, values):
    """template rendered from values (plain text per name), or None."""
    out = ""
    for lit, ph in template_parts(template):
        if ph is None:
            out += lit
            continue
        v = values.get(ph[0])
        if v is None:
            return None
        if ph[1]:
            v = v.zfill(ph[1])
        out += v
    return out


# ---- the designs, as the executor sees them ----------------------------------------------

class Design:
    def __init__(self, model):
        self.model = model
        self.delimiter = model.get("key_delimiter", "#")
        self.entities = {e["name"]: e for e in model["entities"]}
        self.tables = {t["name"]: t for t in model["tables"]}

    def attrs(self, entity):
        return {a["name"]: a for a in self.entities[entity]["attributes"]}

    def table_key(self, table):
        for ix in self.tables[table]["indexes"]:
            if ix["kind"] == "table":
                return ix["partition_key"] + ix["sort_key"]
        return []

    def matches(self, entity, item):
        """Whether item's table key is what entity's templates render."""
        e = self.entities[entity]
        attrs = self.attrs(entity)
        for k in self.table_key(e["table"]):
            a = attrs.get(k)
            if a is None or k not in item:
                return False
            if a.get("template") and parse(a["template"], plain(item[k]) or "", self.delimiter) is None:
                return False
        return True

    def values(self, entity, item):
        """Every placeholder value of item: its stored attributes, then what
        its templated attributes were rendered from."""
        vals = {k: plain(v) for k, v in item.items() if plain(v) is not None}
        for name, a in self.attrs(entity).items():
            if a.get("template") and name in item:
                got = parse(a["template"], plain(item[name]) or "", self.delimiter)
                for k, v in (got or {}).items():
                    vals.setdefault(k, v)
        return vals


def places(design):
    """id -> (table, index or None) of every access pattern of a design (the
    model names the base table's own index after the table)."""
    out = {}
    for p in design.model.get("access_patterns", []):
        index = p.get("index")
        kinds = {ix["name"]: ix["kind"] for ix in design.tables.get(p["table"], {}).get("indexes", [])}
        out[p["id"]] = (p["table"], None if kinds.get(index, "table") == "table" else index)
    return out


def typed(value, type_):
    """A plain JSON value as DynamoDB JSON of type_."""
    if type_ == "S":
        return {"S": str(value)}
    if type_ == "N":
        return {"N": str(value)}
    if type_ == "BOOL":
        return {"BOOL": bool(value)}
    if type_ == "NULL":
        return {"NULL": True}
    if type_ == "B":
        return {"B": base64.b64decode(value) if isinstance(value, str) else b"\0"}
    if type_ == "SS":
        return {"SS": [str(v) for v in value]}
    if type_ == "NS":
        return {"NS": [str(v) for v in value]}
    if type_ == "BS":
        return {"BS": [base64.b64decode(v) for v in value]}
    if type_ == "L":
        return {"L": [guess(v) for v in value]}
    return {"M": {k: guess(v) for k, v in (value or {}).items()}}


def guess(v):
    if isinstance(v, bool):
        return {"BOOL": v}
    if isinstance(v, (int, float, Decimal)):
        return {"N": str(v)}
    if v is None:
        return {"NULL": True}
    if isinstance(v, list):
        return {"L": [guess(x) for x in v]}
    if isinstance(v, dict):
        return {"M": {k: guess(x) for k, x in v.items()}}
    return {"S": str(v)}


def made_up(a, i):
    """A value of attribute a for the i-th made-up item."""
    if a.get("enum"):
        return a["enum"][i % len(a["enum"])]
    return {"S": f"{a['name']}{i}", "N": 1700000000 + i, "BOOL": True, "NULL": None,
            "B": "AA==", "SS": ["a"], "NS": [1], "BS": ["AA=="], "L": [], "M": {}}.get(
                a["type"], f"{a['name']}{i}")


def complete(design, entity, item):
    """Renders the templated attributes item lacks, and drops what is not stored."""
    attrs = design.attrs(entity)
    for _ in range(len(attrs)):
        for name, a in attrs.items():
            if a.get("template") and name not in item:
                v = render(a["template"], design.values(entity, item))
                if v is not None:
                    item[name] = typed(v, a["type"])
    for name, a in attrs.items():
        if a.get("stored") is False:
            item.pop(name, None)
    return item


def old_items(design):
    """(table, entity, item) for every example item of the design, or made-up ones."""
    out = []
    for name, e in design.entities.items():
        attrs = design.attrs(name)
        examples = e.get("examples") or []
        if not examples:
            # One item per enum value (at least two), every other one with
            # its required attributes only, as stored items often are.
            n = max([len(a.get("enum") or []) for a in attrs.values()] + [2])
            parts = {p for a in attrs.values() for p in a.get("placeholders") or []}
            examples = [{k: made_up(a, i) for k, a in attrs.items() if not a.get("template")
                         and (i % 2 == 0 or a.get("required") or a.get("key")
                              or a.get("enum") or k in parts)}
                        for i in range(n)]
        for ex in examples:
            item = {k: typed(v, attrs[k]["type"]) if k in attrs else guess(v) for k, v in ex.items()}
            out.append((e["table"], name, complete(design, name, item)))
    return out


# ---- the run -------------------------------------------------------------------------------

class Run:
    def __init__(self, client, old, new):
        self.c, self.old, self.new = client, old, new
        self.now = 0
        self.last_ttl = {}
        self.defs = {}          # table -> {gsi: {attr: type}}
        # The patterns the application runs: id -> (table, index or None).
        self.in_use = places(old)
        self.ignore_code = os.environ.get("MOTO_PLAN_IGNORE_CODE") == "1"

    def scan(self, table):
        items, kw = [], {"TableName": table}
        while True:
            r = self.c.scan(**kw)
            items += r["Items"]
            if "LastEvaluatedKey" not in r:
                return items
            kw["ExclusiveStartKey"] = r["LastEvaluatedKey"]

    def tables(self):
        return self.c.list_tables()["TableNames"]

    def key_of(self, table, item):
        ks = self.c.describe_table(TableName=table)["Table"]["KeySchema"]
        return {k["AttributeName"]: item[k["AttributeName"]] for k in ks}

    def entity_of(self, entity_name, item):
        for d in (self.old, self.new):
            if entity_name in d.entities and d.matches(entity_name, item):
                return d
        return None

    def items_of(self, table, entity):
        """The items of table that are entity's by OLD's or NEW's templates."""
        return [i for i in self.scan(table) if self.entity_of(entity, i)]

    # -- API steps
    def api(self, step):
        op, req = step["operation"], step["input"]
        if op == "UpdateTimeToLive":
            t = req["TableName"]
            if t in self.last_ttl and self.now - self.last_ttl[t] < TTL_HOUR:
                raise PlanError(f"UpdateTimeToLive on '{t}' within an hour of the last: "
                                "DynamoDB refuses it (ValidationException)")
            self.last_ttl[t] = self.now
        getattr(self.c, snake(op))(**req)

    # -- manual steps: what the facts say
    def manual(self, step):
        getattr(self, "do_" + step["action"].replace("-", "_"))(step)

    def do_wait(self, step):
        self.now += step["wait_seconds"]

    def do_deploy_code(self, step):
        """The code deployed: it stops running "stops", runs "runs" as NEW does."""
        if self.ignore_code:
            return
        new_places = places(self.new)
        for pid in step.get("stops", []):
            self.in_use.pop(pid, None)
        for pid in step.get("runs", []):
            if pid not in new_places:
                raise PlanError(f"deploy-code runs '{pid}', which NEW has not")
            self.in_use[pid] = new_places[pid]

    def rewrite(self, step, new_value, keys_change=False):
        table, entity, attr = step["table"], step["entity"], step["attribute"]
        for item in self.items_of(table, entity):
            d = self.entity_of(entity, item)
            v = new_value(d, item)
            if v is None:
                continue
            old_key = self.key_of(table, item)
            item = dict(item)
            if v is False:
                item.pop(attr, None)
            else:
                item[attr] = v
            self.c.put_item(TableName=table, Item=item)
            if keys_change and self.key_of(table, item) != old_key:
                self.c.delete_item(TableName=table, Key=old_key)

    def new_template_value(self, step):
        a = self.new.attrs(step["entity"])[step["attribute"]]

        def value(d, item):
            if step["attribute"] in item and step["old_template"]:
                got = parse(step["old_template"], plain(item[step["attribute"]]) or "",
                            self.old.delimiter)
                if got is None:
                    return None   # rewritten already
            vals = dict(got or {}) if step["attribute"] in item and step["old_template"] else {}
            vals.update(self.old.values(step["entity"], item) if step["entity"] in self.old.entities else {})
            vals.update({k: plain(v) for k, v in item.items() if plain(v) is not None})
            if not step["new_template"]:
                return None
            v = render(step["new_template"], vals)
            return typed(v, a["type"]) if v is not None else None
        return value

    def do_rewrite_keys(self, step):
        self.rewrite(step, self.new_template_value(step), keys_change=True)

    def do_rewrite_attribute(self, step):
        self.rewrite(step, self.new_template_value(step))

    def do_convert_type(self, step):
        def value(d, item):
            v = item.get(step["attribute"])
            if v is None or step["old_type"] not in v:
                return None
            return {step["new_type"]: str(v[step["old_type"]])}
        self.rewrite(step, value)

    def do_backfill(self, step):
        a = self.new.attrs(step["entity"])[step["attribute"]]

        def value(d, item):
            if step["attribute"] in item:
                return None
            if "template" in step:
                v = render(step["template"], self.new.values(step["entity"], item))
                return typed(v, a["type"]) if v is not None else None
            if "example" in step:
                return step["example"]
            # No value in the design: a default of its type, as the step asks.
            return typed(made_up(a, 0), step["type"])
        self.rewrite(step, value)

    def do_rewrite_values(self, step):
        a = self.new.attrs(step["entity"])[step["attribute"]]
        allowed = [typed(v, a["type"]) for v in step["values"]]

        def value(d, item):
            v = item.get(step["attribute"])
            return None if v is None or v in allowed else allowed[0]
        self.rewrite(step, value)

    def do_remove_attribute(self, step):
        self.rewrite(step, lambda d, item: False if step["attribute"] in item else None)

    def do_backfill_ttl(self, step):
        table, old, new = step["table"], step["old_attribute"], step["new_attribute"]
        for item in self.scan(table):
            if old in item and new not in item:
                item = dict(item)
                item[new] = item[old]
                if step["remove_old_attribute"]:
                    del item[old]
                self.c.put_item(TableName=table, Item=item)

    def do_delete_items(self, step):
        for item in self.items_of(step["table"], step["entity"]):
            self.c.delete_item(TableName=step["table"], Key=self.key_of(step["table"], item))

    def do_move_items(self, step):
        for item in self.items_of(step["table"], step["entity"]):
            self.c.put_item(TableName=step["new_table"], Item=item)
            self.c.delete_item(TableName=step["table"], Key=self.key_of(step["table"], item))

    def do_delete_table(self, step):
        self.c.delete_table(TableName=step["table"])

    def do_replace_table(self, step):
        table = step["table"]
        items = self.scan(table)
        self.c.delete_table(TableName=table)
        self.c.create_table(**step["create_table"])
        self.defs.pop(table, None)
        if step.get("ttl"):
            self.c.update_time_to_live(TableName=table, TimeToLiveSpecification={
                "Enabled": True, "AttributeName": step["ttl"]})
        for item in items:
            for name in self.new.entities:
                if self.new.entities[name]["table"] == table and self.entity_of(name, item):
                    item = complete(self.new, name, dict(item))
                    break
            self.c.put_item(TableName=table, Item=item)

    def do_rewrite_delimiter(self, step):
        for table in self.tables():
            for item in self.scan(table):
                for name, e in self.old.entities.items():
                    if e["table"] != table or not self.old.matches(name, item) or name not in self.new.entities:
                        continue
                    vals = self.old.values(name, item)
                    new_item = dict(item)
                    for attr, a in self.new.attrs(name).items():
                        if a.get("template"):
                            v = render(a["template"], vals)
                            if v is not None:
                                new_item[attr] = typed(v, a["type"])
                    self.c.delete_item(TableName=table, Key=self.key_of(table, item))
                    self.c.put_item(TableName=table, Item=new_item)
                    break

    # -- after every step
    def check_patterns(self):
        """Every pattern the application runs has its table and index."""
        problems, tables = [], set(self.tables())
        for pid, (table, index) in sorted(self.in_use.items()):
            if table not in tables:
                problems.append(f"access pattern '{pid}' is in use, but table '{table}' is gone")
                continue
            if index is None:
                continue
            t = self.c.describe_table(TableName=table)["Table"]
            names = {ix["IndexName"] for ix in (t.get("GlobalSecondaryIndexes") or [])
                     + (t.get("LocalSecondaryIndexes") or [])}
            if index not in names:
                problems.append(f"access pattern '{pid}' is in use, but index '{index}' of "
                                f"'{table}' does not exist")
        return problems

    def check_valid(self):
        problems = self.check_patterns()
        for table in self.tables():
            t = self.c.describe_table(TableName=table)["Table"]
            if t["TableStatus"] != "ACTIVE":
                problems.append(f"table '{table}' is {t['TableStatus']}")
            types = key_types(t)
            for ix in t.get("GlobalSecondaryIndexes") or []:
                if ix.get("IndexStatus", "ACTIVE") != "ACTIVE":
                    problems.append(f"GSI '{ix['IndexName']}' is {ix['IndexStatus']}")
                keys = [k["AttributeName"] for k in ix["KeySchema"]]
                for item in self.scan(table):
                    if all(k in item for k in keys):
                        for k in keys:
                            if types.get(k) not in item[k]:
                                problems.append(
                                    f"an item of '{table}' holds GSI '{ix['IndexName']}' key "
                                    f"'{k}' as {next(iter(item[k]))}, the index as {types.get(k)}: "
                                    "the index leaves it out and writes of it fail")
        return problems


def run_pair(exe, old, new):
    name = f"{os.path.relpath(old)} -> {os.path.basename(new)}"
    plan = ddbc(exe, "diff", "--format", "plan", old, new)
    old_d = Design(ddbc(exe, "export", "--format", "model", old))
    new_d = Design(ddbc(exe, "export", "--format", "model", new))
    old_tables = ddbc(exe, "export", "--format", "create-table", old)
    new_tables = ddbc(exe, "export", "--format", "create-table", new)
    numbers = [s["step"] for s in plan]
    if numbers != list(range(1, len(plan) + 1)) or any(
            n >= s["step"] for s in plan for n in s["needs"]):
        raise PlanError("the steps are not numbered in order, or one needs a later step")
    problems = []
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        run = Run(client, old_d, new_d)
        for req in old_tables:
            client.create_table(**req)
            ttl = ttl_of(old_d.model, req["TableName"])
            if ttl:
                client.update_time_to_live(TableName=req["TableName"], TimeToLiveSpecification={
                    "Enabled": True, "AttributeName": ttl})
                run.last_ttl[req["TableName"]] = -TTL_HOUR   # deployed long ago
        stored = old_items(old_d)
        for table, _, item in stored:
            client.put_item(TableName=table, Item=item)
        for step in plan:
            what = step.get("operation") or step["action"]
            try:
                if "operation" in step:
                    run.api(step)
                else:
                    run.manual(step)
            except PlanError as e:
                problems.append(f"step {step['step']} ({what}): {e}")
                break
            except client.exceptions.ClientError as e:
                problems.append(f"step {step['step']} ({what}): {e}")
                break
            problems += [f"after step {step['step']} ({what}): {p}" for p in run.check_valid()]
            if problems:
                break
        if not problems:
            problems += final_check(exe, new, run, new_tables, stored)
    if problems:
        counts["failed"] += 1
        print(f"not ok - {name} ({len(plan)} steps):\n  " + "\n  ".join(problems))
    else:
        counts["passed"] += 1
        print(f"ok - {name} ({len(plan)} steps)")


def final_check(exe, new, run, new_tables, stored):
    problems = []
    client = run.c
    for req in new_tables:
        got = client.describe_table(TableName=req["TableName"])["Table"]
        want = shape(req, ttl_of(run.new.model, req["TableName"]))
        have = shape(got, described_ttl(client, req["TableName"]))
        for k in want:
            if want[k] != have.get(k):
                problems.append(f"{req['TableName']} {k}: want {want[k]}, have {have.get(k)}")
    items = [i for t in run.tables() for i in run.scan(t)]
    # A renamed TTL attribute: every item that held the old one holds the new.
    for t in run.new.tables:
        old_ttl, new_ttl = ttl_of(run.old.model, t), ttl_of(run.new.model, t)
        if old_ttl and new_ttl and old_ttl != new_ttl and t in run.old.tables:
            had = sum(1 for table, _, i in stored if table == t and old_ttl in i)
            has = sum(1 for i in run.scan(t) if new_ttl in i)
            if has < had:
                problems.append(f"table '{t}': {had} items held TTL '{old_ttl}', only {has} "
                                f"hold '{new_ttl}': the others never expire")
    kept = [s for s in stored if s[1] in run.new.entities]
    if len(items) < len(kept):
        problems.append(f"{len(kept)} items of NEW's entities were stored, {len(items)} are left")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([{k: {t: (base64.b64encode(x).decode() if isinstance(x, bytes) else x)
                        for t, x in v.items()} for k, v in i.items()} for i in items], f,
                  default=str)
    r = subprocess.run([exe, "check-items", "--format", "json", new, f.name],
                       capture_output=True, text=True)
    os.unlink(f.name)
    result = json.loads(r.stdout) if r.stdout else {}
    summary = result.get("summary", {})
    if r.returncode != 0 or summary.get("failed") or summary.get("unmatched"):
        problems.append("the items are not as NEW renders them: " + "; ".join(
            f"item {g.get('item')}: {g['message']}" for g in result.get("findings", [])
            if g.get("severity") == "error") + (r.stderr.strip() and f" ({r.stderr.strip()})"))
    return problems


def main(argv):
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for pair in argv[1:]:
        old, new = pair.split("=", 1)
        try:
            run_pair(argv[0], old, new)
        except Exception as e:  # one broken pair must not hide the others
            counts["failed"] += 1
            print(f"not ok - {old} -> {new}: {type(e).__name__}: {e}")
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
