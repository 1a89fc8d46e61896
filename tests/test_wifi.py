"""The Wi-Fi QR code's text (clans_pi.settings.wifi): the standard form, every special
character escaped, and the checks on a name and a password."""

from __future__ import annotations

import pytest
import segno.helpers
from hypothesis import given
from hypothesis import strategies as st

from clans_pi.settings.wifi import Hotspot, escape, name_problem, password_problem, wifi_qr_payload


def test_a_plain_network():
    assert wifi_qr_payload("Clans Pi", "k7qm-x3vt-9bfp-w2hc") == \
        "WIFI:T:WPA;S:Clans Pi;P:k7qm-x3vt-9bfp-w2hc;;"
    assert Hotspot("Clans Pi", "k7qm-x3vt-9bfp-w2hc").qr_payload == \
        "WIFI:T:WPA;S:Clans Pi;P:k7qm-x3vt-9bfp-w2hc;;"


@pytest.mark.parametrize(("name", "password", "payload"), [
    ("a;b", "p;w;d;;;", r"WIFI:T:WPA;S:a\;b;P:p\;w\;d\;\;\;;;"),
    ("a,b", "1,2,3,4,5", r"WIFI:T:WPA;S:a\,b;P:1\,2\,3\,4\,5;;"),
    ("a:b", "WIFI:T:nopass", r"WIFI:T:WPA;S:a\:b;P:WIFI\:T\:nopass;;"),
    ('say "hi"', '"quoted"', r'WIFI:T:WPA;S:say \"hi\";P:\"quoted\";;'),
    ("back\\slash", "\\\\\\\\", r"WIFI:T:WPA;S:back\\slash;P:\\\\\\\\;;"),
    ("Öhrling's Café ♠", "pa ss wo rd", "WIFI:T:WPA;S:Öhrling's Café ♠;P:pa ss wo rd;;"),
    ("   ", "        ", "WIFI:T:WPA;S:   ;P:        ;;"),
])
def test_odd_characters_are_escaped(name, password, payload):
    assert wifi_qr_payload(name, password) == payload


def test_an_open_network_says_nopass_and_has_no_password():
    assert wifi_qr_payload("Open;Table", "") == r"WIFI:T:nopass;S:Open\;Table;;"


def test_segno_agrees_except_for_the_comma_it_leaves_unescaped():
    """segno's helper builds the same text but for ','; the format escapes it."""
    for name, password in (("Clans Pi", "k7qm-x3vt"), ('a;b:c\\"', 'x;y:"z\\')):
        assert wifi_qr_payload(name, password) == segno.helpers.make_wifi_data(
            name, password, "WPA")
    assert segno.helpers.make_wifi_data("a,b", "12345678", "WPA") != \
        wifi_qr_payload("a,b", "12345678")


def unescape_fields(payload: str) -> dict[str, str]:
    """A reader of the format, as a phone's camera does it: fields end at an unescaped ';',
    a backslash takes the next character as it is."""
    assert payload.startswith("WIFI:") and payload.endswith(";;")
    fields: dict[str, str] = {}
    key, value, escaped, i = "", "", False, len("WIFI:")
    body = payload[i:-1]
    reading_key = True
    for c in body:
        if escaped:
            value += c
            escaped = False
        elif reading_key:
            if c == ":":
                reading_key = False
            else:
                key += c
        elif c == "\\":
            escaped = True
        elif c == ";":
            fields[key] = value
            key, value, reading_key = "", "", True
        else:
            value += c
    assert not escaped and key == "" and value == ""
    return fields


@given(st.text(min_size=1, max_size=32), st.text(min_size=8, max_size=63))
def test_any_name_and_password_read_back_as_they_were(name, password):
    fields = unescape_fields(wifi_qr_payload(name, password))
    assert fields == {"T": "WPA", "S": name, "P": password}


@pytest.mark.parametrize(("name", "why"), [
    ("", "must not be empty"),
    ("  ", "must not be empty"),
    ("x" * 33, "is longer than a Wi-Fi name may be (32 bytes)"),
    ("ä" * 17, "is longer than a Wi-Fi name may be (32 bytes)"),  # 34 bytes
    ("tab\there", "must not hold control characters"),
])
def test_a_name_a_network_cannot_have(name, why):
    assert name_problem(name) == why


@pytest.mark.parametrize("name", ["Clans Pi", "x" * 32, "ä" * 16, "Table; 2, \"B\""])
def test_names_a_network_can_have(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(("password", "why"), [
    ("short", 'must be 8 to 63 characters (or "" for an open network)'),
    ("x" * 64, 'must be 8 to 63 characters (or "" for an open network)'),
    ("pässwörter", "must be plain ASCII letters, digits, spaces and punctuation"),
    ("new\nline12", "must be plain ASCII letters, digits, spaces and punctuation"),
])
def test_a_password_wpa_does_not_take(password, why):
    assert password_problem(password) == why


@pytest.mark.parametrize("password", ["", "12345678", "x" * 63, 'a;b,c:d"e\\f g~'])
def test_passwords_wpa_takes(password):
    assert password_problem(password) is None


def test_escape_leaves_everything_else_alone():
    assert escape("plain text 123 ÄÖÜ") == "plain text 123 ÄÖÜ"
    assert escape('\\;,:"') == '\\\\\\;\\,\\:\\"'
