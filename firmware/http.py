"""A small HTTP/1.0 GET client that never blocks the node: the update's way to fetch files from the hub.

Runs on MicroPython and CPython (virtual nodes). The socket is non-blocking from before its connect, like the
MQTT client's (firmware/mqtt.py); every wait is `await sleep_ms(poll_ms)`, so the detector loop, the link and
the watchdog go on while a file arrives. Each stage has a deadline measured from the last byte that moved
(`timeout_ms`): a hub that stops answering is an `OSError`, as a refused or reset connection is.

    status = await get(host, port, "/ota/p3/r1/manifest", {"X-Luza-Auth": "..."}, sink, sleep_ms)

`sink(piece)` gets the body as it arrives, in memoryview pieces of one read buffer (`chunk` bytes, or the
caller's `buf`): no allocation per piece; it returns False to stop (a body larger than the caller wants). The
status code comes back; the body of a non-200 answer is not passed on. Use an IP address for the hub: a DNS
lookup is the one blocking call.
"""

from firmware.compat import ticks_diff, ticks_ms

MAX_HEAD = 2048  # bytes of status line and headers
_BUSY = (11, 115, 119, 110, 118, 107, 128)  # "not yet" on a non-blocking socket (see firmware/mqtt.py)


def _open_tcp(host, port):
    import socket

    addr = socket.getaddrinfo(host, port)[0][-1]
    sock = socket.socket()
    sock.setblocking(False)
    try:
        sock.connect(addr)
    except OSError as exc:
        if exc.args[0] not in _BUSY:
            sock.close()
            raise
    return sock


def request(host, path, headers):
    lines = ["GET " + path + " HTTP/1.0", "Host: " + host]
    for k in headers:
        lines.append(k + ": " + headers[k])
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def parse_head(head):
    """(status, content length or -1) from the bytes before the blank line; OSError if it is not HTTP."""
    text = bytes(head).decode()
    first = text.split("\r\n")[0].split(" ")
    if len(first) < 2 or not first[0].startswith("HTTP/") or not first[1].isdigit():
        raise OSError("http: not an HTTP answer")
    length = -1
    for line in text.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length" and value.strip().isdigit():
            length = int(value.strip())
    return int(first[1]), length


class _Conn:
    """One exchange on a non-blocking socket, with the progress deadline."""

    def __init__(self, sock, sleep_ms, timeout_ms, poll_ms, ticks):
        self.sock = sock
        self.sleep_ms = sleep_ms
        self.timeout_ms = timeout_ms
        self.poll_ms = poll_ms
        self.ticks = ticks
        self.moved = ticks()

    async def wait(self, what):
        if ticks_diff(self.ticks(), self.moved) > self.timeout_ms:
            raise OSError("http: no progress for %d ms (%s)" % (self.timeout_ms, what))
        await self.sleep_ms(self.poll_ms)

    async def send(self, data):
        view = memoryview(data)
        while len(view):
            try:
                n = self.sock.send(view)
            except OSError as exc:
                if exc.args[0] not in _BUSY:
                    raise
                n = 0
            if n:
                view = view[n:]
                self.moved = self.ticks()
            else:
                await self.wait("sending")

    async def recv(self, buf):
        """Read into `buf`: the byte count (0 at the end of the stream). The body's bytes never get a new
        object: MicroPython's non-blocking `readinto` answers None for "not yet",
        CPython's `recv_into` raises EAGAIN."""
        into = getattr(self.sock, "readinto", None) or self.sock.recv_into
        while True:
            try:
                n = into(buf)
            except OSError as exc:
                if exc.args[0] not in _BUSY:
                    raise
                n = None
            if n is not None:
                self.moved = self.ticks()
                return n
            await self.wait("receiving")


async def get(
    host,
    port,
    path,
    headers,
    sink,
    sleep_ms,
    timeout_ms=10000,
    poll_ms=5,
    chunk=512,
    opener=None,
    ticks=None,
    buf=None,
):
    """GET `path`; the body goes to `sink` (memoryview pieces of `buf`, valid during the call); returns the
    status code. OSError on any network fault. `buf`: the caller's read buffer
    (default `chunk` bytes, made here)."""
    sock = (opener or _open_tcp)(host, port)
    conn = _Conn(sock, sleep_ms, timeout_ms, poll_ms, ticks or ticks_ms)
    buf = buf or bytearray(chunk)
    mv = memoryview(buf)
    try:
        await conn.send(request(host, path, headers))
        head = b""
        while True:
            n = await conn.recv(buf)
            if not n:
                raise OSError("http: connection closed before the answer")
            head += bytes(mv[:n])
            cut = head.find(b"\r\n\r\n")
            if cut >= 0:
                break
            if len(head) > MAX_HEAD:
                raise OSError("http: headers too long")
        status, length = parse_head(head[:cut])
        if status != 200:
            return status
        body = memoryview(head)[cut + 4 :]
        got = len(body)
        if got and sink(body) is False:
            return status
        while length < 0 or got < length:
            n = await conn.recv(buf)
            if not n:
                if length >= 0:
                    raise OSError("http: connection closed after %d of %d bytes" % (got, length))
                return status
            got += n
            if sink(mv[:n]) is False:
                return status
        return status
    finally:
        sock.close()
