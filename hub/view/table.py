"""`TableView`: one table as it leaves the hub (the retained MQTT `luza/v1/<table>/state`, the WebSocket's
`state` message, `GET /api/tables/{table}/state`; docs/web-api.md, "Table state envelope"), and `DeviceView`,
a node as the screens show it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from hub.view.base import View, omitted_if_none
from hub.view.match import MatchView
from hub.vocab.alerts import HubAlert


class OtaView(View):
    """A node's over-the-air update, as its status said (luza_wire/ota.py: only the keys it sent)."""

    st: Literal["fetch", "staged", "trial", "ok", "rolled_back", "refused"]
    r: str | None = omitted_if_none("the release")
    to: str | None = omitted_if_none()
    err: str | None = omitted_if_none()
    n: int | None = omitted_if_none("bytes or files done")
    of: int | None = omitted_if_none()


class DeviceView(View):
    """A node: the registry's view plus its configured pockets, the seat a cue plays for in the current match, a
    jam the live match saw, and silence (online but not heard lately)."""  # noqa: E501

    device: str
    table: str | None
    role: str | None  # pocket | cue; None for a node that is not in luza.toml
    pockets: list[int]
    seat: int | None
    state: str  # online | offline | lost | error | unknown
    online: bool
    last_seen_ms: int | None
    fw: str
    battery: int | float | None  # as the node sent it (an int stays an int in the JSON)
    rssi: int | float | None
    outbox: int | float | None  # telemetry numbers, as the node sent them (luza_wire: any number in range)
    dropped: int | float | None
    rejected: int
    jam: bool
    ota: OtaView | None
    silent: bool


class TableView(View):
    """A table: its live match, the final board of the last one, the hub's alerts and its devices, stamped with
    the revision, the hub's boot and time."""  # noqa: E501

    v: int = Field(description="luza_wire.protocol.STATE_VERSION")
    table: str
    name: str
    club: str
    cursor: int  # the last stored input row (the global cursor) at this state
    match_id: int | None
    match: MatchView | None
    last_match: MatchView | None  # kept until the next match starts on the table
    alerts: list[HubAlert]
    devices: list[DeviceView]
    rev: int  # +1 on every change of this table; from 1 at each hub start: compare `boot` first
    boot: str
    hub_ms: int
    pin_set: bool | None = omitted_if_none("the web only: whether the table has a referee PIN")


# A table's state as JSON, `TableView.model_dump(mode="json")`: what the retained MQTT state, the WebSocket
# and REST carry, what `Hub.state` gives, and what the demo's panel client and the tests index as JSON. Its
# shape is TableView's, published as docs/table-view.schema.json (a reader wanting fields validates it).
TableStateJSON = dict[str, Any]
