"""Clans Pi: a Raspberry Pi tabletop companion for Leo Colovini's board game Clans."""

__version__ = "0.1.0"
