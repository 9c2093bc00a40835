"""The input log as the hub's worker writes it: each accepted input appended as its record, and the cursor.

The `inputs` table (hub/store/migrations.py) is append-only; a row's id is the *cursor* every published state
carries (how far the log has been read into it). `InputLog` is the one writer of the live hub: the router
appends sensor events, the referee desk and the matches append referee actions, and all of them read the same
cursor. A failed transaction rolls the cursor back with it (`rewind`), or re-reads it from the store
(`reread`).
"""

from __future__ import annotations

from hub.store.database import Store
from hub.vocab.inputs import RefereeAction, SensorInput, input_to_record


class InputLog:
    """Appends inputs as records (hub.vocab.inputs.input_to_record) and keeps the cursor of the newest one."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cursor = store.last_input_id()  # 0: nothing stored yet

    def append_sensor(
        self, table_id: str, match_id: int | None, source: str, inp: SensorInput, suspect: str | None = None
    ) -> int | None:
        """Append a sensor event (marked `suspect` with the reason its time is impossible,
        hub.ingest.timecheck); its cursor, or None if its (device, boot, seq) is stored already (the cursor
        does not move then)."""
        record = input_to_record(inp)
        if suspect is not None:
            record["suspect"] = suspect
        row = self.store.append_sensor(
            table_id, match_id, source, inp.event.key, inp.at_ms, inp.received_ms, record
        )
        if row is not None:
            self.cursor = row
        return row

    def append_action(self, table_id: str, match_id: int | None, action: RefereeAction, now_ms: int) -> int:
        """Append a referee action received at `now_ms`; its cursor."""
        self.cursor = self.store.append_action(table_id, match_id, now_ms, now_ms, input_to_record(action))
        return self.cursor

    def rewind(self, cursor: int) -> None:
        """Back to `cursor` (the transaction that went past it was rolled back)."""
        self.cursor = cursor

    def reread(self) -> None:
        """The cursor as the store has it (after a rollback whose start is not known)."""
        self.cursor = self.store.last_input_id()
