"""The ESP32 pin map of the node roles: the one place a GPIO number is written down.

Everyone reads it from here: the firmware's DEFAULTS (firmware/config.py) and its checks, `luza provision`
(hub/deploy/provision.py) when it writes a node's config.json, the wiring diagrams and pin tables in hardware/
(drawn by hub/deploy/pinmaps.py; tests/deploy/test_pinmaps.py fails if hardware/ or docs/ say another number)
and the virtual table (hub/virtual/table.py). Plain ints and tuples: it runs on MicroPython.
"""

# Beam receivers (upper, lower) per slot of a pocket node; a node serving one pocket uses slot 1. Avoided:
# 6-11 (the flash), 0, 2, 5, 15 (strapping pins with pull-ups on the board), 1 and 3 (the USB serial), 34-39
# for slots 2.. (input only, fine for beams, but kept for the cue's battery ADC). 12 is a strapping pin too:
# no external pull-up on it (hardware/wiring.md); 16 and 17 are not on WROVER boards (PSRAM).
SLOTS = ((32, 33), (25, 26), (27, 14), (12, 13), (18, 19), (16, 17))
POCKET_UPPER, POCKET_LOWER = SLOTS[0]

# The TCS34725 colour sensor of a pocket node (I2C).
COLOUR_SDA = 21
COLOUR_SCL = 22

# The cue node: the accelerometer (I2C and its INT1: FIFO watermark, activity wake) and the midpoint of the
# battery divider (an ADC1 pin, which works while Wi-Fi is on; the LOLIN D32's own divider is on 35).
CUE_SDA = 21
CUE_SCL = 22
CUE_INT = 4
CUE_BATTERY = 35

GPIOS = tuple(range(0, 40))  # the ESP32's GPIO numbers
INPUT_ONLY = (34, 35, 36, 37, 38, 39)  # no output and no pull-ups: an input needs an external resistor
