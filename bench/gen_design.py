#!/usr/bin/env python3
"""gen_design.py N [SEED [PER_TABLE]] [OPTIONS] - a large, clean design of N entities on stdout.
gen_design.py --attrs N [SEED] - a clean design of one entity with N attributes.

Options, each to make one dimension grow for the benchmark's shapes:
  --patterns K   K access patterns per entity (2 by default)
  --examples K   K example items per entity (1 by default)
  --sparse M     only every M-th entity has GSI1's key attributes: a sparse
                 GSI, whose members are a tenth (M = 10) of the table's
  --plain        no multi-attribute GSI and no LSI: what every export
                 (Terraform, NoSQL Workbench) can hold
  --flow         the compact style: see below

With --flow the design is written as teams write it compactly: one flow
mapping per attribute, the example item a flow mapping on one line, tables
of 1,000 entities (PER_TABLE still overrides), each with two GSIs (the second
with a multi-attribute sort key) and an LSI; every entity has templated keys
with a :0WIDTH placeholder, an enum and one example, and every tenth entity
an access pattern. There is less YAML per entity (some 600 bytes), so what a
command pays per entity, attribute and example weighs more against the
libyaml floor than in the block style.

The entities are spread over tables of 100 entities each. Every table has a
primary key (PK, SK), two GSIs (one with a multi-attribute key), an LSI; every
entity has key templates with a literal of its own, a zero-padded number, an
enum, an example item that agrees with its templates, and two access patterns.
The design lints clean, so every command runs its whole pipeline on it.

With --attrs, the one entity is as wide as asked: its attributes cycle
through plain strings, numbers, enums with an example value, and templates
over earlier attributes that declare their index; one example item sets
them all, and its access patterns return attributes from its far end. What
grows is what a command does per attribute: name lookups, placeholder
resolution, inclusion, the example's check. Its item-size finding is a
warning: an item of tens of thousands of attributes is over 400 KB.
"""
import random
import sys

PER_TABLE = 100  # overridden by a third argument


