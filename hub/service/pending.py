"""Referee actions handed to the worker and not yet answered, by what they do: one tap is applied once however
long a commit outage lasts.

A panel that never got an answer sends the action again with the same uid (applied once: hub.service.referee).
A second press, or a panel reloaded meanwhile, sends it with a NEW uid: the same effect twice (a ball added
twice). While the first is pending (in the queue, or in a batch the store keeps refusing), an action with the
same effect (`hub.vocab.inputs.effect_key`: kind and fields) and another uid is refused at once with the
reason; once the first is answered, the same action is a new tap again
(a second ball into the same pocket is legal).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future

from hub.service.batch import RefereeReply
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import effect_key


def _uid(action: Mapping[str, object]) -> str | None:
    uid = action.get("uid")
    return uid if isinstance(uid, str) else None


class PendingActions:
    """(table, effect) -> the uid, the answer's future and the time of the action waiting for its commit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[tuple[str, str], tuple[str | None, Future[RefereeReply], float]] = {}

    def claim(
        self, table: str, action: Mapping[str, object], fut: Future[RefereeReply]
    ) -> RefereeInputError | None:
        """Note `action` as pending until `fut` is answered, or the refusal if the same effect is pending
        already under another uid (the same uid again is a retry of the same tap:
        it goes through and is applied once)."""
        effect = effect_key(action) if isinstance(action, Mapping) else None
        if effect is None:
            return None
        key, uid = (table, effect), _uid(action)
        with self._lock:
            held = self._held.get(key)
            if held is not None and not held[1].done():
                if uid is not None and uid == held[0]:
                    return None
                return self._refusal(str(action.get("kind")), time.monotonic() - held[2])
            self._held[key] = (uid, fut, time.monotonic())
        fut.add_done_callback(lambda f: self._release(key, f))
        return None

    def _release(self, key: tuple[str, str], fut: Future[RefereeReply]) -> None:
        with self._lock:
            held = self._held.get(key)
            if held is not None and held[1] is fut:
                del self._held[key]

    @staticmethod
    def _refusal(kind: str, waited_s: float) -> RefereeInputError:
        return RefereeInputError(
            f"the same '{kind}' sent {waited_s:.0f} s ago is still waiting to be stored; it will be applied "
            f"once. Wait for it to show; send it again only if you mean it a second time",
            f"такое же действие '{kind}', отправленное {waited_s:.0f} с назад, ещё ждёт сохранения; оно "
            f"будет применено один раз. Дождитесь его; повторите, только если нужно второе такое же",
            "uid",
        )
