#!/usr/bin/env python3
"""capture.py - a stand-in DynamoDB endpoint that records what it is sent.

    capture.py PORTFILE LOG [--throttle N] [--die-after N] [--answer FILE]
               [--fail-with MESSAGE] [--throttle-as 500]

Listens on 127.0.0.1 on a free port (written to PORTFILE), appends each
request as a JSON line to LOG (method, path, headers, body), and answers:
the first N requests with ThrottlingException (HTTP 400, as DynamoDB says
it), then with the JSON of FILE (default {}). With --die-after N it exits
after answering N requests, as an engine killed in the middle of a Scan:
the next connection is refused. --throttle-as 500 makes those first
answers HTTP 500 InternalServerError instead. With --fail-with, every answer is an
UnrecognizedClientException whose message is MESSAGE followed by the
request's headers, as a server quoting a bad request back (the session
token with them): ddbc must not print them.
"""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

args = sys.argv[1:]
portfile, log = args[0], args[1]
opts = dict(zip(args[2::2], args[3::2]))
throttle = int(opts.get("--throttle", "0"))
die_after = int(opts.get("--die-after", "0"))
fail_with = opts.get("--fail-with")
throttle_as = int(opts.get("--throttle-as", "400"))
answer = b"{}"
if "--answer" in opts:
    with open(opts["--answer"], "rb") as f:
        answer = f.read()
count = 0
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_POST(self):
        global count
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n).decode("utf-8", "replace")
        # One request at a time, as the counts and the log are shared by
        # the connections of a parallel Scan.
        with lock:
            self.answer(body)

    def answer(self, body):
        global count
        with open(log, "a") as f:
            f.write(json.dumps({"method": "POST", "path": self.path,
                                "headers": dict(self.headers.items()),
                                "body": body}) + "\n")
        count += 1
        if fail_with is not None:
            status, out = 400, json.dumps({
                "__type": "com.amazon.coral.service#UnrecognizedClientException",
                "message": fail_with + " " + json.dumps(dict(self.headers.items()))}).encode()
        elif count <= throttle and throttle_as == 500:
            status, out = 500, json.dumps({
                "__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                "message": "Internal server error"}).encode()
        elif count <= throttle:
            status, out = 400, json.dumps({
                "__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException",
                "message": "Rate of requests exceeds the allowed throughput."}).encode()
        else:
            status, out = 200, answer
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)
        self.wfile.flush()
        if die_after and count >= die_after:
            os._exit(0)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(portfile + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(portfile + ".tmp", portfile)
server.serve_forever()
