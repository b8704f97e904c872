"""moto_server.py - moto's DynamoDB on 127.0.0.1, for as long as stdin is open

usage: python3 moto_server.py < FIFO > URL

Prints the endpoint (http://127.0.0.1:PORT, a port the system picks) and
serves until stdin ends: tests/keys.test holds it open while the engine
tests run and closes it (or exits) to stop the server.
"""
import logging
import sys

from moto.server import ThreadedMotoServer


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        print(f"http://{host}:{port}", flush=True)
        sys.stdin.read()
    finally:
        server.stop()


main()
