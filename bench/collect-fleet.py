"""collect-fleet.py ADDRFILE: a simulated fleet for bench/collect.bench.
One asyncio server on a port of the loopback the system picks (written to
ADDRFILE once it listens) answers for every target: any path ending in
/debug/pprof/profile?seconds=S answers a small gzip-compressed
profile.proto after S seconds, as a Go service's handler does, so that
thousands of targets cost one process."""

import asyncio
import gzip
import os
import sys
import urllib.parse


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
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, value):
    return varint(num << 3) + varint(value)


def profile():
    """100 samples over 20 functions, in cpu/nanoseconds."""
    strings = ["", "cpu", "nanoseconds"] + ["f%d" % i for i in range(20)]
    body = field(1, vfield(1, 1) + vfield(2, 2))
    for i in range(20):
        body += field(2, field(1, varint(i + 1)) + field(2, varint(5 * 10000000)))
        body += field(4, vfield(1, i + 1) + vfield(3, 0x1000 * (i + 1)) + field(4, vfield(1, i + 1)))
        body += field(5, vfield(1, i + 1) + vfield(2, 3 + i))
    for s in strings:
        body += field(6, s.encode())
    body += field(11, vfield(1, 1) + vfield(2, 2)) + vfield(12, 10000000)
    return gzip.compress(body)


BODY = profile()
HEAD = ("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
        "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BODY)).encode()


async def serve(reader, writer):
    try:
        line = await reader.readline()
        while (await reader.readline()) not in (b"\r\n", b"\n", b""):
            pass
        target = line.split()[1].decode() if len(line.split()) > 1 else "/"
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(target).query)
        await asyncio.sleep(float(query.get("seconds", ["0"])[0]))
        writer.write(HEAD + BODY)
        await writer.drain()
    except (OSError, ValueError, IndexError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=4096)
    port = server.sockets[0].getsockname()[1]
    tmp = sys.argv[1] + ".tmp"
    with open(tmp, "w") as f:
        f.write("127.0.0.1:%d\n" % port)
    os.rename(tmp, sys.argv[1])
    async with server:
        await server.serve_forever()


asyncio.run(main())
