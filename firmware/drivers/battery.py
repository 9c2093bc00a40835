"""Battery voltage through a resistor divider on an ESP32 ADC pin (11 dB attenuation:
up to ~3.1 V at the pin)."""

from machine import ADC, Pin


class Battery:
    def __init__(self, pin=35, divider=2.0):
        self.adc = ADC(Pin(pin))
        self.adc.atten(ADC.ATTN_11DB)
        self.divider = divider

    def volts(self):
        """Battery volts, averaged over 8 readings (the ESP32 ADC is noisy); calibrated by read_uv()."""
        total = 0
        for _ in range(8):
            total += self.adc.read_uv()
        return total / 8 / 1000000 * self.divider
