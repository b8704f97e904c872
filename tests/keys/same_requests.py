"""same_requests.py - each language's pattern requests are the queries export's

usage: python3 same_requests.py vectors.json LANG=REQUESTS.json...

vectors.json holds, per pattern, the export's request for the example
arguments; each REQUESTS.json what one language's request function returned
for them. Any difference is printed; exits 1 when there is one.
"""
import json
import sys


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        want = {r["func"]: r["input"] for r in json.load(f)["requests"]}
    bad = 0
    for arg in sys.argv[2:]:
        lang, path = arg.split("=", 1)
        with open(path, encoding="utf-8") as f:
            got = json.load(f)
        for func, request in want.items():
            if got.get(func) != request:
                print(f"{lang}: {func} returns {json.dumps(got.get(func))},"
                      f" the export {json.dumps(request)}")
                bad += 1
    return 1 if bad else 0


sys.exit(main())
