#!/usr/bin/env python3
"""gen_sparse.py N [EVERY] - a clean single-table design of N entities with a sparse GSI.

The design of gen_design.py N 1 N (one table), where only every EVERY-th
entity (default 20), counted from the last, sets GSI1's keys and has the
pattern that queries it: the others stay out of GSI1. The first entities
of the table lack GSI1's key attributes, so a key type looked up by a scan
of the table's entities costs a scan of most of them; the documentation's
view of GSI1 and its patterns grow with the members, the rest of the
design with N.
"""
import re
import subprocess
import sys
from pathlib import Path


def main():
    n = int(sys.argv[1])
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    gen = Path(__file__).with_name("gen_design.py")
    text = subprocess.run([sys.executable, str(gen), str(n), "1", str(n)], check=True,
                          capture_output=True, text=True).stdout
    out, entity, skip = [], None, False
    for line in text.split("\n"):
        m = re.match(r"  Entity(\d{5})(-by-state|-by-owner)?:$", line)
        if m:
            entity = int(m.group(1))
            member = (n - 1 - entity) % every == 0
            skip = m.group(2) == "-by-state" and not member
        elif re.match(r"  \S", line) or not line.startswith(" "):
            skip = False
        if skip:
            continue
        if entity is not None and (n - 1 - entity) % every and \
                re.match(r"\s+(- )?GSI1(PK|SK):", line):
            continue
        out.append(line)
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
