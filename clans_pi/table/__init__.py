"""The game at the table, without pygame: :class:`Table` (the game's flow: the session, the
saves, the seat devices, the computer players, undo, notices, the guide's progress, the
service's status), :mod:`.computers` (computer players on worker threads) and :mod:`.guide`
(which tip of the first-game guide comes when). The touchscreen and the headless game both
drive a Table; nothing here imports pygame or ``clans_pi.ui``."""

from .table import Listener, Table

__all__ = ["Listener", "Table"]
