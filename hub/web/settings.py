"""Settings of the web app (defaults fit a club; tests shorten the times)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"


@dataclass(frozen=True)
class WebSettings:
    dashboard: Path = DASHBOARD  # static files (pages, js, css, fonts)
    token_ttl_s: int = 12 * 3600  # a referee token's life
    pin_attempts: int = 5  # wrong PINs per table and client address within `pin_window_s` before a lockout
    # wrong PINs per table from all new devices within the window: new devices wait
    pin_table_attempts: int = 20
    pin_window_s: float = 300.0
    lockout_s: float = 60.0  # the first lockout; it doubles on each further one, up to `lockout_max_s`
    lockout_max_s: float = 900.0
    # Liveness (docs/web-api.md "WebSockets"): a page hears from the hub at least every `heartbeat_s` and
    # shows "no connection" after 4 s of silence (dashboard/js/ws.js SILENCE_MS: keep it above twice this);
    # the hub pings every socket every `ws_ping_s` and drops one that has not answered within
    # `ws_ping_timeout_s` (a half-open link: its slot is freed, hub/web/slots.py).
    heartbeat_s: float = 1.5
    ws_ping_s: float = 5.0
    ws_ping_timeout_s: float = 5.0
    club_min_interval_s: float = 0.1  # /ws/club coalesces changes to at most one message per this
    submit_timeout_s: float = 10.0  # how long a request waits for the hub to commit an action
    # What one hostile client on the club LAN can hold (docs/security.md, "The web app under attack"):
    max_ws_clients: int = 200  # live sockets in all (hub/web/slots.py)
    max_ws_per_address: int = 8  # live sockets of one client address (the Pi's own kiosk is not limited)
    ws_reserved: int = 40  # of `max_ws_clients`, only for the kiosk and referee panels with their token
    max_connections: int = 512  # open HTTP connections in all (hub/web/guard.py; the kiosk is not limited)
    max_connections_per_address: int = 32
    header_timeout_s: float = 10.0  # a request's line and headers must arrive within this
    body_timeout_s: float = 10.0  # and each part of its body within this
    max_body_bytes: int = 64 * 1024  # a request body (a referee action is under 1 KiB)
    # the hub's address for the panel QR code (default: the address the board used)
    public_url: str | None = None
