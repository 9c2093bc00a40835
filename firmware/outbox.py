"""The outbox: every event stays here until the hub has confirmed it stored it (the `stored` command).

The link (firmware/link.py) decides when an entry is done: it calls `ack(oid)` once the hub's stored mark
covers the event, not on the broker's PUBACK (a broker that crashes loses what it acknowledged). It walks the
entries with `after(oid, n)`, so entries sent and waiting for the hub stay here, in order, for a re-send.

Runs on MicroPython and CPython. Newest events live in a RAM list; during an outage they spill, in batches,
to append-only segment files in flash, so a long outage or a reboot loses nothing. Order is kept: the flash
segments hold the oldest entries, RAM the newest, and `window()` always hands out the oldest first.

Wear: flash is written only when an entry has waited `spill_ms` without an acknowledgement (an outage) or
RAM is full, and then as one append of the whole RAM batch; a segment file is deleted once all its entries
are acknowledged. In normal play (the hub confirms within about a second) the outbox never touches flash.
`writes` counts every flash write (append, create, delete), which is what wears the chip.

Bounds: at most `ram_max` entries in RAM and `seg_max` segments of `seg_entries` entries in flash. Only
when both are full is the oldest segment dropped (oldest-first, whole segment: one delete, no rewrite),
and `dropped` counts the entries lost; it is reported in telemetry.

An entry is opaque bytes without a newline (an encoded `evt` payload). Each gets an id (`oid`), written with
it to flash, so an acknowledgement still finds an entry that spilled while its publish was in flight. After
a reboot the segments are reloaded; entries acknowledged but not yet deleted may be sent again, which the
hub's de-duplication on (device, boot, seq) absorbs. `next_boot()` keeps the boot counter in flash so that
key stays unique across reboots.
"""

import os

SEG_PREFIX = "seg"
SEG_SUFFIX = ".ob"
BOOT_FILE = "boot"