def q(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


OPTS = {"patterns": 2, "examples": 1, "sparse": 1, "plain": False, "flow": False}


def in_gsi1(i):
    """Whether entity i has GSI1's key attributes (--sparse)."""
    return i % OPTS["sparse"] == 0


def entity(out, t, i, rnd):
    name = f"Entity{i:05d}"
    tag = f"E{i:05d}"
    gsi1 = in_gsi1(i)
    out.append(f"  {name}:")
    out.append(f"    table: table-{t:03d}")
    out.append(f"    description: Generated entity {i} of table {t}.")
    out.append(f"    attributes:")
    out.append(f"      PK: {{ type: S, template: \"{tag}#{{ownerId}}\", description: Partition key }}")
    out.append(f"      SK: {{ type: S, template: \"{tag}#SEQ#{{seq:06}}\", description: Sort key }}")
    if gsi1:
        out.append(f"      GSI1PK: {{ type: S, template: \"{tag}#STATE#{{phase}}\", description: By state }}")
        out.append(f"      GSI1SK: {{ type: S, template: \"{{onDay}}#{{ownerId}}\", description: By day }}")
    out.append(f"      ownerId: {{ type: S, description: Owner, format: u + 6 digits }}")
    out.append(f"      seq: {{ type: N, description: Sequence number }}")
    out.append(f"      phase: {{ type: S, enum: [OPEN, DONE, HOLD], description: State }}")
    out.append(f"      onDay: {{ type: S, format: yyyy-mm-dd, description: Day }}")
    out.append(f"      area: {{ type: S, description: Area of the owner }}")
    out.append(f"      tier: {{ type: S, description: Tier of the owner }}")
    out.append(f"      LSI1SK: {{ type: S, format: ISO 8601, description: Created }}")
    out.append(f"      payload: {{ type: M, description: Free-form payload }}")
    out.append(f"    examples:")
    for _ in range(OPTS["examples"]):
        example(out, i, tag, gsi1, rnd)
    return name, tag


def example(out, i, tag, gsi1, rnd):
    uid = f"u{rnd.randrange(10**6):06d}"
    seq = rnd.randrange(1000)
    day = f"2026-{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d}"
    state = rnd.choice(["OPEN", "DONE", "HOLD"])
    out.append(f"      - PK: {q(tag + '#' + uid)}")
    out.append(f"        SK: {q(tag + '#SEQ#' + format(seq, '06d'))}")
    if gsi1:
        out.append(f"        GSI1PK: {q(tag + '#STATE#' + state)}")
        out.append(f"        GSI1SK: {q(day + '#' + uid)}")
    out.append(f"        ownerId: {uid}")
    out.append(f"        seq: {seq}")
    out.append(f"        phase: {state}")
    out.append(f"        onDay: {q(day)}")
    out.append(f"        area: eu-{rnd.randrange(1, 4)}")
    out.append(f"        tier: t{rnd.randrange(1, 4)}")
    out.append(f"        LSI1SK: {q(day + 'T10:00:00.000Z')}")
    out.append(f"        payload: {{ k: v{i} }}")


def patterns(out, t, i, name, tag):
    out.append(f"  {name}-by-owner:")
    out.append(f"    description: Every {name} of an owner, in sequence order.")
    out.append(f"    table: table-{t:03d}")
    out.append(f"    operation: query")
    out.append(f"    key: {{ PK: \"{tag}#{{ownerId}}\", SK: {{ begins_with: \"{tag}#SEQ#\" }} }}")
    out.append(f"    entities: [{name}]")
    for k in range(2, OPTS["patterns"]):
        out.append(f"  {name}-page-{k}:")
        out.append(f"    description: Page {k} of an owner's {name} items.")
        out.append(f"    table: table-{t:03d}")
        out.append(f"    operation: query")
        out.append(f"    key: {{ PK: \"{tag}#{{ownerId}}\", SK: {{ begins_with: \"{tag}#SEQ#{k % 10}\" }} }}")
        out.append(f"    order: desc")
        out.append(f"    returns: [seq, phase]")
        out.append(f"    entities: [{name}]")
    if not in_gsi1(i) or OPTS["patterns"] < 2:
        return
    out.append(f"  {name}-by-state:")
    out.append(f"    description: {name} items in a state, by day.")
    out.append(f"    table: table-{t:03d}")
    out.append(f"    index: GSI1")
    out.append(f"    operation: query")
    out.append(f"    key: {{ GSI1PK: \"{tag}#STATE#{{phase}}\", GSI1SK: {{ between: [\"2026-01-01\", \"2026-12-31~\"] }} }}")
    out.append(f"    returns: [ownerId, onDay]")
    out.append(f"    entities: [{name}]")


def wide_attr(i, rnd):
    """Attribute i of the wide entity: its line and its example value."""
    kind = i % 4
    if kind == 0:
        v = f"v{rnd.randrange(10**6)}"
        return f"      f{i:05d}: {{ type: S, description: Field {i}, format: free text }}", \
            f"f{i:05d}", v
    if kind == 1:
        v = rnd.randrange(10**6)
        return f"      n{i:05d}: {{ type: N, description: Count {i} }}", f"n{i:05d}", v
    if kind == 2:
        v = rnd.choice(["LOW", "MID", "HIGH"])
        return (f"      e{i:05d}: {{ type: S, enum: [LOW, MID, HIGH], example: {v}, "
                f"description: Level {i} }}"), f"e{i:05d}", v
    return (f"      t{i:05d}: {{ type: S, template: \"T{i}#{{f{i - 3:05d}}}#{{n{i - 2:05d}:06}}\", "
            f"description: Label {i}, indexes: {{ GSI1: projected }} }}"), f"t{i:05d}", None


def wide(n, rnd):
    """One entity of n attributes (at least 8) in one table."""
    out = ["ddbc: 1", f"name: bench-attrs-{n}",
           "description: A generated design of one wide entity for the benchmark.",
           # One item holds every attribute (its template attributes are
           # required, and with them their parts), which at 40,000
           # attributes is over DynamoDB's 400 KB: a warning here, so that
           # every command still runs its whole pipeline on the design.
           "lint:", "  rules: { item-size: warning }",
           "tables:", "  wide:", "    description: The wide entity's table.",
           "    partition_key: PK", "    sort_key: SK", "    gsi:", "      GSI1:",
           "        description: By label.", "        partition_key: GSI1PK",
           "        sort_key: GSI1SK", "        projection: all", "    lsi:", "      LSI1:",
           "        description: By day.", "        sort_key: LSI1SK",
           "        projection: keys_only",
           "entities:", "  Wide:", "    table: wide",
           "    description: One entity with many attributes.", "    attributes:"]
    lines, values = [], {}
    for i in range(n - 5):
        line, name, v = wide_attr(i, rnd)
        lines.append(line)
        if v is None:
            v = f"T{i}#{values[f'f{i - 3:05d}']}#{values[f'n{i - 2:05d}']:06d}"
        values[name] = v
    out += [
        '      PK: { type: S, template: "WIDE#{f00000}", description: Partition key }',
        '      SK: { type: S, template: "ROW#{n00001:06}", description: Sort key }',
        '      GSI1PK: { type: S, template: "LABEL#{e00002}", description: By level }',
        '      GSI1SK: { type: S, template: "{t00003}", description: By label }',
        '      LSI1SK: { type: S, format: yyyy-mm-dd, description: Day }',
    ] + lines
    values = {"PK": f"WIDE#{values['f00000']}", "SK": f"ROW#{values['n00001']:06d}",
              "GSI1PK": f"LABEL#{values['e00002']}", "GSI1SK": values["t00003"],
              "LSI1SK": "2026-05-23", **values}
    out.append("    examples:")
    first = True
    for k, v in values.items():
        out.append(f"      {'- ' if first else '  '}{k}: {v if isinstance(v, int) else q(v)}")
        first = False
    names = [k for k in values if not k.startswith(("PK", "SK", "GSI1", "LSI1"))]
    out += ["access_patterns:", "  wide-by-field:", "    description: The row of a field.",
            "    operation: query", '    key: { PK: "WIDE#{field}", SK: { begins_with: "ROW#" } }',
            f"    returns: [{', '.join(names[-10:])}]", "    entities: [Wide]",
            f"    example: {{ field: {q(values['f00000'])} }}",
            "  wide-by-level:", "    description: Rows of a level, by label.",
            "    index: GSI1", "    operation: query",
            '    key: { GSI1PK: "LABEL#{level}", GSI1SK: { between: ["T", "U"] } }',
            f"    returns: [{', '.join(names[-20:-10])}]", "    entities: [Wide]",
            f"    example: {{ level: {values['e00002']} }}",
            "  wide-put:", "    description: Writes a row once.", "    operation: put",
            '    key: { PK: "WIDE#{field}", SK: "ROW#{seq:06}" }',
            "    condition: attribute_not_exists(PK)", "    entities: [Wide]",
            f"    example: {{ field: {q(values['f00000'])}, seq: {values['n00001']} }}"]
    sys.stdout.write("\n".join(out) + "\n")


def flow_table(out, t):
    out.append(f"  t{t:03d}:")
    out.append(f"    partition_key: PK")
    out.append(f"    sort_key: SK")
    out.append(f"    gsi:")
    out.append(f"      ByState: {{ partition_key: GSI1PK, sort_key: GSI1SK, projection: keys_only }}")
    out.append(f"      ByArea: {{ partition_key: area, sort_key: [onDay, LSI1SK], "
               f"projection: [ownerId] }}")
    out.append(f"    lsi:")
    out.append(f"      ByDay: {{ sort_key: LSI1SK, projection: all }}")


def flow_entity(out, t, i, rnd):
    """Entity i of table t in flow style, and its tag."""
    tag = f"F{i:05d}"
    uid = f"u{rnd.randrange(10**6):06d}"
    seq = rnd.randrange(10**5)
    day = f"2026-{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d}"
    state = rnd.choice(["NEW", "SET", "OFF"])
    out.append(f"  Flow{i:05d}:")
    out.append(f"    table: t{t:03d}")
    out.append(f"    attributes:")
    out.append(f"      PK: {{ type: S, template: \"{tag}#{{ownerId}}\" }}")
    out.append(f"      SK: {{ type: S, template: \"R#{{seq:06}}\" }}")
    out.append(f"      GSI1PK: {{ type: S, template: \"{tag}#{{phase}}\" }}")
    out.append(f"      GSI1SK: {{ type: S, template: \"{{onDay}}#{{seq:06}}\" }}")
    out.append(f"      ownerId: {{ type: S }}")
    out.append(f"      seq: {{ type: N }}")
    out.append(f"      phase: {{ type: S, enum: [NEW, SET, OFF] }}")
    out.append(f"      onDay: {{ type: S, format: yyyy-mm-dd }}")
    out.append(f"      area: {{ type: S }}")
    out.append(f"      LSI1SK: {{ type: S }}")
    out.append(f"    examples:")
    out.append(f"      - {{ PK: \"{tag}#{uid}\", SK: \"R#{seq:06d}\", "
               f"GSI1PK: \"{tag}#{state}\", GSI1SK: \"{day}#{seq:06d}\", ownerId: {uid}, "
               f"seq: {seq}, phase: {state}, onDay: \"{day}\", area: a{rnd.randrange(1, 4)}, "
               f"LSI1SK: \"{day}T10\" }}")
    return tag


def flow_pattern(out, t, i, tag):
    out.append(f"  flow{i:05d}-by-owner:")
    out.append(f"    table: t{t:03d}")
    out.append(f"    operation: query")
    out.append(f"    key: {{ PK: \"{tag}#{{ownerId}}\", SK: {{ begins_with: \"R#\" }} }}")
    out.append(f"    entities: [Flow{i:05d}]")


def flow(n, rnd, per):
    out = ["ddbc: 1", f"name: bench-flow-{n}",
           "description: A generated design in compact flow style for the benchmark.",
           "tables:"]
    for t in range((n + per - 1) // per):
        flow_table(out, t)
    out.append("entities:")
    tags = [flow_entity(out, i // per, i, rnd) for i in range(n)]
    out.append("access_patterns:")
    for i in range(0, n, 10):
        flow_pattern(out, i // per, i, tags[i])
    sys.stdout.write("\n".join(out) + "\n")


def main():
    if sys.argv[1] == "--attrs":
        wide(max(int(sys.argv[2]), 8),
             random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1))
        return
    args, i = [], 1
    while i < len(sys.argv):
        a = sys.argv[i]
        if a in ("--plain", "--flow"):
            OPTS[a[2:]] = True
        elif a in ("--patterns", "--examples", "--sparse"):
            OPTS[a[2:]] = max(int(sys.argv[i + 1]), 1)
            i += 1
        else:
            args.append(a)
        i += 1
    n = int(args[0])
    rnd = random.Random(int(args[1]) if len(args) > 1 else 1)
    per = int(args[2]) if len(args) > 2 else PER_TABLE
    if OPTS["flow"]:
        flow(n, rnd, int(args[2]) if len(args) > 2 else 1000)
        return
    ntables = (n + per - 1) // per
    out = ["ddbc: 1", f"name: bench-{n}", "description: A generated design for the benchmark.",
           "tables:"]
    for t in range(ntables):
        out.append(f"  table-{t:03d}:")
        out.append(f"    description: Generated table {t}.")
        out.append(f"    partition_key: PK")
        out.append(f"    sort_key: SK")
        out.append(f"    gsi:")
        out.append(f"      GSI1:")
        out.append(f"        description: By state and day.")
        out.append(f"        partition_key: GSI1PK")
        out.append(f"        sort_key: GSI1SK")
        out.append(f"        projection: [ownerId, onDay]")
        if OPTS["plain"]:
            continue
        out.append(f"      GSI2:")
        out.append(f"        description: Multi-attribute key by region, tier and day.")
        out.append(f"        partition_key: [area, tier]")
        out.append(f"        sort_key: [onDay, LSI1SK]")
        out.append(f"        projection: keys_only")
        out.append(f"    lsi:")
        out.append(f"      LSI1:")
        out.append(f"        description: An owner's items by creation time.")
        out.append(f"        sort_key: LSI1SK")
        out.append(f"        projection: keys_only")
    out.append("entities:")
    names = []
    for i in range(n):
        t = i // per
        names.append((t,) + entity(out, t, i, rnd))
    out.append("access_patterns:")
    for i, (t, name, tag) in enumerate(names):
        patterns(out, t, i, name, tag)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
