#!/usr/bin/env python3
"""stability.py - how many interleaved rounds make a CPU figure stable.

Runs one ddbc command (and the libyaml floor) on generated designs of N and
2N entities in two ways, under whatever load the machine has:
- the old way, --trials times: best of 3 runs on N (each after a floor run),
  then best of 3 on 2N; the growth is best(2N) / best(N);
- interleaved rounds (bench/rounds.py), --rounds of them in one sequence.
Then, for each number of rounds r, the sequence is cut into consecutive
windows of r rounds, and each window's figure is taken by each estimator:
how far those figures lie apart is how far the figure of an r-round bench
moves from one run of the bench to the next. Estimators of the growth (and
likewise of the ratio to the floor):
- median of the rounds' ratios large(i) / small(i) (what bench.py prints);
- ratio of the medians, median(large) / median(small);
- ratio of the minima, min(large) / min(small) (best of r, interleaved).

usage: stability.py [--ddbc PATH] [--floor PATH] [--n N] [--rounds R]
                    [--trials T] [--out DIR] [--save FILE | --load FILE]
                    [-- COMMAND ARGS...]
(COMMAND defaults to lint; the design is appended. --save keeps the times as
JSON, --load reads them back instead of running anything.)
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def design(out, k):
    path = os.path.join(out, f"design-{k}.ddb.yaml")
    if not os.path.exists(path):
        with open(path + ".tmp", "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gen_design.py"), str(k)],
                           stdout=f, check=True)
        os.rename(path + ".tmp", path)
    return path


def old_way(floor, cmd, small, large):
    """best-of-3 growth and x floor, each size's batch after the other's."""
    best = []
    for p in (small, large):
        f = [rounds.run([floor, p])[0] for _ in range(3)]
        c = [rounds.run(cmd + [p])[0] for _ in range(3)]
        best.append((min(f), min(c)))
    return best[1][1] / best[0][1], best[0][1] / best[0][0]


ESTIMATORS = [
    ("median of ratios", lambda a, b: rounds.median([x / y for x, y in zip(a, b)])),
    ("ratio of medians", lambda a, b: rounds.median(a) / rounds.median(b)),
    ("ratio of minima", lambda a, b: min(a) / min(b)),
]


def windows(a, b, r, estimate):
    """estimate(a, b) on each run of r consecutive rounds."""
    return [estimate(a[i:i + r], b[i:i + r]) for i in range(0, len(a) - r + 1, r)]


def line(what, figures):
    lo, hi = min(figures), max(figures)
    return (f"{what:<40}{len(figures):>4}  {rounds.median(figures):6.2f}  {lo:6.2f}  "
            f"{hi:6.2f}  {(hi - lo) / 2 / rounds.median(figures) * 100:5.1f}%")


def report(t):
    print(f"{'figure':<40}{'n':>4}  {'median':>6}  {'min':>6}  {'max':>6}  {'+-':>6}")
    if t["old"]:
        print(line("growth, old best of 3", [g for g, _ in t["old"]]))
        print(line("x floor, old best of 3", [x for _, x in t["old"]]))
    for what, a, b in (("growth", t["large"], t["small"]), ("x floor", t["small"], t["floor"])):
        for name, est in ESTIMATORS:
            for r in (1, 3, 5, 7, 9, 15):
                if r <= len(a) and not (r == 1 and name != ESTIMATORS[0][0]):
                    print(line(f"{what}, {name} of {r}", windows(a, b, r, est)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddbc", default="./ddbc")
    ap.add_argument("--floor", default="bench/yaml_floor")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=45)
    ap.add_argument("--trials", type=int, default=6)
    ap.add_argument("--out", default="bench/out")
    ap.add_argument("--save")
    ap.add_argument("--load")
    ap.add_argument("command", nargs="*", default=["lint"])
    a = ap.parse_args()
    if a.load:
        with open(a.load) as f:
            t = json.load(f)
        print(f"{t['what']}; load {t['load'][0]:.1f} -> {t['load'][1]:.1f}")
        report(t)
        return
    os.makedirs(a.out, exist_ok=True)
    small, large = design(a.out, a.n), design(a.out, 2 * a.n)
    cmd = [a.ddbc] + a.command
    t = {"what": f"{' '.join(a.command)}, {a.n} -> {2 * a.n} entities",
         "load": [os.getloadavg()[0]]}
    print(t["what"], flush=True)
    t["old"] = [old_way(a.floor, cmd, small, large) for _ in range(a.trials)]
    r = rounds.interleave(lambda: rounds.run([a.floor, small]),
                          lambda: rounds.run(cmd + [small]),
                          lambda: rounds.run(cmd + [large]), a.rounds)
    t.update(floor=r.floor, small=r.small, large=r.large)
    t["load"].append(os.getloadavg()[0])
    print(f"load {t['load'][0]:.1f} -> {t['load'][1]:.1f}")
    if a.save:
        with open(a.save, "w") as f:
            json.dump(t, f)
    report(t)


if __name__ == "__main__":
    main()
