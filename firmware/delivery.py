"""End-to-end delivery on the node: an event leaves the outbox only when the *hub* has stored it.

Runs on MicroPython and CPython (no I/O of its own; the link publishes what `next()` hands out). The broker's
PUBACK is not enough: a broker that crashes (or restarts without persistence) loses what it acknowledged. So:

- `next(n)` walks the outbox with a send cursor and hands out the next entries to publish, in order. Each sent
  entry is remembered by its (boot, seq) until the hub confirms it; at most `max_unconfirmed` are out at once
  (the node's RAM for keys, and the size of a re-send after a failure).
- `stored` (hub -> node, `{"c": "stored", "b": boot, "s": mark}`): the hub has committed every seq 1..mark of
  that boot (the contiguous high-water mark). Entries up to it leave the outbox (`outbox.ack`). The hub sends
  it after the commits that moved it, at most about once a second per node, and when a re-sent event shows
  that the node did not hear the last one.
- After a reconnect every unconfirmed entry is sent again, in order (the hub de-duplicates on (device, boot,
  seq)). So is it when no mark has moved for `confirm_ms` while entries wait (a message lost without the
  connection dropping, e.g. a broker queue limit); that timeout doubles up to `confirm_max_ms` while nothing
  moves, so a hub that is away for long is not flooded with copies.
- `resend` (hub -> node, `{"c": "resend", "b": boot, "lo": first, "hi": last}`): the hub saw a hole. What the
  outbox still holds of that range goes again (the cursor moves back to it); the node answers on `ans` with
  the seqs it no longer has (`gone`: released, or dropped when the outbox overflowed), so the hub can tell the
  referee the hole is final instead of waiting for it.
"""

from luza_wire import node_events, resend

MAX_MARK_BOOTS = 8  # boots whose marks are remembered (this one, and older ones still draining from flash)
SCAN = 32  # entries read at a time when a `resend` looks through the outbox
_SEND, _SKIP, _WAIT = 0, 1, 2


