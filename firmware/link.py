"""The connection manager: keeps a node on the broker and drains its outbox, in order, while it is there.

Runs on MicroPython and CPython (asyncio only). One task, `Link.run()`, loops forever:

1. Wi-Fi up (`net.connect()`, then wait up to `wifi_ms` for `net.up()`).
2. MQTT connect with keep-alive and the Last Will `{"st": "lost"}` retained on `status`; then `cmd`
   subscribed, then the birth message `online` (firmware version, boot id, ip, role) retained on `status`; the
   link is up once the transport says `connected` (the device's non-blocking client queues
   all three packets at once
   and is connected on the CONNACK, polled like any other traffic, never waited for). In that order:
   the hub answers a birth with the time command, and the broker handles one connection's packets in order,
   so the subscription is in place before anyone can react to the birth (the other way round, a busy broker
   or hub could send the time before the subscription exists, and a clean session would drop it).
   Every session is clean, so the subscription is made again on each up.
3. While up: publish the outbox's entries in order (at most `window` awaiting a PUBACK), and pass each valid
   `cmd` to `on_cmd`. A malformed command is rejected by `protocol.parse_command`, counted in `rejected` and
   logged; the node carries on. The delivery commands are the link's own (see firmware/delivery.py):
   an event leaves the outbox only when the hub's `stored` mark covers it, never on the broker's PUBACK
   (a broker that crashes loses what it acknowledged); `resend` re-sends a range the hub misses and
   answers on `ans` which seqs are gone.
4. On `OSError` (the one recoverable error; anything else is a bug and surfaces) the link is down: the
   in-flight publishes are forgotten (their entries are still in the outbox, and after the reconnect every
   entry the hub has not confirmed goes again, in order; the hub de-duplicates on (device, boot, seq)), and
   the next attempt waits an exponential backoff from `backoff_min` to `backoff_max` ms with +-25 % jitter,
   so a room of nodes does not reconnect in step after the broker restarts.

The detectors never wait for the network: they put events into the outbox and call `kick()`; the link task
does the I/O. `listeners` are called with True/False on every up/down.
"""

import asyncio

try:
    import random

    def _rand():
        return random.getrandbits(16) / 65536
except (ImportError, AttributeError):  # pragma: no cover - a port without random: no jitter

    def _rand():
        return 0.5


from firmware.delivery import Delivery
from luza_wire import protocol
from luza_wire.frame import Rejection


