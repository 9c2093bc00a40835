"""A TCP proxy on 127.0.0.1 that a test can cut: the network between one client (a node, a browser) and a
server (the broker, the web app).

    proxy = TcpProxy(("127.0.0.1", broker.port)).start()
    node.transport.port = proxy.port          # the node now reaches the broker through the proxy
    proxy.cut()                               # every connection through it is dropped; new ones are refused
    proxy.restore()                           # connections are accepted and forwarded again
    proxy.silence()                           # nothing is forwarded any more, nothing is closed (half-open)
    proxy.restore()                           # the held bytes and connections go through again
    proxy.stop()

`hold_after(n)`: the server's first `n` bytes (over all connections) reach the client, then nothing more, with
every connection left open (a download that stalls midway; `down` counts the bytes forwarded to clients).

While cut, a connection attempt is accepted and closed at once (as a router with no route answers a SYN with a
reset), so the client sees the link down and backs off on its own schedule; nothing is buffered by the proxy.
`connections` counts the connections forwarded, `refused` those closed while cut.

While silent, the link is half-open, as when a Wi-Fi access point dies or a cable is pulled: no close, no
reset, no byte either way. Open connections stay open with what each side sent left unread; a new connection
is accepted (the kernel completes the handshake) and held without a byte forwarded. Only the peers' own
timeouts can notice. `restore()` forwards again: the held connections are connected to the target then, and
what was sent meanwhile is delivered (unless its sender closed the connection first).
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import struct
import threading

RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() sends a reset


class TcpProxy:
    """Forward 127.0.0.1:<port> to `target` in one thread; `cut()` / `restore()` the link."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._listen = socket.socket()
        self._listen.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listen.bind(("127.0.0.1", 0))
        self._listen.listen(16)
        self._listen.setblocking(False)
        self.port = int(self._listen.getsockname()[1])
        self._sel = selectors.DefaultSelector()
        self._pairs: dict[socket.socket, socket.socket] = {}
        self._lock = threading.Lock()
        self._is_cut = False
        self._cut_request = False
        self._silent = False
        # the loop applies a silence() / restore() it has not yet seen
        self._silence_request: bool | None = None
        self._held: list[socket.socket] = []  # clients accepted while silent, not yet connected to the target
        self._running = False
        self._thread: threading.Thread | None = None
        self.connections = 0
        self.refused = 0
        self.down = 0  # bytes forwarded from the server to clients
        self.limit: int | None = None
        self._upstream: set[socket.socket] = set()

    def start(self) -> TcpProxy:
        self._sel.register(self._listen, selectors.EVENT_READ)
        self._running = True
        self._thread = threading.Thread(target=self._loop, name=f"proxy-{self.port}", daemon=True)
        self._thread.start()
        return self

    @property
    def is_cut(self) -> bool:
        return self._is_cut

    def cut(self) -> None:
        """Drop every forwarded connection now and refuse new ones until `restore()`."""
        with self._lock:
            self._is_cut = True
            self._cut_request = True
        self._drain_cut()

    def hold_after(self, n: int) -> None:
        """Forward at most `n` bytes from the server to clients in all, then hold (connections stay open)."""
        self.limit = n

    @property
    def is_silent(self) -> bool:
        return self._silent

    def silence(self) -> None:
        """Stop forwarding without closing anything (a half-open link); returns once the loop has stopped."""
        with self._lock:
            self._silent = True
            self._silence_request = True
        self._drain_silence()

    def restore(self) -> None:
        """Accept and forward again (after `cut()` or `silence()`)."""
        with self._lock:
            self._is_cut = False
            if self._silent:
                self._silent = False
                self._silence_request = False
        self._drain_silence()

    def stop(self) -> None:
        self._running = False
        if self._thread is not None:
            self._thread.join(5)
        for s in list(self._pairs):
            self._close(s)
        for s in self._held:
            s.close()
        self._sel.close()
        self._listen.close()

    # ------------------------------------------------------------ the loop

    def _drain_cut(self) -> None:
        """Wait until the loop has dropped the connections (cut() returns with the link really down)."""
        for _ in range(500):
            with self._lock:
                if not self._cut_request:
                    return
            threading.Event().wait(0.002)

    def _drain_silence(self) -> None:
        for _ in range(500):
            with self._lock:
                if self._silence_request is None:
                    return
            threading.Event().wait(0.002)

    def _apply_silence(self, silent: bool) -> None:
        """Stop watching the forwarded sockets (they stay open, their bytes unread), or watch them again and
        connect the clients held meanwhile."""
        for s in self._pairs:
            with contextlib.suppress(KeyError, ValueError):
                if silent:
                    self._sel.unregister(s)
                else:
                    self._sel.register(s, selectors.EVENT_READ)
        if not silent:
            held, self._held = self._held, []
            for client in held:
                self._pair(client)

    def _loop(self) -> None:
        while self._running:
            with self._lock:
                if self._cut_request:
                    for s in list(self._pairs):
                        self._close(s)
                    for s in self._held:
                        s.close()
                    self._held = []
                    self._cut_request = False
                if self._silence_request is not None:
                    self._apply_silence(self._silence_request)
                    self._silence_request = None
            for key, _ in self._sel.select(0.02):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if sock is self._listen:
                    self._accept()
                elif sock in self._pairs:
                    self._forward(sock)

    def _accept(self) -> None:
        try:
            client, _ = self._listen.accept()
        except BlockingIOError:
            return
        if self._is_cut:
            self.refused += 1
            with contextlib.suppress(OSError):
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
            client.close()  # linger 0: a reset, as an unreachable network answers
            return
        if self._silent:
            self._held.append(client)  # accepted by the kernel; not a byte either way until restore()
            return
        self._pair(client)

    def _pair(self, client: socket.socket) -> None:
        """Connect `client` to the target and forward between them."""
        try:
            upstream = socket.create_connection(self.target, timeout=2)
        except OSError:
            client.close()
            return
        for s in (client, upstream):
            s.setblocking(False)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._sel.register(s, selectors.EVENT_READ)
        self._pairs[client], self._pairs[upstream] = upstream, client
        self._upstream.add(upstream)
        self.connections += 1

    def _forward(self, sock: socket.socket) -> None:
        peer = self._pairs[sock]
        size = 65536
        if sock in self._upstream and self.limit is not None:
            size = min(size, self.limit - self.down)
            if size <= 0:
                self._sel.unregister(sock)  # held: the server's bytes stay unread, the connection open
                return
        try:
            data = sock.recv(size)
            if data:
                if sock in self._upstream:
                    self.down += len(data)
                peer.setblocking(True)  # small MQTT packets on loopback: a blocking send never waits long
                peer.sendall(data)
                peer.setblocking(False)
                return
        except OSError:
            pass
        self._close(sock)

    def _close(self, sock: socket.socket) -> None:
        peer = self._pairs.pop(sock, None)
        for s in (sock, peer):
            if s is None:
                continue
            self._pairs.pop(s, None)
            self._upstream.discard(s)
            with contextlib.suppress(KeyError, ValueError):
                self._sel.unregister(s)
            with contextlib.suppress(OSError):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
            s.close()
