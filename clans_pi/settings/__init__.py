"""Settings: ``config`` (the settings file, every key checked, each mistake one line),
``options`` (the display options the settings, the devices and the UI share) and
``language`` (the table's language: the start screen's remembered choice, else the
settings') and ``wifi`` (the Wi-Fi the phones join: its name, password and QR text).
No pygame here.
"""
