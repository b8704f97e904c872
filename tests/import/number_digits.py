#!/usr/bin/env python3
"""numbers.py - does every Number sample of a Workbench model keep its digits?

usage: number_digits.py SOURCE.json OUTPUT...
Reads the model's sample items (table and facet TableData) itself, collects
the text of every N and NS value of the items that are valid DynamoDB JSON,
and checks that each appears digit for digit, as a whole token, in every
OUTPUT (the imported design, its exports, its docs). Exit 1 names the
first number missing.
"""
import json
import re
import sys

NUM = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def numbers(av, out):
    """Appends the number texts of attribute value av; False when invalid."""
    if not isinstance(av, dict) or len(av) != 1:
        return False
    (t, v), = av.items()
    if t == "N":
        if not isinstance(v, str) or not NUM.match(v):
            return False
        out.append(v)
    elif t == "NS":
        if not isinstance(v, list) or not all(isinstance(x, str) and NUM.match(x) for x in v):
            return False
        out.extend(v)
    elif t == "M":
        return isinstance(v, dict) and all(numbers(x, out) for x in v.values())
    elif t == "L":
        return isinstance(v, list) and all(numbers(x, out) for x in v)
    return True


def main():
    model = json.load(open(sys.argv[1]))
    found = []
    for table in model.get("DataModel", []):
        items = list(table.get("TableData", []))
        for facet in table.get("TableFacets", []):
            items += facet.get("TableData", [])
        for item in items:
            mine = []
            if isinstance(item, dict) and all(numbers(v, mine) for v in item.values()):
                found += mine
    for path in sys.argv[2:]:
        text = open(path).read()
        for n in found:
            # A JSON or YAML writer may drop a '+' or add a leading 0 (".5");
            # the digits must stay.
            want = n.lstrip("+")
            if want.startswith("."):
                want = "0" + want
            if not re.search(r"(?<![\w.+-])" + re.escape(want) + r"(?![\w.])", text):
                print("%s: Number %s of %s is not there digit for digit" % (path, n, sys.argv[1]))
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
