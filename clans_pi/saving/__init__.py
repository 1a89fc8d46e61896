"""Saving: what the game keeps on the card and reads back.

``store`` (GameStore: the atomic, checksummed save after every move, the records of finished
games), ``schema`` (every field of a save, checked once), ``lock`` (one game per state
directory) and ``files`` (board, chart and record files read with errors naming the file;
the state directory; the one atomic write). No pygame here.
"""
