"""rounds.py - CPU figures that the load of a shared machine does not flip.

A figure taken from two separate batches of runs (best of three of size N,
then best of three of 2N) compares two moments of the machine: a neighbour's
build starting between the batches moved the best-of-3 growth of one command
from x1.46 to x2.63. Here every figure is a ratio of two runs made next to
each other, and the figure printed is the median of those ratios over the
rounds, with their spread:
- a round runs the floor on N, the command on N and the command on 2N, back
  to back, the next round in the opposite order (so a load that rises or
  falls through the rounds weighs on both sizes alike);
- the ratio to the floor of a round is command(N) / floor(N), its growth
  command(2N) / command(N); both are taken inside the round;
- the median of the rounds' ratios is the figure: one round that a
  neighbour hit moves the median by one place, not the figure itself;
- the spread is the median's 90% confidence interval, distribution-free
  (order statistics: with 5 or 7 rounds their whole range, with 9 all but
  the extremes), printed as +- half its width relative to the median;
- a figure is decided when that interval lies on one side of its bar;
  while a figure is not, the caller may run more rounds (interleave's
  unsure and most), so rounds are spent where the load blurs a figure near
  its bar and nowhere else.
Peak memory is the largest of the rounds' (GNU time's %M), at each size.
"""
import math
import os
import subprocess
import sys
import tempfile

# A child's peak resident memory (ru_maxrss) counts the memory of the process
# it was forked from, before its exec: this script's, some 14 MiB, which hid
# the fixed overhead of small designs. GNU time, a small process, forks the
# command and reports the command's own peak.
GNU_TIME = "/usr/bin/time"


def run(argv, env=None, timeout=300, ok_codes=(0,)):
    """CPU seconds (user + system) and peak RSS (KiB) of one run of argv.
    A run past timeout seconds counts as infinitely slow."""
    peak_file = None
    argv = ["timeout", str(timeout)] + argv
    if os.access(GNU_TIME, os.X_OK):
        fd, peak_file = tempfile.mkstemp(prefix="bench-peak-")
        os.close(fd)
        argv = [GNU_TIME, "-f", "%M", "-o", peak_file] + argv
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, env=env)
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


def median(values):
    v = sorted(values)
    n = len(v)
    if not n:
        return float("nan")
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


# The confidence of the interval a figure is given with.
LEVEL = 0.9


def interval(values, level=LEVEL):
    """The distribution-free confidence interval of the median: the order
    statistics x(k+1)..x(n-k) cover it with chance 1 - 2 P(B <= k), B the
    number of values under the median (binomial n, 1/2); the narrowest that
    reaches level, or the whole range when n is too small to."""
    v = sorted(values)
    n, best, below = len(v), 0, 0.0
    for k in range(n // 2):
        below += math.comb(n, k) / 2 ** n
        if 1 - 2 * below < level:
            break
        best = k
    return v[best], v[n - 1 - best]


def spread(values):
    """Half the width of the median's interval, as a fraction of the median."""
    m = median(values)
    if not values or not m or m == float("inf"):
        return float("nan")
    lo, hi = interval(values)
    return (hi - lo) / 2 / m


def decide(values, bar):
    """'ok' when the median's interval lies within bar, 'over' when above it,
    'unsure' when bar lies inside it."""
    lo, hi = interval(values)
    return "ok" if hi <= bar else ("over" if lo > bar else "unsure")


def ratio(a, b):
    return a / b if b else float("inf")


class Rounds:
    """The times of the rounds: floor[i], small[i], large[i] (CPU seconds) and
    the largest peak RSS (KiB) of the command at each size."""

    def __init__(self):
        self.floor, self.small, self.large = [], [], []
        self.peak = [0, 0]

    def ratios(self):
        """command(N) / floor(N) of each round."""
        return [ratio(s, f) for s, f in zip(self.small, self.floor)]

    def growths(self):
        """command(2N) / command(N) of each round."""
        return [ratio(l, s) for l, s in zip(self.large, self.small)]

    def cpu(self):
        """The median CPU time of the command on N."""
        return median(self.small)


def interleave(floor, small, large, runs, unsure=None, most=0):
    """runs rounds of floor, small and large (each a function of nothing that
    runs once and gives (CPU seconds, peak KiB); the floor's peak is not
    kept), in alternating order. One that is None is not run (its times are 0).
    Then, while unsure(rounds) holds (a bar inside a figure's interval), a
    round more, up to most rounds: a quiet machine decides in runs rounds, a busy
    one spends more only on the figures near their bar."""
    r = Rounds()
    i = 0
    while i < runs or (unsure and i < most and unsure(r)):
        i += 1
        order = [("floor", floor), ("small", small), ("large", large)]
        if i % 2 == 0:
            order.reverse()
        got = {}
        for what, f in order:
            got[what] = f() if f else (0.0, 0)
        r.floor.append(got["floor"][0])
        r.small.append(got["small"][0])
        r.large.append(got["large"][0])
        r.peak = [max(r.peak[0], got["small"][1]), max(r.peak[1], got["large"][1])]
    return r


def figure(values, suffix="x", prefix=""):
    """A median and its spread as one cell: 1.99x+-3% (ASCII, for any locale)."""
    m, s = median(values), spread(values)
    if m == float("inf"):
        return "inf"
    cell = f"{prefix}{m:.2f}{suffix}"
    return cell if s != s else f"{cell}+-{s * 100:.0f}%"
