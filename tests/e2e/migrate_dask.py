#!/usr/bin/env python3
"""migrate_dask.py - one `ddbc migrate` spread over a Dask cluster by Scan segment

usage: migrate_dask.py [--workers W] [--segments N] -- MIGRATE-ARGS...

Runs `ddbc migrate MIGRATE-ARGS --segment I --segments N --checkpoint
ck-I.json` for I in 0..N-1 as tasks of a Dask LocalCluster of W workers
(Debian's python3-distributed); a task that fails can be run again and
resumes from its checkpoint. Prints each segment's summary and the sum;
exits 1 when a segment failed. For a cluster of machines, give
Client("scheduler:8786") instead of the LocalCluster: each worker needs
ddbc on its PATH. DDBC names the executable (default: ddbc).
"""
import os
import re
import subprocess
import sys

from dask.distributed import Client, LocalCluster


def segment(ddbc, args, i, n):
    r = subprocess.run([ddbc, "migrate", *args, "--segment", str(i), "--segments", str(n),
                        "--checkpoint", f"ck-{i}.json"], capture_output=True, text=True)
    return i, r.returncode, (r.stderr.strip().splitlines() or [""])[-1]


def main(argv):
    workers, n = 2, 4
    while argv and argv[0] != "--":
        opt, value = argv.pop(0), int(argv.pop(0))
        if opt == "--workers":
            workers = value
        else:
            n = value
    args = argv[1:]
    ddbc = os.environ.get("DDBC", "ddbc")
    totals = [0, 0, 0, 0]
    worst = 0
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        futures = client.map(segment, [ddbc] * n, [args] * n, range(n), [n] * n)
        for i, rc, line in client.gather(futures):
            print(f"segment {i}: {line}")
            worst = max(worst, rc)
            m = re.search(r"(\d+) read, (\d+) \w+(?: \w+)?, (\d+) skipped, (\d+) failed", line)
            if m:
                totals = [t + int(x) for t, x in zip(totals, m.groups())]
    print("all: %d read, %d written, %d skipped, %d failed" % tuple(totals))
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
