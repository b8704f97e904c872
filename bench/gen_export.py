#!/usr/bin/env python3
"""Writes a DynamoDB export to S3, as downloaded, from an export-lines file.

usage: gen_export.py --files N LINES DIR

LINES is export lines ({"Item": {...}} per line, gen_items.py --shape export);
DIR receives AWSDynamoDB/ID/manifest-summary.json, manifest-files.json and
data/NAME.json.gz, the lines dealt round-robin over N gzip data files (an
export writes one file or more per partition, items hashed over them), in
the layout AWS documents. Deterministic: gzip headers carry no time.
"""
import argparse
import gzip
import hashlib
import base64
import json
import os

EXPORT_ID = "01717171717171-b3nch000"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("lines")
    ap.add_argument("dir")
    a = ap.parse_args()
    base = os.path.join(a.dir, "AWSDynamoDB", EXPORT_ID)
    os.makedirs(os.path.join(base, "data"), exist_ok=True)
    names = ["%08x%024d.json.gz" % (i * 2654435761 % (1 << 32), i) for i in range(a.files)]
    outs = [gzip.GzipFile(os.path.join(base, "data", n), "wb", compresslevel=6, mtime=0)
            for n in names]
    counts = [0] * a.files
    with open(a.lines, "rb") as f:
        for i, line in enumerate(f):
            outs[i % a.files].write(line)
            counts[i % a.files] += 1
    for o in outs:
        o.close()
    with open(os.path.join(base, "manifest-files.json"), "w") as f:
        for n, c in zip(names, counts):
            data = open(os.path.join(base, "data", n), "rb").read()
            f.write(json.dumps({
                "itemCount": c,
                "md5Checksum": base64.b64encode(hashlib.md5(data).digest()).decode(),
                "etag": hashlib.md5(data).hexdigest() + "-1",
                "dataFileS3Key": "bench/AWSDynamoDB/%s/data/%s" % (EXPORT_ID, n)}) + "\n")
    summary = {"version": "2020-06-30", "exportArn": "arn:aws:dynamodb:us-east-1:123456789012:"
               "table/line-event/export/" + EXPORT_ID,
               "tableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/line-event",
               "s3Bucket": "bench", "s3Prefix": "bench",
               "manifestFilesS3Key": "bench/AWSDynamoDB/%s/manifest-files.json" % EXPORT_ID,
               "itemCount": sum(counts), "outputFormat": "DYNAMODB_JSON"}
    with open(os.path.join(base, "manifest-summary.json"), "w") as f:
        f.write(json.dumps(summary, indent=2) + "\n")
    print("%s: %d items in %d files" % (base, sum(counts), a.files))


if __name__ == "__main__":
    main()
