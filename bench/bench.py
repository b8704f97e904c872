#!/usr/bin/env python3
"""bench.py - ddbc's speed and memory against the libyaml floor.

For designs of N and 2N entities (bench/gen_design.py), runs the libyaml-only
floor (bench/yaml_floor) and each ddbc command, keeps the best CPU time
(user + system) of several runs and the peak resident memory, and reports:
each command's time as a ratio to the floor, the growth from N to 2N, and
peak memory against the budget of 4 x the file size + 16 MiB. CPU time, not
wall time, so other work on the machine does not skew the figures.

The targets are the product's: lint within 2x the floor, doc --format html
within 8x, every other command (cost too) within 4x.

Then the same for one entity of A and 2A attributes (gen_design.py --attrs):
time must grow linearly in the attributes of one entity too.

Then `ddbc diff` of the N-entity design against a changed copy (other
example values, every entity's description reworded): plain, and with --all,
which reports every reworded description. Each must take at most 2x the time
of linting both designs.

With --cmark-floor (bench/cmark_floor), it also times cmark-gfm parsing and
rendering the N-entity design's Markdown documentation: what the HTML page
would cost if it were made from the Markdown (it is not; ddbc writes the
page's structure directly and gives cmark-gfm only the user's Markdown).

Then the interop commands on a design every format can hold (gen_design.py
--plain: no multi-attribute key, no LSI): export terraform, workbench and
cloudformation, and the import of the Workbench model and the CloudFormation
template so made, against jansson's parse of that JSON (bench/items_bench
floor-file, with --items-bench).

Then the shapes (--shapes): the growth from k to 2k of what each dimension
makes grow, the commands that read it, one run each (--shape-runs): entities
in one table (the single-table design), tables (an entity each), access
patterns per entity, example items per entity, and the members of a sparse
GSI (one entity in ten has its keys). Time must grow linearly (x2.2 at most).

Commands the binary does not have (cost, keys) are skipped, and said so.
With --callgrind, the N-entity design's commands also run under callgrind:
the ratio of instructions to the floor's, steadier than CPU time on a shared
machine (and some 50 times slower to measure).

usage: bench.py [--ddbc PATH] [--floor PATH] [--cmark-floor PATH] [--items-bench PATH]
                [--n N] [--attrs A] [--runs K] [--shapes K] [--shape-runs K]
                [--callgrind] [--timeout S] [--out DIR]
"""
import argparse
import os
import subprocess
import sys
import tempfile

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
# What a design every format holds is exported to; the imports read them back.
INTEROP = [
    ("export terraform", ["export", "--format", "terraform"]),
    ("export workbench", ["export", "--format", "workbench"]),
]
IMPORTS = [("import workbench", "workbench"), ("import cloudformation", "cloudformation")]
# The commands each shape is timed with.
SHAPE_COMMANDS = ["lint", "doc md", "doc html", "header", "export queries", "export model"]
TARGETS = {"lint": 2.0, "doc html": 8.0}
DEFAULT_TARGET = 4.0


# A child's peak resident memory (ru_maxrss) counts the memory of the process
# it was forked from, before its exec: this script's, some 14 MiB, which hid
# the fixed overhead of small designs. GNU time, a small process, forks the
# command and reports the command's own peak.
GNU_TIME = "/usr/bin/time"


TIMEOUT = 300


def run(argv, env=None):
    """CPU seconds and peak RSS (KiB) of one run; its exit status (124: timed out)."""
    peak_file = None
    argv = ["timeout", str(TIMEOUT)] + argv
    if os.access(GNU_TIME, os.X_OK):
        fd, peak_file = tempfile.mkstemp(prefix="bench-peak-")
        os.close(fd)
        argv = [GNU_TIME, "-f", "%M", "-o", peak_file] + argv
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    peak = ru.ru_maxrss
    if peak_file:
        with open(peak_file) as f:
            lines = f.read().split()
        os.unlink(peak_file)
        peak = int(lines[-1]) if lines and lines[-1].isdigit() else peak
    return ru.ru_utime + ru.ru_stime, peak, code, err


