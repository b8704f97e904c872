#!/usr/bin/env python3
"""moto_export.py - the export end-to-end check (dynalite.mjs) on moto

usage: moto_export.py NODE DYNALITE_MJS ARGS...

Starts moto's server on a free port of 127.0.0.1, in this process, and runs
dynalite.mjs with ARGS and --endpoint pointing at it. moto holds
multi-attribute GSI keys, which dynalite lacks, so the patterns dynalite
skips are run here. Exits with dynalite.mjs's status.
"""
import logging
import subprocess
import sys

from moto.server import ThreadedMotoServer


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    # One log line per request would bury the checks' own lines.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        return subprocess.run([argv[0], argv[1], *argv[2:], "--endpoint",
                               f"http://{host}:{port}"]).returncode
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
