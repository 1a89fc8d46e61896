"""The rules of Clans (../shared/RULES.md R1-R22): pure Python, no I/O beyond its own data."""