def best(argv, runs, env=None):
    times, rss = [], 0
    for _ in range(runs):
        t, m, code, err = run(argv, env)
        if code == 124:
            return float("inf"), m
        if code != 0:
            sys.exit(f"{' '.join(argv)} exited {code}:\n{err}")
        times.append(t)
        rss = max(rss, m)
    return min(times), rss


def design(out, name, gen_args):
    """The generated design called name in out, made once."""
    path = os.path.join(out, name)
    if not os.path.exists(path):
        with open(path, "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gen_design.py")] + gen_args,
                           stdout=f, check=True)
    return path


_HAS = {}


def has_command(a, env, command):
    """Whether the binary has command (`ddbc COMMAND --help` succeeds)."""
    if command not in _HAS:
        p = subprocess.run([a.ddbc, command, "--help"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        _HAS[command] = p.returncode == 0
    return _HAS[command]


def commands(a, env, table):
    """The commands of table that the binary has."""
    return [(name, args) for name, args in table if has_command(a, env, args[0])]


def skipped(a, env, table):
    return [name for name, args in table if not has_command(a, env, args[0])]


def measure(a, env, paths, table=None):
    """Best time and peak memory of the floor and every command on each design."""
    results = {}
    for n, path in paths.items():
        results[(n, "floor")] = best([a.floor, path], a.runs)
        for name, args in commands(a, env, table or COMMANDS):
            results[(n, name)] = best([a.ddbc] + args + [path], a.runs, env)
    return results


def callgrind(argv, env, out):
    """Instructions executed by argv (callgrind's total), or None."""
    cg = os.path.join(out, "callgrind.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}"] + argv,
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if os.path.exists(cg):
        os.unlink(cg)
    for line in p.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def report_instructions(a, env, path):
    """Each command's instructions against the floor's (--callgrind)."""
    floor = callgrind([a.floor, path], env, a.out)
    if not floor:
        print("callgrind: not available; no instruction counts")
        return False
    print(f"instructions (callgrind) on {os.path.basename(path)}: libyaml floor "
          f"{floor / 1e9:.3f} G")
    print(f"{'command':<22}{'instr.':>10}{'x floor':>9}{'target':>8}  verdict")
    failed = False
    for name, args in commands(a, env, COMMANDS):
        n = callgrind([a.ddbc] + args + [path], env, a.out)
        target = TARGETS.get(name, DEFAULT_TARGET)
        ok = n is not None and n / floor <= target
        failed |= not ok
        print(f"{name:<22}{(n or 0) / 1e9:>9.3f}G{(n or 0) / floor:>8.2f}x{target:>7.1f}x"
              f"  {'ok' if ok else 'MISSED'}")
    return failed


def report(a, what, paths, results, table=None):
    """Prints the table for designs of n and 2n; returns whether a bar was missed."""
    n, n2 = sorted(paths)
    sizes = {k: os.path.getsize(p) for k, p in paths.items()}
    floor = results[(n, "floor")][0]
    print(f"design: {n} {what}, {sizes[n] / 2**20:.1f} MiB; {n2} {what}, "
          f"{sizes[n2] / 2**20:.1f} MiB; best CPU time of {a.runs} runs")
    print(f"libyaml floor: {floor:.3f} s ({n}), {results[(n2, 'floor')][0]:.3f} s ({n2})")
    print()
    print(f"{'command':<22}{'time':>9}{'x floor':>9}{'target':>8}{'N->2N':>8}"
          f"{'peak N':>9}{'budget':>8}{'peak 2N':>9}{'budget':>8}  verdict")
    failed = False
    # The memory bar holds at every size: both designs are checked.
    budget = {k: (4 * sizes[k] + 16 * 2**20) / 2**20 for k in (n, n2)}
    for name, _ in [c for c in (table or COMMANDS) if (n, c[0]) in results]:
        t, rss = results[(n, name)]
        t2, rss2 = results[(n2, name)]
        ratio = t / floor if floor else float("inf")
        growth = t2 / t if t else float("inf")
        target = TARGETS.get(name, DEFAULT_TARGET)
        mib, mib2 = rss / 1024, rss2 / 1024
        ok = (ratio <= target and growth <= 2.2 and mib <= budget[n]
              and mib2 <= budget[n2])
        failed |= not ok
        print(f"{name:<22}{t:>8.3f}s{ratio:>8.2f}x{target:>7.1f}x{growth:>7.2f}x"
              f"{mib:>9.1f}{budget[n]:>8.1f}{mib2:>9.1f}{budget[n2]:>8.1f}"
              f"  {'ok' if ok else 'MISSED'}")
    return failed


def bench_diff(a, env, old):
    """Times diff against lint of both designs; returns whether a bar was missed."""
    new = os.path.join(a.out, f"design-{a.n}-changed.ddb.yaml")
    if not os.path.exists(new):
        text = subprocess.run([sys.executable, os.path.join(HERE, "gen_design.py"), str(a.n),
                               "2"], capture_output=True, text=True, check=True).stdout
        with open(new, "w") as f:
            f.write(text.replace("description: Generated entity", "description: An entity"))
    lint = best([a.ddbc, "lint", old], a.runs, env)[0] + best([a.ddbc, "lint", new], a.runs,
                                                                env)[0]
    print(f"diff of two {a.n}-entity designs; lint of both: {lint:.3f} s")
    print(f"{'command':<22}{'time':>9}{'x lint':>9}{'target':>8}{'peak':>9}  verdict")
    failed = False
    for name, extra in (("diff", []), ("diff --all", ["--all"])):
        # diff exits 1 when a change is an error; none of these is.
        t, rss = best([a.ddbc, "diff"] + extra + [old, new], a.runs, env)
        ok = t <= 2.0 * lint
        failed |= not ok
        print(f"{name:<22}{t:>8.3f}s{t / lint:>8.2f}x{2.0:>7.1f}x{rss / 1024:>9.1f}"
              f"  {'ok' if ok else 'MISSED'}")
    return failed


def bench_interop(a, env):
    """Exports of a design every format holds, and the imports of what they wrote."""
    n = a.n // 2
    paths = {k: design(a.out, f"plain-{k}.ddb.yaml", [str(k), "1", "100", "--plain"])
             for k in (n, 2 * n)}
    failed = report(a, "entities (no multi-attribute key, no LSI)", paths,
                    measure(a, env, paths, INTEROP), INTEROP)
    if not a.items_bench:
        return failed
    print()
    print(f"{'import':<22}{'time':>9}{'x json':>9}{'N->2N':>8}{'peak N':>9}{'peak 2N':>9}"
          "  (against jansson's parse of the file; SPEC sets no bar)")
    for name, source in IMPORTS:
        row = []
        for k, path in paths.items():
            src = os.path.join(a.out, f"plain-{k}.{source}.json")
            if not os.path.exists(src):
                subprocess.run([a.ddbc, "export", "--format", source, "-o", src, path],
                               env=env, check=True)
            floor = jansson_floor(a, src)
            t, rss = best([a.ddbc, "import", "--from", source, src], a.runs, env)
            row.append((t, rss, floor))
        (t, rss, floor), (t2, rss2, _) = row
        print(f"{name:<22}{t:>8.3f}s{t / floor if floor else 0:>8.2f}x{t2 / t:>7.2f}x"
              f"{rss / 1024:>9.1f}{rss2 / 1024:>9.1f}")
    return failed


def jansson_floor(a, path):
    """CPU seconds of jansson's json_loadf of path (bench/items_bench floor-file)."""
    times = []
    for _ in range(a.runs):
        out = subprocess.run([a.items_bench, "floor-file", path], capture_output=True,
                             text=True, check=True).stdout.split()
        times.append(float(out[out.index("cpu") + 1]))
    return min(times)


# Each shape: its name, and the generator's arguments for size k.
SHAPES = [
    ("entities in one table", lambda k: [str(k), "1", str(k)]),
    ("tables (an entity each)", lambda k: [str(k), "1", "1"]),
    ("patterns per entity (100 entities)", lambda k: ["100", "1", "100", "--patterns", str(k)]),
    ("example items per entity (100 entities)",
     lambda k: ["100", "1", "100", "--examples", str(k)]),
    ("members of a sparse GSI (1 entity in 10, one table)",
     lambda k: [str(10 * k), "1", str(10 * k), "--sparse", "10"]),
]
SHAPE_SIZES = {0: 1, 1: 1, 2: 0.02, 3: 0.02, 4: 0.1}


def bench_shapes(a, env):
    """Growth from k to 2k in each shape; returns whether a bar was missed."""
    table = [c for c in COMMANDS if c[0] in SHAPE_COMMANDS]
    print(f"growth per doubling, best of {a.shape_runs} run(s); bar: x2.2")
    print(f"{'shape':<52}{'size k':>8}{'floor':>8}  " +
          "".join(f"{name:>15}" for name, _ in table))
    failed = False
    for i, (what, gen) in enumerate(SHAPES):
        k = max(int(a.shapes * SHAPE_SIZES[i]), 2)
        paths = {}
        for m in (k, 2 * k):
            tag = "-".join(gen(m)).replace("--", "")
            paths[m] = design(a.out, f"shape-{tag}.ddb.yaml", gen(m))
        cells = []
        floor = [best([a.floor, paths[m]], a.shape_runs)[0] for m in (k, 2 * k)]
        for name, args in table:
            t = [best([a.ddbc] + args + [paths[m]], a.shape_runs, env)[0] for m in (k, 2 * k)]
            growth = t[1] / t[0] if t[0] else float("inf")
            ok = growth <= 2.2
            failed |= not ok
            cells.append(f"{t[1]:.2f}s x{growth:.2f}{'' if ok else '!'}")
        print(f"{what:<52}{k:>8}{floor[1]:>7.2f}s  " + "".join(f"{c:>15}" for c in cells))
    print("(each cell: the time at 2k and its growth from k; ! marks a growth over x2.2)")
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddbc", default="./ddbc")
    ap.add_argument("--floor", default="bench/yaml_floor")
    ap.add_argument("--cmark-floor", default=None)
    ap.add_argument("--n", type=int, default=10000)
    # 2A attributes make one example item: at 40,000 it is over DynamoDB's 400 KB
    # (item-size, an error), and every command refuses the design.
    ap.add_argument("--attrs", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default="bench/out")
    ap.add_argument("--items-bench", default=None)
    ap.add_argument("--shapes", type=int, default=2000)
    ap.add_argument("--shape-runs", type=int, default=1)
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--timeout", type=int, default=300)
    a = ap.parse_args()
    global TIMEOUT
    TIMEOUT = a.timeout
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ)
    env.setdefault("DDBC_TEMPLATE_DIR", os.path.join(HERE, "..", "templates"))

    n = a.n
    paths = {k: design(a.out, f"design-{k}.ddb.yaml", [str(k)]) for k in (n, 2 * n)}
    results = measure(a, env, paths)
    failed = report(a, "entities", paths, results)
    gone = skipped(a, env, COMMANDS)
    if gone:
        print(f"skipped, not commands of this binary: {', '.join(gone)}")
    if a.callgrind:
        print()
        failed |= report_instructions(a, env, paths[n])
    wide = {k: design(a.out, f"wide-{k}.ddb.yaml", ["--attrs", str(k)])
            for k in (a.attrs, 2 * a.attrs)}
    print()
    failed |= report(a, "attributes of one entity", wide, measure(a, env, wide))
    print()
    failed |= bench_diff(a, env, paths[n])
    print()
    failed |= bench_interop(a, env)
    if a.shapes:
        print()
        failed |= bench_shapes(a, env)
    if a.cmark_floor:
        md = os.path.join(a.out, f"design-{n}.md")
        subprocess.run([a.ddbc, "doc", "-o", md, paths[n]],
                       env=env, check=True)
        t, rss = best([a.cmark_floor, md], a.runs)
        html, floor = results[(n, "doc html")][0], results[(n, "floor")][0]
        print()
        print(f"cmark-gfm alone on the {os.path.getsize(md) / 2**20:.1f} MiB of Markdown "
              f"(bench/cmark_floor): {t:.3f} s = {t / floor:.2f}x the libyaml floor, "
              f"peak {rss / 1024:.1f} MiB;")
        print(f"doc html, which does not parse that Markdown, is {html / floor:.2f}x the "
              f"libyaml floor")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
