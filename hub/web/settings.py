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
    pin_table_attempts: int = 20  # wrong PINs per table from all new devices within the window: new devices wait
    pin_window_s: float = 300.0
    lockout_s: float = 60.0  # the first lockout; it doubles on each further one, up to `lockout_max_s`
    lockout_max_s: float = 900.0
    heartbeat_s: float = 5.0  # WebSocket heartbeat period
    club_min_interval_s: float = 0.1  # /ws/club coalesces changes to at most one message per this
    submit_timeout_s: float = 10.0  # how long a request waits for the hub to commit an action
    max_ws_clients: int = 200
    public_url: str | None = None  # the hub's address for the panel QR code (default: the address the board used)
