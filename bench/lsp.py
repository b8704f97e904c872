#!/usr/bin/env python3
"""lsp.py DDBC [N] [EDITS] - `ddbc lsp` on a large design, as an editor drives it

Opens the N-entity design of gen_design.py (10,000 by default), then makes
EDITS incremental edits (100 by default), one at a time: each rewrites one
entity's description (the findings stay the same), and the time from sending the didChange to receiving
its publishDiagnostics is measured. The server's debounce (150 ms) counts
the time of the document's last check: a design whose check takes longer is
checked at once, so the time measured is the check's. The server's
resident memory (VmRSS) is read after the open and after every edit: an
editing session must not grow.

The server's CPU time per edit is measured too: on a shared machine the wall
time is the machine's load as much as the server's work.
Prints one line of figures per phase and a summary; exits 1 when the median
CPU time of an edit is over a second, or when the memory after the
last edit is more than 10% over the memory after the first.
"""
import json
import os
import select
import statistics
import subprocess
import sys
import time

def read_message(proc, buf):
    while True:
        head, sep, rest = buf[0].partition(b"\r\n\r\n")
        if sep:
            n = int(head.split(b":")[1])
            if len(rest) >= n:
                buf[0] = rest[n:]
                return json.loads(rest[:n])
        select.select([proc.stdout], [], [], 60)
        chunk = os.read(proc.stdout.fileno(), 1 << 20)
        if not chunk:
            sys.exit("lsp.py: the server ended")
        buf[0] += chunk


def send(proc, msg):
    msg["jsonrpc"] = "2.0"
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_ms(pid):
    """The server's CPU time so far (user + system): on a loaded machine the
    wall time of a check is the machine's, its CPU time the server's."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def diagnostics(proc, buf, version):
    while True:
        m = read_message(proc, buf)
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == version:
            return m["params"]["diagnostics"]


def main():
    ddbc = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    edits = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    here = os.path.dirname(os.path.abspath(__file__))
    text = subprocess.run([sys.executable, os.path.join(here, "gen_design.py"), str(n)],
                          check=True, capture_output=True, text=True).stdout
    lines = text.split("\n")
    # The entities' descriptions: each edit rewrites one.
    targets = [i for i, l in enumerate(lines) if l.startswith("    description: Generated entity")]
    proc = subprocess.Popen([ddbc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    buf = [b""]
    uri = "file:///bench/design.ddb.yaml"
    send(proc, {"id": 1, "method": "initialize", "params": {"capabilities": {}}})
    read_message(proc, buf)
    send(proc, {"method": "initialized", "params": {}})
    t0 = time.monotonic()
    send(proc, {"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
    found = diagnostics(proc, buf, 1)
    open_ms = (time.monotonic() - t0) * 1000
    rss = [rss_kib(proc.pid)]
    print("open: %d entities, %d lines, %.1f MB: %d findings in %.0f ms, RSS %d KiB"
          % (n, len(lines), len(text) / 1e6, len(found), open_ms, rss[0]))
    latencies, cpu = [], []
    for k in range(edits):
        line = targets[(k * 97) % len(targets)]
        start = len("    description: ")
        change = {"range": {"start": {"line": line, "character": start},
                            "end": {"line": line, "character": len(lines[line])}},
                  "text": "Edited %d times." % (k + 1)}
        lines[line] = lines[line][:start] + change["text"]
        t = time.monotonic()
        c = cpu_ms(proc.pid)
        send(proc, {"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]}})
        d = diagnostics(proc, buf, k + 2)
        latencies.append((time.monotonic() - t) * 1000)
        cpu.append(cpu_ms(proc.pid) - c)
        rss.append(rss_kib(proc.pid))
        if d != found:
            sys.exit("lsp.py: edit %d changed the findings" % k)
    send(proc, {"id": 2, "method": "shutdown"})
    send(proc, {"method": "exit"})
    proc.wait()
    med = statistics.median(latencies)
    print("didChange -> publishDiagnostics over %d edits: median %.0f ms, max %.0f ms, "
          "%d over 1 s" % (edits, med, max(latencies), sum(x > 1000 for x in latencies)))
    print("server CPU per edit: median %.0f ms, max %.0f ms" % (statistics.median(cpu), max(cpu)))
    print("RSS: after open %d KiB, after edit 1 %d KiB, after edit %d %d KiB, peak %d KiB"
          % (rss[0], rss[1], edits, rss[-1], max(rss)))
    ok = statistics.median(cpu) <= 1000 and rss[-1] <= rss[1] * 1.10
    print("lsp bench: %s" % ("ok" if ok else "over the bar"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
