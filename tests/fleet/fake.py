"""fake.py: the fake targets of cprof-collect's tests, one server on a
port of the loopback the system picks, its address written to the file
named by the first argument once it listens.  A target is a path prefix:
http://ADDR/NAME, whose /debug/pprof/... answers as NAME says:

  ok          a small profile.proto, gzip-compressed (made here)
  hop         a redirect to ok on this host and port
  away        a redirect to the same path on another host (127.0.0.2)
  garbage     text, not a profile
  error       HTTP 500 with a message
  slow        nothing for an hour (the collector's timeout ends it)
  big         4 MiB, its length said first (past a --max-bytes of 1 MiB)
  flood       4 MiB, its length not said
  bomb        64 KiB of gzip that inflates to 64 MiB of zeros
  truncated   the first half of ok's gzip stream
  empty       200 and no body
  junkgz      gzip of text, not a profile
  cumflat     a cprof flat that reads, but does not load (cum true)
  file        the file named by the second argument, as it is

Standard library only, as the tests' own."""

import gzip
import http.server
import os
import socketserver
import sys
import time


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, payload):
    """A length-delimited field."""
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, value):
    return varint(num << 3) + varint(value)


def profile():
    """A profile.proto of two functions, fake_heavy 3 samples and
    fake_light 1, in cpu/nanoseconds with a period of 10 ms."""
    strings = ["", "samples", "count", "cpu", "nanoseconds", "fake_heavy", "fake_light"]
    body = field(1, vfield(1, 1) + vfield(2, 2))          # sample_type samples/count
    body += field(1, vfield(1, 3) + vfield(2, 4))         # sample_type cpu/nanoseconds
    body += field(2, field(1, varint(1)) + field(2, varint(3) + varint(30000000)))
    body += field(2, field(1, varint(2)) + field(2, varint(1) + varint(10000000)))
    for i in (1, 2):
        body += field(4, vfield(1, i) + vfield(3, 0x1000 * i) + field(4, vfield(1, i)))
        body += field(5, vfield(1, i) + vfield(2, 4 + i))
    for s in strings:
        body += field(6, s.encode())
    body += field(11, vfield(1, 3) + vfield(2, 4))        # period_type
    body += vfield(12, 10000000)                          # period
    return gzip.compress(body)


OK = profile()
BOMB = gzip.compress(b"\0" * (64 << 20), 9)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, body, headers=()):
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        name, _, rest = self.path.lstrip("/").partition("/")
        if not rest.startswith("debug/pprof/"):
            return self.answer(404, b"not a pprof handler\n")
        if name == "ok":
            return self.answer(200, OK)
        if name == "hop":
            return self.answer(302, b"", [("Location", "/ok/" + rest)])
        if name == "away":
            port = self.server.server_address[1]
            return self.answer(302, b"", [("Location", "http://127.0.0.2:%d/ok/%s" % (port, rest))])
        if name == "garbage":
            return self.answer(200, b"this is not a profile\n")
        if name == "error":
            return self.answer(500, b"the profiler is on fire\n")
        if name == "slow":
            time.sleep(3600)
            return None
        if name == "big":
            return self.answer(200, b"x" * (4 << 20))
        if name == "flood":
            self.send_response(200)
            self.end_headers()
            self.close_connection = True
            chunk = b"x" * 65536
            try:
                for _ in range(64):
                    self.wfile.write(chunk)
            except OSError:
                pass
            return None
        if name == "bomb":
            return self.answer(200, BOMB)
        if name == "truncated":
            return self.answer(200, OK[: len(OK) // 2])
        if name == "junkgz":
            return self.answer(200, gzip.compress(b"this is not a profile\n"))
        if name == "cumflat":
            return self.answer(200, b'{"cprof":"flat","version":1,"by":"function","cum":true,'
                               b'"sources":["x"],"total":10,"other":0,'
                               b'"entries":[{"key":"a","count":10,"p":1}]}\n')
        if name == "file" and len(sys.argv) > 2:
            with open(sys.argv[2], "rb") as f:
                return self.answer(200, f.read())
        if name == "empty":
            return self.answer(200, b"")
        return self.answer(404, b"no such fake target\n")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    tmp = sys.argv[1] + ".tmp"
    with open(tmp, "w") as f:
        f.write("127.0.0.1:%d\n" % server.server_address[1])
    os.rename(tmp, sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
