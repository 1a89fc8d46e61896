"""The game as a systemd service: ``watchdog`` (sd_notify: READY, STATUS, WATCHDOG,
STOPPING), ``logs`` (log lines to standard error with the journal's priorities) and
``kiosk`` (what leaving the game asks of clans-pi.service: switch off, the console).
"""
