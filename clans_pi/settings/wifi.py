"""The Wi-Fi the phones join: its name and password, and the QR code's text that lets a phone
join it by scanning (no pygame here; the start screen's Wi-Fi screen draws it).

The text is the de-facto standard that phone cameras read (ZXing's "Barcode Contents",
also in the Wi-Fi Alliance's Easy Connect spec)::

    WIFI:T:WPA;S:<name>;P:<password>;;

with ``\\``, ``;``, ``,``, ``:`` and ``"`` in the name and password escaped by a backslash.
segno's ``helpers.make_wifi_data`` builds the same text but leaves ``,`` unescaped, so it
is built here.
"""

from __future__ import annotations

from dataclasses import dataclass

#: What the format escapes with a backslash in a name or password.
SPECIAL = '\\;,:"'
#: An SSID is at most 32 bytes (IEEE 802.11).
MAX_NAME_BYTES = 32
#: A WPA passphrase is 8 to 63 printable ASCII characters (IEEE 802.11i; 64 would be a
#: raw hexadecimal key, which people do not type).
PASSWORD_LENGTHS = (8, 63)


def escape(text: str) -> str:
    """``text`` with the format's special characters escaped by a backslash."""
    return "".join("\\" + c if c in SPECIAL else c for c in text)


def wifi_qr_payload(name: str, password: str) -> str:
    """The QR code's text for joining the WPA network ``name`` with ``password`` ("" for an
    open network: ``T:nopass``)."""
    if not password:
        return f"WIFI:T:nopass;S:{escape(name)};;"
    return f"WIFI:T:WPA;S:{escape(name)};P:{escape(password)};;"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a Wi-Fi network's name, or None."""
    if not name.strip():
        return "must not be empty"
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return f"is longer than a Wi-Fi name may be ({MAX_NAME_BYTES} bytes)"
    if any(not c.isprintable() for c in name):
        return "must not hold control characters"
    return None


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot be a WPA passphrase, or None ("" is an open network)."""
    low, high = PASSWORD_LENGTHS
    if password and not low <= len(password) <= high:
        return f"must be {low} to {high} characters (or \"\" for an open network)"
    if any(not (" " <= c <= "~") for c in password):
        return "must be plain ASCII letters, digits, spaces and punctuation"
    return None


@dataclass(frozen=True)
class Hotspot:
    """The Wi-Fi network the phones join (the Pi's own, made by the installer's --hotspot,
    or any the settings name)."""

    name: str
    password: str

    @property
    def qr_payload(self) -> str:
        return wifi_qr_payload(self.name, self.password)