class Link:
    """Connection manager for one node. See the module docstring."""

    def __init__(
        self,
        transport,
        net,
        outbox,
        clock,
        table,
        device,
        boot,
        role="",
        fw="",
        on_cmd=None,
        keepalive=30,
        window=16,
        backoff_min=500,
        backoff_max=30000,
        wifi_ms=20000,
        poll_ms=10,
        log=None,
        rand=None,
    ):
        self.transport = transport
        self.net = net
        self.outbox = outbox
        self.clock = clock
        self.table = table
        self.device = device
        self.boot = boot
        self.role = role
        self.fw = fw
        self.on_cmd = on_cmd
        self.keepalive = keepalive
        self.window = window
        self.backoff_min = backoff_min
        self.backoff_max = backoff_max
        self.wifi_ms = wifi_ms
        self.poll_ms = poll_ms
        self.log = log or _print
        self._rand = rand or _rand
        self.topic_evt = protocol.topic(table, device, "evt")
        self.topic_status = protocol.topic(table, device, "status")
        self.topic_tele = protocol.topic(table, device, "tele")
        self.topic_cmd = protocol.topic(table, device, "cmd")
        self.topic_ans = protocol.topic(table, device, "ans")
        self.error = None  # set by the node when its config is invalid: the birth then says st "error"
        self.ota = None  # the update's progress or result (firmware/updater.py): carried by every status
        self.up = False
        self.ups = 0
        self.downs = 0
        self.published = 0  # events handed to the broker (re-sends included)
        self.rejected = 0  # malformed commands
        self.last_rejection = None
        self.listeners = []
        self._inflight = {}  # transport token -> outbox oid, awaiting the broker's PUBACK
        self.delivery = Delivery(outbox, clock, boot, self._publish_answer)
        self._kick = asyncio.Event()
        self._stopping = False
        self._failures = 0

    # ------------------------------------------------------------ for the node

    def kick(self):
        """Something was put in the outbox: publish it now rather than at the next poll."""
        self._kick.set()

    def send(self, channel, payload, retain=False):
        """Best-effort publish outside the outbox (tele, status):
        True if handed to the broker, False if down."""
        if not self.up:
            return False
        try:
            self.transport.publish(protocol.topic(self.table, self.device, channel), payload, retain, 0)
        except OSError:
            return False  # the link task's next poll meets the same failure and handles the outage
        return True

    def stop(self):
        """End `run()`: says `offline` (retained) and disconnects politely, so no Last Will is sent."""
        self._stopping = True
        self._kick.set()

    # ------------------------------------------------------------ the task

    async def run(self):
        """Stay connected until `stop()`. Returns only after `stop()`."""
        while not self._stopping:
            try:
                await self._session()
            except OSError as exc:
                self._went_down(exc)
            if self._stopping:
                break
            self._failures += 1
            await self.clock.sleep_ms(self.backoff_ms())
        self._say_goodbye()

    def backoff_ms(self):
        """The wait before the next attempt: exponential in the failures since the last up, with jitter."""
        n = self._failures - 1 if self._failures > 0 else 0
        base = self.backoff_min * (1 << (n if n < 16 else 16))
        if base > self.backoff_max:
            base = self.backoff_max
        return int(base * (0.75 + 0.5 * self._rand()))

    async def _wifi(self):
        if self.net.up():
            return
        self.net.connect()
        waited = 0
        while not self.net.up():
            if waited >= self.wifi_ms or self._stopping:
                raise OSError("wifi: not connected after %d ms" % (waited,))
            await self.clock.sleep_ms(100)
            waited += 100

    def _birth(self):
        state = "error" if self.error else "online"
        return protocol.encode_status(
            state, self.boot, self.fw, self.net.ip(), self.role, self.error, self.ota
        )

    def send_status(self):
        """The status again (retained), e.g. with an update's progress; best effort like `send`."""
        return self.send("status", self._birth(), retain=True)

    async def _session(self):
        await self._wifi()
        will = protocol.encode_status("lost", self.boot, self.fw, "", self.role)
        self.transport.connect(self.device, self.keepalive, self.topic_status, will)
        self.transport.subscribe(self.topic_cmd)  # before the birth: see step 2 of the module docstring
        self.transport.publish(self.topic_status, self._birth(), True, 1)
        while not self.transport.connected:  # a non-blocking transport is up on its CONNACK (or times out)
            if self._stopping:
                raise OSError("stopping before the broker answered")
            for item in self.transport.poll():
                self._handle(item)
            await self._wait()
        self._went_up()
        while not self._stopping:
            if not self.net.up():
                raise OSError("wifi lost")
            self.delivery.check_timeout()
            self._drain()
            for item in self.transport.poll():
                self._handle(item)
            self._drain()
            await self._wait()

    async def _wait(self):
        # Wall-time poll (not the node clock's): this is about network responsiveness, not protocol time.
        try:
            await asyncio.wait_for(self._kick.wait(), self.poll_ms / 1000)
        except asyncio.TimeoutError:
            pass
        self._kick.clear()

    def _drain(self):
        room = self.window - len(self._inflight)
        if room <= 0:
            return
        # restamped onto the hub clock if recorded before the sync
        for oid, payload in self.delivery.next(room):
            token = self.transport.publish(self.topic_evt, payload, False, 1)
            self._inflight[token] = oid
            self.published += 1

    def _publish_answer(self, payload):
        """An `ans` to the hub (QoS 1, outside the outbox: if it is lost the hub asks again)."""
        self.transport.publish(self.topic_ans, payload, False, 1)

    def _handle(self, item):
        if item[0] == "ack":
            self._inflight.pop(item[1], None)  # the broker has it; it leaves the outbox on the hub's mark
            return
        _, topic, payload = item
        if topic != self.topic_cmd:
            return
        cmd = protocol.parse_command(payload)
        if isinstance(cmd, Rejection):
            self.rejected += 1
            self.last_rejection = cmd
            self.log("cmd rejected (%s): %s" % (cmd.code, cmd.reason))
            return
        if self.delivery.command(cmd):
            return
        if self.on_cmd is not None:
            self.on_cmd(cmd)

    def _went_up(self):
        self.delivery.reconnected()
        self.up = True
        self.ups += 1
        self._failures = 0
        self.log("link up (%s)" % (self.net.ip(),))
        for f in self.listeners:
            f(True)

    def _went_down(self, exc):
        self._inflight = {}
        if not self.up:
            self.log("link: connect failed: %s" % (exc,))
            return
        self.up = False
        self.downs += 1
        self.log("link down: %s" % (exc,))
        for f in self.listeners:
            f(False)

    def _say_goodbye(self):
        if self.up:
            try:
                self.transport.publish(
                    self.topic_status,
                    protocol.encode_status("offline", self.boot, self.fw, "", self.role),
                    True,
                    1,
                )
                self.transport.poll()
            except OSError:
                pass  # going away anyway; the Last Will covers it
        self.transport.disconnect()
        self.up = False


def _print(msg):
    print("[link] " + msg)