class DirStore:
    """The outbox's whole view of flash: named files in one folder
    (a temp dir on CPython, `/ob` on a device)."""

    def __init__(self, root):
        self.root = root
        self.writes = 0
        path = "/" if root.startswith("/") else ""
        for part in root.split("/"):
            if part:
                path = path + part
                try:
                    os.mkdir(path)
                except OSError:
                    pass  # already there
                path = path + "/"

    def _path(self, name):
        return self.root + "/" + name

    def names(self):
        return sorted(os.listdir(self.root))

    def read(self, name):
        """The file's bytes, or None if it does not exist."""
        try:
            with open(self._path(name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def append(self, name, data):
        with open(self._path(name), "ab") as f:
            f.write(data)
        self.writes += 1

    def write(self, name, data):
        with open(self._path(name), "wb") as f:
            f.write(data)
        self.writes += 1

    def remove(self, name):
        try:
            os.remove(self._path(name))
        except OSError:
            return
        self.writes += 1


def next_boot(store):
    """Increment and persist the boot counter; returns this boot's id (1 on a fresh device)."""
    raw = store.read(BOOT_FILE)
    try:
        boot = int(raw) + 1 if raw else 1
    except ValueError:
        # a torn write: start a new count rather than refuse to boot (ids stay unique per device+boot)
        boot = 1
    store.write(BOOT_FILE, str(boot).encode())
    return boot


def _seg_name(n):
    return "%s%08d%s" % (SEG_PREFIX, n, SEG_SUFFIX)


def _take(out, entries, oid, n):
    """Append (oid, entry) of `entries` ([oid, entry, ...] lists or tuples) above `oid` to `out` until it
    holds `n`; False once it is full."""
    for e in entries:
        if e[0] > oid:
            if len(out) >= n:
                return False
            out.append((e[0], e[1]))
    return len(out) < n


def _parse_lines(data):
    """[(oid, entry)] from a segment file; a torn last line (power cut mid-write) is skipped."""
    out = []
    lines = data.split(b"\n")
    lines.pop()  # whatever follows the last newline is empty, or a line torn by a power cut
    for line in lines:
        sp = line.find(b" ")
        if sp <= 0:
            continue
        try:
            oid = int(line[:sp])
        except ValueError:
            continue
        out.append((oid, line[sp + 1 :]))
    return out


class Outbox:
    """Unacknowledged events, oldest first. See the module docstring for the policy."""

    def __init__(self, store, ram_max=200, seg_entries=100, seg_max=20, spill_ms=10000, now=None):
        self.store = store
        self.ram_max = ram_max
        self.seg_entries = seg_entries
        self.seg_max = seg_max
        self.spill_ms = spill_ms
        self._now = now  # function -> ms (the node's uptime); None disables age-based spills
        self.dropped = 0
        self.spills = 0
        self.flash_errors = 0
        self._ram = []  # [oid, entry, put_ms]
        self._segs = []  # [[file number, entries in file, first oid, last oid]], oldest first
        self._front = None  # entries [oid, entry] loaded from self._segs[0], or None
        self._front_live = 0  # unacknowledged entries left in the front segment
        self._acked = set()  # oids acknowledged while in a segment not yet loaded
        self._next_oid = 1
        self._reload()

    # ------------------------------------------------------------ boot

    def _reload(self):
        top = 0
        for name in self.store.names():
            if not (name.startswith(SEG_PREFIX) and name.endswith(SEG_SUFFIX)):
                continue
            try:
                n = int(name[len(SEG_PREFIX) : -len(SEG_SUFFIX)])
            except ValueError:
                continue
            lines = _parse_lines(self.store.read(name) or b"")
            if not lines:
                self.store.remove(name)
                continue
            self._segs.append([n, len(lines), lines[0][0], lines[-1][0]])
            if lines[-1][0] > top:
                top = lines[-1][0]
        self._segs.sort()
        self._next_oid = top + 1

    # ------------------------------------------------------------ state

    @property
    def depth(self):
        """Entries not yet acknowledged (RAM + flash)."""
        flash = 0
        for i, seg in enumerate(self._segs):
            flash += self._front_live if (i == 0 and self._front is not None) else seg[1]
        return max(0, flash - len(self._acked)) + len(self._ram)

    @property
    def in_flash(self):
        return len(self._segs)

    @property
    def writes(self):
        return self.store.writes

    # ------------------------------------------------------------ producer side

    def put(self, entry):
        """Keep `entry` (bytes, no newline) until acknowledged; returns its oid."""
        oid = self._next_oid
        self._next_oid += 1
        self._ram.append([oid, entry, self._now() if self._now else 0])
        if len(self._ram) > self.ram_max:
            self.spill()
        return oid

    def maintain(self):
        """Spill RAM to flash if its oldest entry has waited `spill_ms` unacknowledged (an outage)."""
        if self._ram and self._now and self.spill_ms is not None:
            if self._now() - self._ram[0][2] >= self.spill_ms:
                self.spill()

    def flush(self):
        """Write everything still in RAM to flash (before a controlled reboot)."""
        if self._ram:
            self.spill()

    def spill(self):
        """Move all RAM entries to the newest segment(s), as few appends as possible."""
        if self.seg_max <= 0:
            while len(self._ram) > self.ram_max:  # no flash allowed: the oldest RAM entry goes
                self._ram.pop(0)
                self.dropped += 1
            return
        batch = self._ram
        self._ram = []
        self.spills += 1
        while batch:
            seg = self._tail_segment()
            room = self.seg_entries - seg[1]
            part = batch[:room]
            lines = []
            for e in part:
                lines.append(str(e[0]).encode())
                lines.append(b" ")
                lines.append(e[1])
                lines.append(b"\n")
            try:
                self.store.append(_seg_name(seg[0]), b"".join(lines))
            except OSError:  # flash full or failing: keep the rest in RAM, drop only beyond its bound
                self.flash_errors += 1
                if seg[1] == 0:
                    self._segs.remove(seg)
                self._ram = batch + self._ram
                while len(self._ram) > self.ram_max:
                    self._ram.pop(0)
                    self.dropped += 1
                return
            batch = batch[room:]
            if seg[1] == 0:
                seg[2] = part[0][0]
            seg[1] += len(part)
            seg[3] = part[-1][0]

    def _tail_segment(self):
        """A segment with room that is not loaded as the front; drops the oldest one when flash is full."""
        if self._segs:
            last = self._segs[-1]
            if last[1] < self.seg_entries and not (len(self._segs) == 1 and self._front is not None):
                return last
        if len(self._segs) >= self.seg_max:
            self._drop_oldest_segment()
        n = self._segs[-1][0] + 1 if self._segs else 1
        seg = [n, 0, 0, 0]
        self._segs.append(seg)
        return seg

    def _drop_oldest_segment(self):
        n, count, lo, hi = self._segs.pop(0)
        if self._front is not None:
            lost = self._front_live
            self._front = None
        else:
            lost = count
        self.dropped += lost
        for oid in list(self._acked):
            if lo <= oid <= hi:
                self._acked.discard(oid)
                self.dropped -= 1  # acknowledged before it was dropped: not lost
        self.store.remove(_seg_name(n))

    # ------------------------------------------------------------ consumer side

    def _load_front(self):
        if self._front is None and self._segs:
            lines = _parse_lines(self.store.read(_seg_name(self._segs[0][0])) or b"")
            self._front = [[oid, e] for oid, e in lines if oid not in self._acked]
            for oid, _ in lines:
                self._acked.discard(oid)
            self._front_live = len(self._front)
            self._retire_front()

    def _retire_front(self):
        while self._front is not None and not self._front:
            n = self._segs.pop(0)[0]
            self.store.remove(_seg_name(n))
            self._front = None
            self._load_front()

    def window(self, n):
        """Up to `n` oldest unacknowledged entries as [(oid, entry)], without removing them."""
        self._load_front()
        if self._front is not None:
            return [(e[0], e[1]) for e in self._front[:n]]
        return [(e[0], e[1]) for e in self._ram[:n]]

    def after(self, oid, n):
        """Up to `n` unacknowledged entries with an oid above `oid`, oldest first, as [(oid, entry)]: the
        link's send cursor walks the outbox with it (entries waiting for the hub's
        confirmation stay, for a re-send)."""
        self._load_front()
        out = []  # type: list
        if self._front is not None:
            if not _take(out, self._front, oid, n):
                return out
        for seg in self._segs[1 if self._front is not None else 0 :]:
            if seg[3] <= oid:
                continue
            lines = [
                e for e in _parse_lines(self.store.read(_seg_name(seg[0])) or b"") if e[0] not in self._acked
            ]
            if not _take(out, lines, oid, n):
                return out
        _take(out, self._ram, oid, n)
        return out

    def ack(self, oid):
        """The hub has stored the entry `oid`: forget it. Returns False if it was not (or no longer) here."""
        if self._front is not None:
            for i, e in enumerate(self._front):
                if e[0] == oid:
                    del self._front[i]
                    self._front_live -= 1
                    self._retire_front()
                    return True
        for i, e in enumerate(self._ram):
            if e[0] == oid:
                del self._ram[i]
                return True
        start = 1 if self._front is not None else 0
        for seg in self._segs[start:]:
            if seg[2] <= oid <= seg[3]:
                self._acked.add(oid)  # spilled while in flight: skipped when its segment is loaded
                return True
        return False