class Delivery:
    """The node's side of end-to-end delivery. See the module docstring."""

    def __init__(
        self, outbox, clock, boot, answer, confirm_ms=10000, confirm_max_ms=160000, max_unconfirmed=256
    ):
        self.outbox = outbox
        self.clock = clock
        self.boot = boot
        self._answer = answer  # function(payload bytes): publish an `ans`
        self.confirm_ms = confirm_ms
        self.confirm_max_ms = confirm_max_ms
        self.max_unconfirmed = max_unconfirmed
        self.produced = None  # function -> the highest seq this boot has produced (set by the node)
        self.released = 0  # entries the hub confirmed
        self.resent = 0  # entries published again (reconnect, timeout, resend)
        self.timeouts = 0
        self.gone = 0  # seqs reported gone to a `resend`
        self._keys = {}  # oid -> (boot, seq, clock offset at the first send): sent, not yet confirmed
        self._marks = {}  # boot -> the hub's stored mark
        self._cursor = 0  # the highest oid handed out in this pass
        self._top = 0  # the highest oid ever sent: past it, only new entries
        self._wait = confirm_ms
        self._since = clock.uptime()  # when the last mark moved (or the wait began)

    @property
    def unconfirmed(self):
        """Entries sent and not yet confirmed by the hub."""
        return len(self._keys)

    def mark(self, boot):
        """The hub's stored mark for `boot` as last heard (0: none)."""
        return self._marks.get(boot, 0)

    # ------------------------------------------------------------ sending

    def next(self, n):
        """Up to `n` (oid, payload) to publish now, in outbox order; the cursor moves past them. An event
        recorded before the time sync goes out restamped onto the hub clock (`node_events.restamp_event`) with
        the offset of its first send, every time: a re-send carries the same bytes, so the hub sees a
        duplicate, not a conflict."""
        out = []  # type: list
        if len(self._keys) >= self.max_unconfirmed and self._cursor >= self._top:
            return out  # nothing to re-send and no room for new ones: do not even read the outbox (flash)
        while len(out) < n:
            batch = self.outbox.after(self._cursor, n - len(out))
            if not batch:
                break
            for oid, entry in batch:
                if oid in self._keys:
                    self.resent += 1
                    entry = node_events.restamp_event(entry, self.boot, self._keys[oid][2])
                else:
                    verdict = self._admit(oid, entry)
                    if verdict == _WAIT:
                        return out
                    if verdict == _SKIP:
                        self._cursor = oid
                        continue
                    if oid in self._keys:
                        entry = node_events.restamp_event(entry, self.boot, self._keys[oid][2])
                self._cursor = oid
                out.append((oid, entry))
        return out

    def _admit(self, oid, entry):
        """An entry not sent before: _SEND it (remembering its key), _SKIP it (the hub has it already:
        released now), or _WAIT (too many unconfirmed).
        An unreadable entry is sent once and let go: the hub rejects it."""
        if len(self._keys) >= self.max_unconfirmed:
            return _WAIT
        key = node_events.event_key(entry)
        if key is None:
            self.outbox.ack(oid)
            return _SEND
        if key[1] <= self._marks.get(key[0], 0):
            self.outbox.ack(oid)
            self.released += 1
            return _SKIP
        if not self._keys:
            self._since = self.clock.uptime()  # the wait for a confirmation starts with the first one out
        # the offset of its first send, for every re-send
        self._keys[oid] = (key[0], key[1], self.clock.offset)
        if oid > self._top:
            self._top = oid
        return _SEND

    def reconnected(self):
        """A new session: everything unconfirmed goes again, from the oldest."""
        self._cursor = 0
        self._since = self.clock.uptime()

    def check_timeout(self):
        """Re-send everything unconfirmed when no mark has moved for the current wait (which then doubles)."""
        if not self._keys:
            self._wait = self.confirm_ms
            return False
        now = self.clock.uptime()
        if now - self._since < self._wait:
            return False
        self.timeouts += 1
        self._cursor = 0
        self._since = now
        self._wait = min(self._wait * 2, self.confirm_max_ms)
        return True

    # ------------------------------------------------------------ the hub's commands

    def command(self, cmd):
        """Handle `stored` and `resend` (True); anything else is the node's (False)."""
        if cmd.name == "stored":
            self.stored(cmd.args["b"], cmd.args["s"])
            return True
        if cmd.name == "resend":
            self.resend(cmd.args["b"], cmd.args["lo"], cmd.args["hi"], cmd.cid)
            return True
        return False

    def stored(self, boot, mark):
        """The hub has every seq 1..`mark` of `boot`: release them. Returns how many left the outbox."""
        if mark > self._marks.get(boot, 0):
            self._marks[boot] = mark
            if len(self._marks) > MAX_MARK_BOOTS:
                del self._marks[min(self._marks)]
        n = 0
        for oid in list(self._keys):
            k = self._keys[oid]
            if k[0] == boot and k[1] <= mark:
                del self._keys[oid]
                self.outbox.ack(oid)
                n += 1
        if n:
            self.released += n
            self._since = self.clock.uptime()
            self._wait = self.confirm_ms
        return n

    def resend(self, boot, lo, hi, cid=0):
        """Send again what the outbox holds of `boot` seqs lo..hi, and answer which of them are gone."""
        held = []
        first = None
        cursor = 0
        while True:
            batch = self.outbox.after(cursor, SCAN)
            if not batch:
                break
            for oid, entry in batch:
                cursor = oid
                key = self._keys.get(oid) or node_events.event_key(entry)
                if key is not None and key[0] == boot and lo <= key[1] <= hi:
                    held.append(key[1])
                    if first is None:
                        first = oid
        if first is not None and first <= self._cursor:
            self._cursor = first - 1  # from there on, in order
        top = hi
        if boot == self.boot and self.produced is not None:
            top = min(hi, self.produced())  # seqs not produced yet are not gone
        gone = _missing(sorted(held), lo, top)
        self.gone += sum(b - a + 1 for a, b in gone)
        self._answer(resend.encode_answer("resend", cid, boot, lo, hi, gone, len(held)))
        return gone


def _missing(seqs, lo, hi):
    """[(first, last)] runs of lo..hi not in sorted `seqs`."""
    out = []
    expect = lo
    for s in seqs:
        if s > hi:
            break
        if s > expect:
            out.append((expect, s - 1))
        if s + 1 > expect:
            expect = s + 1
    if expect <= hi:
        out.append((expect, hi))
    return out
