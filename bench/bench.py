#!/usr/bin/env python3
"""bench.py - every ddbc command's speed and memory against its floor.

Each row of the report is one command on one kind of input, measured two
ways against the floor (the least any reader of that input must do):
- CPU time (user + system of the child; best of --runs, each run of the
  command right after a run of the floor, so both see the same machine) on
  inputs of N and 2N entities;
- instructions executed (valgrind cachegrind, which load does not move) on
  inputs of M and 2M entities (--instr-n; smaller than N, as valgrind is
  some 16 times slower). The growth per doubling is taken from these too.
and peak resident memory (GNU time's %M) on both CPU sizes, against the
budget of 4 x the input file + 16 MiB.

The verdict of a row is taken from the figures a shared machine cannot
flip: the instruction ratio within the bar, the instruction growth per
doubling at most x2.2, peak memory within budget at both sizes. CPU figures
are printed beside them and marked * where they miss the bar; without
valgrind, CPU figures decide.

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
                [--n N] [--instr-n M] [--attrs A] [--runs K] [--shapes K]
                [--no-valgrind] [--timeout S] [--out DIR] [--only PART,...]

--only runs some parts of the report: design (the N-entity design's
commands), wide (one entity's attributes), interop (terraform and workbench
exports, the imports), diff, items (check-items), shapes, cmark.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

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

# A child's peak resident memory (ru_maxrss) counts the memory of the process
# it was forked from, before its exec: this script's, some 14 MiB, which hid
# the fixed overhead of small designs. GNU time, a small process, forks the
# command and reports the command's own peak.
GNU_TIME = "/usr/bin/time"
TIMEOUT = 300
A = None     # the parsed arguments
ENV = None   # the commands' environment


def run(argv, ok_codes=(0,)):
    """CPU seconds and peak RSS (KiB) of one run of argv."""
    peak_file = None
    argv = ["timeout", str(TIMEOUT)] + argv
    if os.access(GNU_TIME, os.X_OK):
        fd, peak_file = tempfile.mkstemp(prefix="bench-peak-")
        os.close(fd)
        argv = [GNU_TIME, "-f", "%M", "-o", peak_file] + argv
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, env=ENV)
        err = p.stderr.read().decode(errors="replace")
        _, status, ru = os.wait4(p.pid, 0)
        p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    peak = ru.ru_maxrss
    if peak_file:
        with open(peak_file) as f:
            lines = f.read().split()
        os.unlink(peak_file)
        peak = int(lines[-1]) if lines and lines[-1].isdigit() else peak
    if code == 124:
        return float("inf"), peak
    if code not in ok_codes:
        sys.exit(f"{' '.join(argv)} exited {code}:\n{err}")
    return ru.ru_utime + ru.ru_stime, peak


def best_pair(floor, argv, ok_codes=(0,)):
    """Best CPU time of floor and of argv, run in turn --runs times; argv's peak RSS.
    floor is a list of command lines (their times add up) or a function of
    nothing that gives seconds (jansson's own report)."""
    ft, ct, rss = [], [], 0
    for _ in range(A.runs):
        ft.append(floor() if callable(floor) else sum(run(f)[0] for f in floor))
        t, m = run(argv, ok_codes)
        ct.append(t)
        rss = max(rss, m)
    return min(ft), min(ct), rss


_INSTR = {}


def instructions(argv):
    """Instructions argv executes (valgrind cachegrind's I refs), or None."""
    key = tuple(argv)
    if key in _INSTR:
        return _INSTR[key]
    log = os.path.join(A.out, "cachegrind.log")
    out = os.path.join(A.out, "cachegrind.out")
    subprocess.run(["timeout", str(TIMEOUT * 30), "valgrind", "--tool=cachegrind",
                    "--cache-sim=no", f"--cachegrind-out-file={out}", f"--log-file={log}"]
                   + argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    n = None
    if os.path.exists(log):
        with open(log) as f:
            m = re.search(r"I\s+refs:\s+([\d,]+)", f.read())
        n = int(m.group(1).replace(",", "")) if m else None
        os.unlink(log)
    if os.path.exists(out):
        os.unlink(out)
    _INSTR[key] = n
    return n


def sum_instructions(argvs):
    counts = [instructions(a) for a in argvs]
    return None if None in counts else sum(counts)


def gen(name, args, script="gen_design.py"):
    """The generated file called name in --out, made once."""
    path = os.path.join(A.out, name)
    if not os.path.exists(path):
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
        self.cpu, self.peak, self.budget = [], [], []
        for k in self.cpu_sizes:
            argv, floor, path, codes = self.case(k)
            f, t, rss = best_pair(floor, argv, codes)
            self.cpu.append((t, f))
            self.peak.append(mib(rss))
            self.budget.append(budget(path))
        self.instr = []
        if A.valgrind:
            for k in self.instr_sizes:
                argv, floor, _, _ = self.case(k)
                fl = (floor.instructions() if hasattr(floor, "instructions")
                      else sum_instructions(floor))
                self.instr.append((instructions(argv), fl))
        return self

    def verdict(self):
        """The row's cells and whether it meets every bar."""
        (t, f), (t2, _) = self.cpu
        cpu_ratio = t / f if f else float("inf")
        cpu_growth = t2 / t if t else float("inf")
        mem_ok = all(p <= b for p, b in zip(self.peak, self.budget))
        cells = [f"{t:.3f}s", mark(cpu_ratio, self.target, not self.instr),
                 mark(cpu_growth, GROWTH, not self.instr)]
        if self.instr:
            (i, fi), (i2, _) = self.instr
            if i is None or fi is None or i2 is None:
                ok, cells = False, cells + ["-", "-", "-"]
            else:
                ratio, growth = i / fi, i2 / i
                ok = ratio <= self.target and growth <= GROWTH
                cells += [f"{i / 1e9:.3f}G", f"{ratio:.2f}x", f"x{growth:.2f}"]
        else:
            ok = cpu_ratio <= self.target and cpu_growth <= GROWTH
        cells += [f"{self.target:.1f}x"]
        for p, b in zip(self.peak, self.budget):
            cells += [f"{p:.1f}", f"{b:.1f}"]
        ok = ok and mem_ok
        return cells + ["ok" if ok else "MISSED"], ok


def mark(value, bar, decides):
    """A CPU cell: the figure, * when over its bar (! when it decides the verdict)."""
    over = value > bar
    return f"{value:.2f}x" + (("!" if decides else "*") if over else "")


HEAD = ["command", "CPU", "x floor", "growth", "instr.", "x floor", "growth", "bar",
        "peak", "budget", "peak 2x", "budget", "verdict"]
WIDTH = [24, 9, 9, 8, 9, 8, 8, 6, 8, 8, 8, 8, 0]


def line(cells):
    out = ""
    for c, w in zip(cells, WIDTH):
        out += f"{c:<{w}}" if w == WIDTH[0] else (f"{c:>{w}}" if w else f"  {c}")
    return out


# Every row of every part, for the one table printed at the end: (part,
# what, x floor, growth, bar, peak at 2N / budget, verdict).
SUMMARY = []


def print_rows(title, rows, part):
    print(title)
    print(line(HEAD))
    failed = False
    for r in rows:
        cells, ok = r.measure().verdict()
        if not A.valgrind:
            cells = cells[:3] + ["-", "-", "-"] + cells[3:]
        print(line([r.name] + cells), flush=True)
        # By instructions where counted, else by CPU time.
        ratio, growth = (cells[4], cells[5]) if A.valgrind else (cells[1], cells[2])
        SUMMARY.append((part, r.name, ratio, growth, cells[6], f"{cells[9]} / {cells[10]}",
                        cells[11]))
        failed |= not ok
    return failed


def print_summary():
    """The one table of every row measured, each part's in its order."""
    head = ("part", "command or shape", "x floor", "growth", "bar", "peak 2N / budget MiB",
            "verdict")
    width = (9, max(len(r[1]) for r in SUMMARY + [head]) + 2, 9, 8, 6, 22, 0)
    def cells(c):
        return "".join(f"{v:<{w}}" if i < 2 else (f"{v:>{w}}" if w else f"  {v}")
                       for i, (v, w) in enumerate(zip(c, width)))
    print("every row (x floor and growth by instructions where counted, else CPU; a shape's "
          "growth is its worst command's)")
    print(cells(head))
    for row in SUMMARY:
        print(cells(row))


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

    def instructions(self):
        return instructions([A.items_bench, self.mode, self.path])


def main_design(k):
    return gen(f"design-{k}.ddb.yaml", [str(k)])


def plain_design(k):
    return gen(f"plain-{k}.ddb.yaml", [str(k), "1", "100", "--plain"])


def changed_design(k):
    path = os.path.join(A.out, f"design-{k}-changed.ddb.yaml")
    if not os.path.exists(path):
        text = subprocess.run([sys.executable, os.path.join(HERE, "gen_design.py"), str(k),
                               "2"], capture_output=True, text=True, check=True).stdout
        with open(path, "w") as f:
            f.write(text.replace("description: Generated entity", "description: An entity"))
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
    if not os.path.exists(path):
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
        if not os.path.exists(items):
            subprocess.run([sys.executable, os.path.join(HERE, "gen_design_items.py"),
                            str(entities), str(entities), "--mb", str(mb), items], check=True)
        return ([A.ddbc, "check-items", design, items], Jansson("floor-lines", items), design,
                (0,))
    # Instructions on the same sizes: on a few MB the design's own check, a
    # fixed cost, would hide what each item costs.
    return Row("check-items", case, mbs, mbs)


PARTS = ["design", "wide", "interop", "diff", "items", "shapes", "cmark"]

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


def bench_shapes():
    """Growth from k to 2k in each shape, by instructions; whether a bar was missed."""
    table = [c for c in COMMANDS if c[0] in SHAPE_COMMANDS and has_command(c[1][0])]
    how = "instructions (cachegrind)" if A.valgrind else f"best CPU time of {A.runs}"
    print(f"growth per doubling from k to 2k, by {how}; bar: x{GROWTH}")
    # Each command's column wide enough for its name and a space.
    widths = [max(12, len(n) + 2) for n, _ in table]
    print(f"{'shape':<52}{'k':>6}{'floor':>8}"
          + "".join(f"{n:>{w}}" for (n, _), w in zip(table, widths)) + "  verdict")
    failed = False
    for what, gen_args, scale in SHAPES:
        k = max(int(A.shapes * scale), 2)
        paths = [shape_path(gen_args(m)) for m in (k, 2 * k)]
        if A.valgrind:
            measure = instructions
        else:
            def measure(argv):
                return min(run(argv)[0] for _ in range(A.runs))
        f = [measure([A.floor, p]) for p in paths]
        cells, ok, worst = [], True, 0.0
        for _, args in table:
            v = [measure([A.ddbc] + args + [p]) for p in paths]
            if None in v or not v[0]:
                cells.append("-")
                ok = False
                continue
            g = v[1] / v[0]
            worst = max(worst, g)
            ok &= g <= GROWTH
            cells.append(f"x{g:.2f}{'' if g <= GROWTH else '!'}")
        failed |= not ok
        print(f"{what:<52}{k:>6}{'x%.2f' % (f[1] / f[0]) if f[0] else '-':>8}"
              + "".join(f"{c:>{w}}" for c, w in zip(cells, widths))
              + f"  {'ok' if ok else 'MISSED'}", flush=True)
        SUMMARY.append(("shapes", f"{what}, {k} -> {2 * k}", "-",
                        f"x{worst:.2f}", f"x{GROWTH}", "-", "ok" if ok else "MISSED"))
    print("(! marks a growth over the bar)")
    return failed


def bench_cmark(n, html_row):
    md = os.path.join(A.out, f"design-{n}.md")
    subprocess.run([A.ddbc, "doc", "-o", md, main_design(n)], env=ENV, check=True)
    t = min(run([A.cmark_floor, md])[0] for _ in range(A.runs))
    floor = min(run([A.floor, main_design(n)])[0] for _ in range(A.runs))
    print(f"cmark-gfm alone on the {os.path.getsize(md) / 2**20:.1f} MiB of Markdown "
          f"(bench/cmark_floor): {t:.3f} s = {t / floor:.2f}x the libyaml floor;")
    SUMMARY.append(("cmark", "cmark-gfm alone on doc's Markdown (CPU; no bar)",
                    f"{t / floor:.2f}x", "-", "-", "-", "-"))
    if html_row:
        (h, f), _ = html_row.cpu
        print(f"doc html, which does not parse that Markdown, is {h / f:.2f}x the floor")


def sizes_line(what, sizes, path_of, isizes):
    mb = ", ".join(f"{k} {os.path.getsize(path_of(k)) / 2**20:.1f} MiB" for k in sizes)
    s = f"{what}: CPU on {mb} (best of {A.runs})"
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
    ap.add_argument("--runs", type=int, default=3)
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
        print("no valgrind: the CPU figures decide (marked ! where they miss)")
    n, m = A.n, A.instr_n
    sizes, isizes = (n, 2 * n), (m, 2 * m)
    print("Bars: lint 2x, doc html 8x, every other command 4x its floor; growth per "
          f"doubling x{GROWTH};")
    print("peak RSS within 4 x the input + 16 MiB. CPU figures marked * miss their bar "
          "but do not decide:")
    print("instructions do (CPU time moves with the machine's load; instruction counts do "
          "not).")
    print()

    failed = False
    design = design_rows(COMMANDS, main_design, sizes, isizes)
    if "design" in only:
        failed |= print_rows(sizes_line("entities over tables of 100 (libyaml floor)", sizes,
                                        main_design, isizes), design, "design")
        gone = [name for name, args in COMMANDS if not has_command(args[0])]
        if gone:
            print(f"skipped, not commands of this binary: {', '.join(gone)}")
        print()
    if "wide" in only:
        wide = lambda k: gen(f"wide-{k}.ddb.yaml", ["--attrs", str(k)])
        asizes = (A.attrs, 2 * A.attrs)
        failed |= print_rows(sizes_line("attributes of one entity (libyaml floor)", asizes,
                                        wide, asizes),
                             design_rows(COMMANDS, wide, asizes, asizes), "wide")
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
        bench_cmark(n, next((r for r in design if r.name == "doc html" and hasattr(r, "cpu")),
                            None))
    print()
    print_summary()
    print()
    print(f"bench.py: {'a bar was MISSED' if failed else 'every bar met'} "
          f"({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
