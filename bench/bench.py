#!/usr/bin/env python3
"""bench.py - every ddbc command's speed and memory against its floor.

Each row of the report is one command on one kind of input, measured two
ways against the floor (the least any reader of that input must do):
- CPU time (user + system of the child) on inputs of N and 2N entities, in
  --runs interleaved rounds (bench/rounds.py): each round runs the floor on
  N, the command on N and the command on 2N back to back, so a load that
  comes and goes weighs on all three alike; the ratio to the floor and the
  growth are the medians of the rounds' own ratios, printed with their
  spread (+- half their 90% confidence interval). A row whose bar lies
  inside that interval gets more rounds, up to --most-runs (9 by default;
  its verdict says when the rounds did not decide). bench/stability.py
  measured how many rounds make the figures stable: see RUNS;
- instructions executed (valgrind cachegrind, which load does not move) on
  inputs of M and 2M entities (--instr-n; smaller than N, as valgrind is
  some 16 times slower), counted --jobs at a time before a part's CPU
  rounds start (a count does not move with load; a CPU time would).
and peak resident memory (GNU time's %M, the largest of the rounds) at both
CPU sizes, against the budget of 4 x the input file + 16 MiB.

A row meets its bars when the CPU medians (SPEC section 5 speaks of time),
and where counted the instruction figures too, are within them and its peak
memory is within budget at both sizes; the final table says which figures
decided. The shapes part decides by instructions alone (its inputs are
small, and a time of milliseconds is mostly noise), or without valgrind by
CPU medians.

Floors and bars (SPEC section 5):
- design commands (lint 2x, doc --format html 8x, every other 4x: doc,
  header, every export, cost, keys): a bare libyaml event scan of the
  design (bench/yaml_floor);
- import of a NoSQL Workbench model (tables of 100 entities) and of a
  CloudFormation template of as many tables as entities (made by ddbc's own
  exports of designs every format holds, --plain): jansson's parse of the
  file (bench/items_bench floor-file), bar 4x (SPEC sets none for import);
- diff (plain, and --all, which reports every reworded description) of the
  design against a changed copy: lint of both designs, bar 2x; its memory
  budget counts both files;
- check-items on export lines of a 4,000-entity single-table design
  (bench/gen_design_items.py): jansson's json_loadb of each line (bench/
  items_bench floor-lines); the bar is half of jansson's speed (2x).

Then growth per doubling by instructions, from k to 2k, in each dimension a
design can grow in (--shapes k): entities spread over tables (the rows
above), attributes of one entity (gen_design.py --attrs), entities in one
table, tables of one entity, access patterns and example items per entity,
and the members of a sparse GSI (one entity in ten has its keys).

Commands the binary does not have (cost, keys) are skipped, and said so.

usage: bench.py [--ddbc PATH] [--floor PATH] [--cmark-floor PATH] [--items-bench PATH]
                [--n N] [--instr-n M] [--attrs A] [--runs K] [--most-runs K]
                [--jobs J] [--shapes K]
                [--no-valgrind] [--timeout S] [--out DIR] [--only PART,...]

--only runs some parts of the report: design (the N-entity design's
commands), flow (the same commands on the compact flow style), wide (one
entity's attributes), interop (terraform and workbench exports, the
imports), diff, items (check-items), shapes, cmark.

The flow part (issue 48) measures lint, doc and header on designs of N and
2N entities written compactly (gen_design.py --flow: a flow mapping per
attribute and per example, tables of 1,000 entities), where the floor does
less work a byte and what a command pays per entity weighs more; and each
command's peak memory on 4N entities too, against its budget.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rounds  # noqa: E402

COMMANDS = [
    ("lint", ["lint"]),
    ("doc md", ["doc"]),
    ("doc html", ["doc", "--format", "html"]),
    ("header", ["header"]),
    ("export create-table", ["export"]),
    ("export queries", ["export", "--format", "queries"]),
    ("export model", ["export", "--format", "model"]),
    ("export cloudformation", ["export", "--format", "cloudformation"]),
    ("cost", ["cost", "--format", "json"]),
    ("keys ts", ["keys", "--lang", "ts"]),
    ("keys python", ["keys", "--lang", "python"]),
    ("keys go", ["keys", "--lang", "go"]),
]
# The exports only a design every format holds can take; the imports read
# back what the second and ddbc's CloudFormation export wrote.
INTEROP = [
    ("export terraform", ["export", "--format", "terraform"]),
    ("export workbench", ["export", "--format", "workbench"]),
]
IMPORTS = [("import workbench", "workbench"), ("import cloudformation", "cloudformation")]
# The commands each shape is measured with.
SHAPE_COMMANDS = ["lint", "doc md", "doc html", "header", "export queries", "export model",
                  "cost"]
TARGETS = {"lint": 2.0, "doc html": 8.0, "diff": 2.0, "diff --all": 2.0, "check-items": 2.0}
DEFAULT_TARGET = 4.0
GROWTH = 2.2
# Interleaved rounds of each row, and the most a row may take while a bar
# lies inside the interval of one of its CPU figures (bench/rounds.py). How
# many a figure needs to hold still, bench/stability.py measured under a load
# of 3 to 6 on two cores (lint, 2,000 -> 4,000 entities, 45 rounds cut into
# windows): the growth of windows of 5 rounds lay within +-8% of each other,
# of 7 within +-3.8%, of 9 within +-2.4% (best of 3 the old way: +-44%).
# Five keep make bench within its old time (their cost is paid by counting
# instructions two at a time). A row whose bar lies inside an interval gets
# up to nine: on an idle machine five left five rows of 29 undecided, and
# read as missed (keys go growth x2.31 +-15%), where nine decided every one
# (x2.17) in 783 s for the design, wide and interop parts. Under a load of
# 10 nine still leave rows undecided; --most-runs 5 then keeps the time.
RUNS = 5
MOST_RUNS = 9

TIMEOUT = 300
A = None     # the parsed arguments
ENV = None   # the commands' environment


def run(argv, ok_codes=(0,)):
    """CPU seconds and peak RSS (KiB) of one run of argv."""
    return rounds.run(argv, ENV, TIMEOUT, ok_codes)


def runner(floor):
    """floor (a list of command lines, whose times add up, or a function of
    nothing that gives seconds: jansson's own report) as one run of
    rounds.interleave."""
    if callable(floor):
        return lambda: (floor(), 0)
    return lambda: (sum(run(f)[0] for f in floor), 0)


_INSTR = {}


def instructions(argv):
    """Instructions argv executes (valgrind cachegrind's I refs), or None;
    counted once."""
    key = tuple(argv)
    if key not in _INSTR:
        _INSTR[key] = count_instructions(argv)
    return _INSTR[key]


# Valgrind's cost: counts made, the seconds they took one by one, and the
# wall seconds of the prefetches that made them --jobs at a time.
VALGRIND = {"counts": 0, "seconds": 0.0, "wall": 0.0}


def count_instructions(argv):
    began = time.monotonic()
    try:
        return valgrind_count(argv)
    finally:
        VALGRIND["counts"] += 1
        VALGRIND["seconds"] += time.monotonic() - began


def valgrind_count(argv):
    with tempfile.TemporaryDirectory(prefix="cachegrind-", dir=A.out) as d:
        log = os.path.join(d, "log")
        subprocess.run(["timeout", str(TIMEOUT * 30), "valgrind", "--tool=cachegrind",
                        "--cache-sim=no", f"--cachegrind-out-file={os.path.join(d, 'out')}",
                        f"--log-file={log}"] + list(argv), env=ENV,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not os.path.exists(log):
            return None
        with open(log) as f:
            m = re.search(r"I\s+refs:\s+([\d,]+)", f.read())
        return int(m.group(1).replace(",", "")) if m else None


def prefetch(argvs):
    """Counts the instructions of argvs, --jobs at a time, before any CPU
    round of the part runs: a count does not move with the load, so valgrind
    runs may share the machine with each other (this halves the bench's
    longest phase on two cores), never with a timed run."""
    began = time.monotonic()
    todo = list(dict.fromkeys(tuple(a) for a in argvs if tuple(a) not in _INSTR))
    with concurrent.futures.ThreadPoolExecutor(max(A.jobs, 1)) as pool:
        for key, n in zip(todo, pool.map(count_instructions, todo)):
            _INSTR[key] = n
    VALGRIND["wall"] += time.monotonic() - began


def floor_argvs(floor):
    """The command lines of a floor: a list of them, or jansson's."""
    return floor.argvs() if hasattr(floor, "argvs") else floor


def sum_instructions(argvs):
    counts = [instructions(a) for a in argvs]
    return None if None in counts else sum(counts)


def fresh(path, *makers):
    """path exists and is newer than each of makers (generators, the binary)."""
    return os.path.exists(path) and all(os.path.getmtime(path) > os.path.getmtime(m)
                                        for m in makers)


def gen(name, args, script="gen_design.py"):
    """The generated file called name in --out, made once (again when the
    generator is newer). bench/items.sh names the same inputs alike."""
    path = os.path.join(A.out, name)
    if not fresh(path, os.path.join(HERE, script)):
        with open(path + ".tmp", "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, script)] + args, stdout=f,
                           check=True)
        os.rename(path + ".tmp", path)
    return path


_HAS = {}


def has_command(command):
    """Whether the binary has command (`ddbc COMMAND --help` succeeds)."""
    if command not in _HAS:
        p = subprocess.run([A.ddbc, command, "--help"], env=ENV, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        _HAS[command] = p.returncode == 0
    return _HAS[command]


def mib(kib):
    return kib / 1024


def budget(paths):
    """4 x the inputs (a path, or the list of them) + 16 MiB."""
    paths = paths if isinstance(paths, list) else [paths]
    return 4 * sum(os.path.getsize(p) for p in paths) / 2**20 + 16


class Row:
    """One command on inputs of two CPU sizes and two instruction sizes.
    case(k) gives (command line, floor command lines, input file, ok exit codes)."""

    def __init__(self, name, case, cpu_sizes, instr_sizes, target=None):
        self.name, self.case = name, case
        self.cpu_sizes, self.instr_sizes = cpu_sizes, instr_sizes
        self.target = target or TARGETS.get(name, DEFAULT_TARGET)

    def measure(self):
        """Interleaved rounds of the floor on N, the command on N and on 2N
        (bench/rounds.py); instructions on the instruction sizes."""
        (argv, floor, path, codes), (argv2, _, path2, _) = map(self.case, self.cpu_sizes)
        self.rounds = rounds.interleave(runner(floor), lambda: run(argv, codes),
                                        lambda: run(argv2, codes), A.runs, self.unsure,
                                        A.most_runs)
        self.peak = [mib(p) for p in self.rounds.peak]
        self.budget = [budget(path), budget(path2)]
        self.instr = []
        if A.valgrind:
            for k in self.instr_sizes:
                argv, floor, _, _ = self.case(k)
                self.instr.append((instructions(argv), sum_instructions(floor_argvs(floor))))
        return self

    def unsure(self, r):
        """Whether a bar lies inside the interval of a CPU figure of r."""
        return "unsure" in (rounds.decide(r.ratios(), self.target),
                            rounds.decide(r.growths(), GROWTH))

    def instr_argvs(self):
        """Every command line whose instructions the row counts."""
        out = []
        for k in self.instr_sizes:
            argv, floor, _, _ = self.case(k)
            out += [argv] + floor_argvs(floor)
        return out

    def verdict(self):
        """The row's cells and whether it meets every bar: the CPU medians
        and, where counted, the instruction figures must each be within it."""
        r = self.rounds
        cpu_ratio, cpu_growth = rounds.median(r.ratios()), rounds.median(r.growths())
        ok = cpu_ratio <= self.target and cpu_growth <= GROWTH
        cells = [f"{r.cpu():.3f}s", mark(r.ratios(), self.target),
                 mark(r.growths(), GROWTH)]
        if self.instr:
            (i, fi), (i2, _) = self.instr
            if i is None or fi is None or i2 is None:
                ok, cells = False, cells + ["-", "-", "-"]
            else:
                ratio, growth = i / fi, i2 / i
                ok = ok and ratio <= self.target and growth <= GROWTH
                cells += [f"{i / 1e9:.3f}G", f"{ratio:.2f}x", f"x{growth:.2f}"]
        cells += [f"{self.target:.1f}x"]
        for p, b in zip(self.peak, self.budget):
            cells += [f"{p:.1f}", f"{b:.1f}"]
        ok = ok and all(p <= b for p, b in zip(self.peak, self.budget))
        verdict = "ok" if ok else "MISSED"
        if self.unsure(r):
            verdict += f" (CPU undecided in {len(r.small)} rounds)"
        return cells + [verdict], ok


def mark(values, bar):
    """A CPU cell: the median of the rounds' ratios and its spread; ! when the
    median is over its bar, ? when the bar lies inside its interval."""
    cell = rounds.figure(values)
    if rounds.decide(values, bar) == "unsure":
        return cell + "?"
    return cell + ("!" if rounds.median(values) > bar else "")


HEAD = ["command", "CPU", "x floor", "growth", "instr.", "x floor", "growth", "bar",
        "peak", "budget", "peak 2x", "budget", "verdict"]
WIDTH = [24, 9, 12, 12, 9, 8, 8, 6, 8, 8, 8, 8, 0]


def line(cells):
    out = ""
    for c, w in zip(cells, WIDTH):
        out += f"{c:<{w}}" if w == WIDTH[0] else (f"{c:>{w}}" if w else f"  {c}")
    return out


# Every row of every part, for the one table printed at the end: (part,
# what, CPU x floor, instructions x floor, CPU growth, instructions growth,
# bar, peak at 2N / budget, the figures that decide, verdict).
SUMMARY = []
# Each part's wall seconds, to see where the bench's time goes.
SECONDS = []


def deciders():
    """The figures that decide a row's time bars."""
    return "CPU + instr." if A.valgrind else "CPU"


def print_rows(title, rows, part, floor_paths=None):
    """Measures and prints rows; with floor_paths (the inputs of N and 2N),
    the libyaml floor's own growth first, for comparison."""
    began = time.monotonic()
    print(title)
    if A.valgrind:
        prefetch([a for r in rows for a in r.instr_argvs()])
    if floor_paths:
        r = rounds.interleave(None, lambda: run([A.floor, floor_paths[0]]),
                              lambda: run([A.floor, floor_paths[1]]), A.runs)
        print(f"the floor itself: {r.cpu():.3f}s, growth "
              f"{rounds.figure(r.growths(), prefix='x', suffix='')}")
    print(line(HEAD))
    failed = False
    for r in rows:
        cells, ok = r.measure().verdict()
        if not A.valgrind:
            cells = cells[:3] + ["-", "-", "-"] + cells[3:]
        print(line([r.name] + cells), flush=True)
        SUMMARY.append((part, r.name, cells[1], cells[4], cells[2], cells[5], cells[6],
                        f"{cells[9]} / {cells[10]}", deciders(), cells[11]))
        failed |= not ok
    SECONDS.append((part, time.monotonic() - began))
    return failed


def print_summary():
    """The one table of every row measured, each part's in its order."""
    head = ("part", "command or shape", "CPU x floor", "instr.", "CPU growth", "instr.",
            "bar", "peak 2N / budget MiB", "decided by", "verdict")
    width = (9, max(len(r[1]) for r in SUMMARY + [head]) + 2, 13, 8, 13, 8, 6, 22, 14, 0)
    def cells(c):
        return "".join(f"{v:<{w}}" if i < 2 else (f"{v:>{w}}" if w else f"  {v}")
                       for i, (v, w) in enumerate(zip(c, width)))
    print("every row: CPU figures are medians of interleaved rounds (+- half the median's "
          "90% interval);")
    print("a row meets its bars when every figure named under 'decided by' is within them and")
    print("its peak is within budget; a shape's growth is its worst command's")
    print(cells(head))
    for row in SUMMARY:
        print(cells(row))
    print("seconds by part: " + ", ".join(f"{p} {t:.0f}" for p, t in SECONDS))
    if VALGRIND["counts"]:
        print(f"valgrind: {VALGRIND['counts']} counts of {VALGRIND['seconds']:.0f} s one by "
              f"one, made in {VALGRIND['wall']:.0f} s ({A.jobs} at a time)")


def design_rows(table, path_of, sizes, isizes):
    """Rows of the design commands of table (those the binary has)."""
    rows = []
    for name, args in table:
        if not has_command(args[0]):
            continue
        def case(k, args=args):
            p = path_of(k)
            return [A.ddbc] + args + [p], [[A.floor, p]], p, (0,)
        rows.append(Row(name, case, sizes, isizes))
    return rows


class Jansson:
    """jansson's parse of a file as a floor: its own CPU report, and its instructions."""

    def __init__(self, mode, path):
        self.mode, self.path = mode, path

    def __call__(self):
        out = subprocess.run([A.items_bench, self.mode, self.path], capture_output=True,
                             text=True, check=True).stdout.split()
        return float(out[out.index("cpu") + 1])

    def argvs(self):
        return [[A.items_bench, self.mode, self.path]]


def main_design(k):
    return gen(f"design-{k}.ddb.yaml", [str(k)])


def flow_design(k):
    return gen(f"flow-{k}.ddb.yaml", [str(k), "--flow"])


def flow_peaks(n):
    """Each flow command's peak memory on FLOW_PEAK_TIMES x n entities (one
    run each), against its budget; whether one is over."""
    began = time.monotonic()
    k = FLOW_PEAK_TIMES * n
    path = flow_design(k)
    print(f"peak memory on {k} entities ({os.path.getsize(path) / 2**20:.1f} MiB), "
          f"budget {budget(path):.1f} MiB:")
    failed = False
    for name, args in COMMANDS:
        if name not in FLOW_COMMANDS:
            continue
        _, peak = run([A.ddbc] + args + [path])
        ok = mib(peak) <= budget(path)
        failed |= not ok
        print(f"  {name:<10} {mib(peak):8.1f} MiB  {'ok' if ok else 'MISSED'}", flush=True)
        SUMMARY.append(("flow", f"{name}, peak at {k}", "-", "-", "-", "-", "-",
                        f"{mib(peak):.1f} / {budget(path):.1f}", "peak",
                        "ok" if ok else "MISSED"))
    SECONDS.append(("flow peaks", time.monotonic() - began))
    return failed


def plain_design(k):
    return gen(f"plain-{k}.ddb.yaml", [str(k), "1", "100", "--plain"])


def changed_design(k):
    path = os.path.join(A.out, f"design-{k}-changed.ddb.yaml")
    if not fresh(path, os.path.join(HERE, "gen_design.py")):
        text = subprocess.run([sys.executable, os.path.join(HERE, "gen_design.py"), str(k),
                               "2"], capture_output=True, text=True, check=True).stdout
        with open(path + ".tmp", "w") as f:
            f.write(text.replace("description: Generated entity", "description: An entity"))
        os.rename(path + ".tmp", path)
    return path


def exported(k, source):
    """ddbc's export of a plain k-entity design in source's format: the import's input.
    A Workbench model of tables of 100 entities (its items are most of it); a
    CloudFormation template of k tables, an entity each (it holds no items)."""
    # Named after the design it is made of, so an output folder of another
    # input (the 50-table template this bench once made) is never reused.
    stem = f"plain-{k}" if source == "workbench" else f"plain-tables-{k}"
    path = os.path.join(A.out, f"{stem}.{source}.json")
    design = (plain_design(k) if source == "workbench"
              else gen(f"{stem}.ddb.yaml", [str(k), "1", "1", "--plain"]))
    if not fresh(path, design, A.ddbc):
        subprocess.run([A.ddbc, "export", "--format", source, "-o", path, design],
                       env=ENV, check=True)
    return path


def import_rows(sizes, isizes):
    rows = []
    for name, source in IMPORTS:
        def case(k, source=source):
            p = exported(k, source)
            return ([A.ddbc, "import", "--from", source, p], Jansson("floor-file", p), p,
                    (0,))
        rows.append(Row(name, case, sizes, isizes))
    return rows


def diff_rows(sizes, isizes):
    rows = []
    for name, extra in (("diff", []), ("diff --all", ["--all"])):
        def case(k, extra=extra):
            old, new = main_design(k), changed_design(k)
            # diff exits 1 when a change is an error; none of these is.
            return ([A.ddbc, "diff"] + extra + [old, new],
                    [[A.ddbc, "lint", old], [A.ddbc, "lint", new]], [old, new], (0, 1))
        rows.append(Row(name, case, sizes, isizes))
    return rows


def items_row(entities, mbs):
    """check-items on export lines of a single-table design of entities entities."""
    design = gen(f"single-{entities}.ddb.yaml", [str(entities), "1", str(entities)])

    def case(mb):
        items = os.path.join(A.out, f"single-{entities}-{mb}mb.json")
        if not fresh(items, os.path.join(HERE, "gen_design_items.py")):
            subprocess.run([sys.executable, os.path.join(HERE, "gen_design_items.py"),
                            str(entities), str(entities), "--mb", str(mb), items + ".tmp"],
                           check=True)
            os.rename(items + ".tmp", items)
        return ([A.ddbc, "check-items", design, items], Jansson("floor-lines", items), design,
                (0,))
    # Instructions on the same sizes: on a few MB the design's own check, a
    # fixed cost, would hide what each item costs.
    return Row("check-items", case, mbs, mbs)


PARTS = ["design", "flow", "wide", "interop", "diff", "items", "shapes", "cmark"]
# The commands of the flow part, and how many times N its largest design is.
FLOW_COMMANDS = ["lint", "doc md", "header"]
FLOW_PEAK_TIMES = 4

# Each shape: its name, the generator's arguments for size k, and its size
# for --shapes K (a fraction of K).
SHAPES = [
    ("entities in one table", lambda k: [str(k), "1", str(k)], 1),
    ("tables (an entity each)", lambda k: [str(k), "1", "1"], 1),
    ("patterns per entity (100 entities)",
     lambda k: ["100", "1", "100", "--patterns", str(k)], 0.02),
    ("example items per entity (100 entities)",
     lambda k: ["100", "1", "100", "--examples", str(k)], 0.02),
    ("members of a sparse GSI (1 entity in 10, one table)",
     lambda k: [str(10 * k), "1", str(10 * k), "--sparse", "10"], 0.1),
]


def shape_path(gen_args):
    return gen("shape-" + "-".join(gen_args).replace("--", "") + ".ddb.yaml", gen_args)


def shape_growth(argv, paths):
    """argv's growth from the first of paths to the second (by instructions,
    else the median of interleaved rounds' CPU growth), or None."""
    if A.valgrind:
        v = [instructions(argv + [p]) for p in paths]
        return None if None in v or not v[0] else v[1] / v[0]
    r = rounds.interleave(None, lambda: run(argv + [paths[0]]),
                          lambda: run(argv + [paths[1]]), A.runs)
    return rounds.median(r.growths())


def bench_shapes():
    """Growth from k to 2k in each shape, by instructions; whether a bar was missed."""
    began = time.monotonic()
    table = [c for c in COMMANDS if c[0] in SHAPE_COMMANDS and has_command(c[1][0])]
    how = ("instructions (cachegrind)" if A.valgrind
           else f"the median of {A.runs} interleaved rounds' CPU growth")
    print(f"growth per doubling from k to 2k, by {how}; bar: x{GROWTH}")
    # Each command's column wide enough for its name and a space.
    widths = [max(12, len(n) + 2) for n, _ in table]
    print(f"{'shape':<52}{'k':>6}{'floor':>8}"
          + "".join(f"{n:>{w}}" for (n, _), w in zip(table, widths)) + "  verdict")
    failed = False
    sized = []
    for what, gen_args, scale in SHAPES:
        k = max(int(A.shapes * scale), 2)
        sized.append((what, k, [shape_path(gen_args(m)) for m in (k, 2 * k)]))
    if A.valgrind:
        prefetch([[A.floor, p] for _, _, paths in sized for p in paths]
                 + [[A.ddbc] + args + [p] for _, _, paths in sized for p in paths
                    for _, args in table])
    for what, k, paths in sized:
        f = shape_growth([A.floor], paths)
        cells, ok, worst = [], True, 0.0
        for _, args in table:
            g = shape_growth([A.ddbc] + args, paths)
            if g is None:
                cells.append("-")
                ok = False
                continue
            worst = max(worst, g)
            ok &= g <= GROWTH
            cells.append(f"x{g:.2f}{'' if g <= GROWTH else '!'}")
        failed |= not ok
        print(f"{what:<52}{k:>6}{'x%.2f' % f if f else '-':>8}"
              + "".join(f"{c:>{w}}" for c, w in zip(cells, widths))
              + f"  {'ok' if ok else 'MISSED'}", flush=True)
        grown = f"x{worst:.2f}"
        SUMMARY.append(("shapes", f"{what}, {k} -> {2 * k}", "-", "-",
                        "-" if A.valgrind else grown, grown if A.valgrind else "-",
                        f"x{GROWTH}", "-", "instr." if A.valgrind else "CPU",
                        "ok" if ok else "MISSED"))
    print("(! marks a growth over the bar)")
    SECONDS.append(("shapes", time.monotonic() - began))
    return failed


def bench_cmark(n, html_row):
    began = time.monotonic()
    md = os.path.join(A.out, f"design-{n}.md")
    subprocess.run([A.ddbc, "doc", "-o", md, main_design(n)], env=ENV, check=True)
    r = rounds.interleave(lambda: run([A.floor, main_design(n)]),
                          lambda: run([A.cmark_floor, md]), None, A.runs)
    ratio = rounds.figure(r.ratios())
    print(f"cmark-gfm alone on the {os.path.getsize(md) / 2**20:.1f} MiB of Markdown "
          f"(bench/cmark_floor): {r.cpu():.3f} s = {ratio} the libyaml floor;")
    SUMMARY.append(("cmark", "cmark-gfm alone on doc's Markdown (no bar)", ratio, "-", "-",
                    "-", "-", "-", "-", "-"))
    if html_row:
        print("doc html, which does not parse that Markdown, is "
              f"{rounds.figure(html_row.rounds.ratios())} the floor")
    SECONDS.append(("cmark", time.monotonic() - began))


def sizes_line(what, sizes, path_of, isizes):
    mb = ", ".join(f"{k} {os.path.getsize(path_of(k)) / 2**20:.1f} MiB" for k in sizes)
    s = f"{what}: CPU on {mb} ({A.runs} to {A.most_runs} interleaved rounds)"
    if A.valgrind:
        s += f"; instructions on {isizes[0]} and {isizes[1]}"
    return s


def main():
    global TIMEOUT, A, ENV
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddbc", default="./ddbc")
    ap.add_argument("--floor", default="bench/yaml_floor")
    ap.add_argument("--cmark-floor", default=None)
    ap.add_argument("--items-bench", default=None)
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--instr-n", type=int, default=1000)
    # 2A attributes make one example item: at 40,000 it is over DynamoDB's 400 KB
    # (item-size, an error), and every command refuses the design.
    ap.add_argument("--attrs", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=RUNS)
    ap.add_argument("--most-runs", type=int, default=MOST_RUNS)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="bench/out")
    ap.add_argument("--shapes", type=int, default=500)
    ap.add_argument("--items-entities", type=int, default=4000)
    ap.add_argument("--items-mb", type=int, default=16)
    ap.add_argument("--no-valgrind", dest="valgrind", action="store_false")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--only", default=",".join(PARTS),
                    help="the parts to run, comma-separated: " + ", ".join(PARTS))
    A = ap.parse_args()
    only = set(A.only.split(","))
    if only - set(PARTS):
        sys.exit(f"bench.py: no part {', '.join(sorted(only - set(PARTS)))}")
    TIMEOUT = A.timeout
    start = time.monotonic()
    os.makedirs(A.out, exist_ok=True)
    ENV = dict(os.environ)
    ENV.setdefault("DDBC_TEMPLATE_DIR", os.path.join(HERE, "..", "templates"))
    if A.valgrind and subprocess.run(["valgrind", "--version"], capture_output=True).returncode:
        A.valgrind = False
    if not A.valgrind:
        print("no valgrind: the CPU figures alone decide")
    n, m = A.n, A.instr_n
    sizes, isizes = (n, 2 * n), (m, 2 * m)
    print("Bars: lint 2x, doc html 8x, every other command 4x its floor; growth per "
          f"doubling x{GROWTH};")
    print("peak RSS within 4 x the input + 16 MiB. CPU figures are the median of "
          f"{A.runs} (up to {A.most_runs}) rounds,")
    print("each running the floor on N, the command on N and on 2N back to back, +- half "
          "the median's")
    print("90% confidence interval; ! marks a median over its bar, ? a bar inside the "
          "interval. Both")
    print("the CPU medians and the instruction figures (which load does not move) must be "
          "within a bar.")
    print()

    failed = False
    design = design_rows(COMMANDS, main_design, sizes, isizes)
    if "design" in only:
        failed |= print_rows(sizes_line("entities over tables of 100 (libyaml floor)", sizes,
                                        main_design, isizes), design, "design",
                             [main_design(k) for k in sizes])
        gone = [name for name, args in COMMANDS if not has_command(args[0])]
        if gone:
            print(f"skipped, not commands of this binary: {', '.join(gone)}")
        print()
    if "flow" in only:
        rows = design_rows([c for c in COMMANDS if c[0] in FLOW_COMMANDS], flow_design,
                           sizes, isizes)
        failed |= print_rows(sizes_line("the compact flow style, tables of 1,000 (libyaml "
                                        "floor)", sizes, flow_design, isizes), rows, "flow",
                             [flow_design(k) for k in sizes])
        failed |= flow_peaks(n)
        print()
    if "wide" in only:
        wide = lambda k: gen(f"wide-{k}.ddb.yaml", ["--attrs", str(k)])
        asizes = (A.attrs, 2 * A.attrs)
        failed |= print_rows(sizes_line("attributes of one entity (libyaml floor)", asizes,
                                        wide, asizes),
                             design_rows(COMMANDS, wide, asizes, asizes), "wide",
                             [wide(k) for k in asizes])
        print()
    if "interop" in only:
        psizes, pisizes = (n // 2, n), (m // 2, m)
        rows = design_rows(INTEROP, plain_design, psizes, pisizes)
        title = sizes_line("a design every format holds (libyaml floor)", psizes,
                           plain_design, pisizes)
        if A.items_bench:
            rows += import_rows(psizes, pisizes)
            title += (";\nimports of its Workbench model and of the CloudFormation template "
                      "of as many tables (jansson floor)")
        failed |= print_rows(title, rows, "interop")
        print()
    if "diff" in only:
        failed |= print_rows(sizes_line("diff against a changed copy (floor: lint of both)",
                                        sizes, main_design, isizes), diff_rows(sizes, isizes),
                             "diff")
    if A.items_bench and "items" in only:
        print()
        mbs = (A.items_mb, 2 * A.items_mb)
        failed |= print_rows(
            f"check-items: export lines of a {A.items_entities}-entity single-table design, "
            f"{mbs[0]} and {mbs[1]} MB\n(floor: jansson's json_loadb of each line; bar 2x = half "
            "jansson's speed; budget: 4 x the design + 16 MiB)",
            [items_row(A.items_entities, mbs)], "items")
    if A.shapes and "shapes" in only:
        print()
        failed |= bench_shapes()
    if A.cmark_floor and "cmark" in only:
        print()
        bench_cmark(n, next((r for r in design if r.name == "doc html" and hasattr(r, "rounds")),
                            None))
    print()
    print_summary()
    print()
    print(f"bench.py: {'a bar was MISSED' if failed else 'every bar met'} "
          f"({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
