"""The device's /main.py: picks the build to run (the committed one, or a new one on its trial) and runs it.

`luza firmware build` copies this file to the root as main.py (kept as source: MicroPython runs main.py at
boot). It is the one file an over-the-air update never replaces, so it stays small: the decision itself is
firmware/ota.py's `boot`, imported from the *committed* build, so a new build that is broken cannot break
the way back. Then, on a trial:

- the new build is imported from its slot (/ota/a or /ota/b first on sys.path, the committed build's modules
  forgotten);
- a one-shot timer resets the node after TRIAL_MS unless the trial has been committed by then (it reached
  the hub and passed its self-test; firmware/updater.py);
- an exception from starting it is written down (`ota.crashed`) and the node resets;
and the next boot of a trial that was not committed runs the committed build again (`ota.boot`).

`run(root, start, reset, arm)` is the same on the ESP32 and for a virtual device (hub/virtual/device.py):
`start(cfg_path, root)` runs the node and returns only if it stops; `reset()` restarts the board; `arm(ms,
check)` calls `check()` once after `ms`.
"""

import sys

TRIAL_MS = 120000  # a trial that has not reached the hub and passed its self-test by then is reset
_PACKAGES = ("firmware", "luza_wire")


def good_slot(root):
    """The committed build's slot from the update's state file ("" = the build at the root)."""
    try:
        import json

        with open(root + "/ota/state") as f:
            good = json.load(f).get("good", "")
    except (OSError, ValueError, AttributeError):
        return ""
    return good if good in ("", "/ota/a", "/ota/b") else ""


def _forget():
    for name in list(sys.modules):
        if name.split(".")[0] in _PACKAGES:
            del sys.modules[name]


def run(root, start, reset, arm):
    good = good_slot(root)
    sys.path.insert(0, root + good)
    from firmware import ota
    from firmware.flash import Flash

    flash = Flash(root)
    slot, cfg_path, st = ota.boot(flash)
    if "try" in st:
        if slot != good:
            _forget()
            sys.path[0] = root + slot

        def check():
            if ota.on_trial(flash):
                print("ota: trial not confirmed in time; resetting to roll back")
                reset()

        arm(TRIAL_MS, check)
    try:
        start(root + cfg_path, root)
    except Exception as exc:  # whatever the build raises, the board must come back
        why = "%s: %s" % (type(exc).__name__, exc)
        print("main: stopped by " + why)
        if "try" in st:
            ota.crashed(flash, why)
        else:
            import time

            # a committed build that cannot start: slow the reset loop (a USB console can stop it)
            time.sleep(5)
    reset()


def _device_start(cfg_path, root):
    from firmware import main as app

    app.main(cfg_path)


def _device_arm(ms, check):
    import machine

    t = machine.Timer(1)  # timer 0 paces the colour sensor (firmware/main.py)
    t.init(mode=machine.Timer.ONE_SHOT, period=ms, callback=lambda _t: check())


if __name__ == "__main__":
    import machine

    run("", _device_start, machine.reset, _device_arm)
