"""Thin hardware drivers for the ESP32 (device only: they import `machine`).

Each is a small class the pure logic does not depend on: `beams.BeamPins` (IRQ -> EdgeRing),
`tcs34725.TCS34725` (colour), `accel.ADXL345` / `accel.LIS3DH` (FIFO samples in mg), `battery.Battery`
(volts). Tests and the virtual table replace them with fakes of the same shape.
"""
