"""Luza firmware for the ESP32 pocket and cue-strike nodes (MicroPython; the pure logic also runs on CPython).

Deployed as the folders /firmware/ and /luza_wire/ (the wire contract) and a root
main.py (see docs/firmware.md).
"""

VERSION = "0.1.0"
