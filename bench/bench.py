#!/usr/bin/env python3
"""bench.py - ddbc's speed and memory against the libyaml floor.

For designs of N and 2N entities (bench/gen_design.py), runs the libyaml-only
floor (bench/yaml_floor) and each ddbc command, keeps the best CPU time
(user + system) of several runs and the peak resident memory, and reports:
each command's time as a ratio to the floor, the growth from N to 2N, and
peak memory against the budget of 4 x the file size + 16 MiB. CPU time, not
wall time, so other work on the machine does not skew the figures.

The targets are the product's: lint within 2x the floor, doc --format html
within 8x, every other command within 4x.

With --cmark-floor (bench/cmark_floor), it also times cmark-gfm parsing and
rendering the N-entity design's Markdown documentation: what the HTML page
would cost if it were made from the Markdown (it is not; ddbc writes the
page's structure directly and gives cmark-gfm only the user's Markdown).

usage: bench.py [--ddbc PATH] [--floor PATH] [--cmark-floor PATH] [--n N]
                [--runs K] [--out DIR]
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

COMMANDS = [
    ("lint", ["lint"]),
    ("doc md", ["doc"]),
    ("doc html", ["doc", "--format", "html"]),
    ("header", ["header"]),
    ("export create-table", ["export"]),
    ("export queries", ["export", "--format", "queries"]),
    ("export model", ["export", "--format", "model"]),
]
TARGETS = {"lint": 2.0, "doc html": 8.0}
DEFAULT_TARGET = 4.0


def run(argv, env=None):
    """CPU seconds and peak RSS (KiB) of one run; its exit status."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss, code, err


def best(argv, runs, env=None):
    times, rss = [], 0
    for _ in range(runs):
        t, m, code, err = run(argv, env)
        if code != 0:
            sys.exit(f"{' '.join(argv)} exited {code}:\n{err}")
        times.append(t)
        rss = max(rss, m)
    return min(times), rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddbc", default="./ddbc")
    ap.add_argument("--floor", default="bench/yaml_floor")
    ap.add_argument("--cmark-floor", default=None)
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default="bench/out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ)
    env.setdefault("DDBC_TEMPLATE_DIR", os.path.join(HERE, "..", "templates"))

    results = {}
    sizes = {}
    for n in (a.n, 2 * a.n):
        path = os.path.join(a.out, f"design-{n}.ddb.yaml")
        if not os.path.exists(path):
            with open(path, "w") as f:
                subprocess.run([sys.executable, os.path.join(HERE, "gen_design.py"), str(n)],
                               stdout=f, check=True)
        sizes[n] = os.path.getsize(path)
        results[(n, "floor")] = best([a.floor, path], a.runs)
        for name, args in COMMANDS:
            results[(n, name)] = best([a.ddbc] + args + [path], a.runs, env)

    n, n2 = a.n, 2 * a.n
    floor = results[(n, "floor")][0]
    print(f"design: {n} entities, {sizes[n] / 2**20:.1f} MiB; {n2} entities, "
          f"{sizes[n2] / 2**20:.1f} MiB; best CPU time of {a.runs} runs")
    print(f"libyaml floor: {floor:.3f} s ({n}), {results[(n2, 'floor')][0]:.3f} s ({n2})")
    print()
    print(f"{'command':<22}{'time':>9}{'x floor':>9}{'target':>8}{'N->2N':>8}"
          f"{'peak MiB':>10}{'budget':>8}  verdict")
    failed = False
    budget = (4 * sizes[n] + 16 * 2**20) / 2**20
    for name, _ in COMMANDS:
        t, rss = results[(n, name)]
        t2, _ = results[(n2, name)]
        ratio = t / floor if floor else float("inf")
        growth = t2 / t if t else float("inf")
        target = TARGETS.get(name, DEFAULT_TARGET)
        mib = rss / 1024
        ok = ratio <= target and growth <= 2.2 and mib <= budget
        failed |= not ok
        print(f"{name:<22}{t:>8.3f}s{ratio:>8.2f}x{target:>7.1f}x{growth:>7.2f}x"
              f"{mib:>10.1f}{budget:>8.1f}  {'ok' if ok else 'MISSED'}")
    if a.cmark_floor:
        md = os.path.join(a.out, f"design-{n}.md")
        subprocess.run([a.ddbc, "doc", "-o", md, os.path.join(a.out, f"design-{n}.ddb.yaml")],
                       env=env, check=True)
        t, rss = best([a.cmark_floor, md], a.runs)
        html, _ = results[(n, "doc html")]
        print()
        print(f"cmark-gfm alone on the {os.path.getsize(md) / 2**20:.1f} MiB of Markdown "
              f"(bench/cmark_floor): {t:.3f} s = {t / floor:.2f}x the libyaml floor, "
              f"peak {rss / 1024:.1f} MiB;")
        print(f"doc html, which does not parse that Markdown, is {html / floor:.2f}x the "
              f"libyaml floor")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
