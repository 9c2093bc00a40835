"""WebSocket slots: no client on the club LAN can take every live connection and leave the screens offline.

Three limits, checked when a socket opens (`Slots.take`), released when it closes:

- **per address**: one client address (a phone, a laptop) holds at most `per_address` sockets; a board, a
  panel and the club view in a few tabs need far fewer;
- **a total cap** (`total`): the hub's memory and event loop stay bounded whatever the number of clients;
- **reserved**: the last `reserved` slots of the total are only for the screens that run the match — the wall
  board on the Pi itself (a loopback address: the kiosk) and referee panels that present their table's token
  (`?token=` on /ws/tables/{table}). Everyone else shares the rest.

The Pi's own loopback clients are not limited per address: they are the kiosk, and a process on the Pi is
already past every line of defence here.
"""

from __future__ import annotations

import ipaddress
import threading
from collections import Counter
from dataclasses import dataclass

from hub.errors import BUSY, ErrorBody


def is_loopback(address: str | None) -> bool:
    """True for the Pi's own clients (127.0.0.1, ::1, ::ffff:127.0.0.1) — the wall screen's kiosk."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip == ipaddress.ip_address("127.0.0.1") or ip == ipaddress.ip_address("::1")


@dataclass(frozen=True)
class Refusal:
    """Why a socket was refused: the reason in English and Russian and a counter's label."""

    reason: str
    label: str
    ru: str

    @property
    def body(self) -> ErrorBody:
        """What the socket is told before its close (hub.errors: the body every channel gives)."""
        return ErrorBody(BUSY, self.reason, self.ru)


PER_ADDRESS = Refusal(
    "too many live connections from this address; close another tab or screen",
    "per_address",
    "слишком много подключений с этого адреса; закройте другую вкладку или экран",
)
FULL = Refusal(
    "too many live connections to the hub; try again in a minute",
    "total",
    "к хабу подключено слишком много клиентов; попробуйте через минуту",
)


class Slots:
    """Counts of open sockets per client address, with the limits above.
    Thread-safe (used on the event loop)."""

    def __init__(self, total: int, per_address: int, reserved: int) -> None:
        self.total, self.per_address, self.reserved = total, per_address, min(reserved, total)
        self.open = 0
        self.refused: Counter[str] = Counter()
        self._by_address: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, address: str | None, screen: bool) -> Refusal | None:
        """Take a slot for a client at `address`; `screen`:
        the kiosk or a panel with its token. None = taken."""
        addr = address or "?"
        local = is_loopback(address)
        with self._lock:
            if not local and self._by_address[addr] >= self.per_address:
                refusal: Refusal | None = PER_ADDRESS
            elif self.open >= (self.total if (screen or local) else self.total - self.reserved):
                refusal = FULL
            else:
                refusal = None
                self.open += 1
                self._by_address[addr] += 1
            if refusal is not None:
                self.refused[refusal.label] += 1
        return refusal

    def release(self, address: str | None) -> None:
        addr = address or "?"
        with self._lock:
            self.open -= 1
            self._by_address[addr] -= 1
            if self._by_address[addr] <= 0:
                del self._by_address[addr]
