"""The save's schema (clans_pi/saving/schema.py): every save the game writes fits it, the
saves of older versions still load, and whatever JSON a crafted save with a valid checksum
holds in any field (or any key added to any object), the game starts: the save is used, or
moved aside with one sentence and the previous one is the game. Never a traceback."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from clans_pi.hardware.seats import SeatDevices
from clans_pi.phones.tokens import SeatTokens
from clans_pi.saving.schema import SchemaError, check_save
from clans_pi.saving.store import SAVE_FORMAT, GameStore, checksum, payload_text
from clans_pi.session import Seat, Session
from clans_pi.table import Table
from tests.test_persistence import _RAW, _places
from tests.ui_helpers import BOARD, CHART, random_session


def _base_session() -> Session:
    """A game with everything a save can hold: a computer seat, the guide, phone links."""
    played = random_session(3, moves=9)
    kinds = ["human", "hard", "human"]
    session = Session.load(played.to_json(), BOARD, CHART, can_undo=True,
                           seats=[Seat(s.name, "owl" if k else "", kinds[k])
                                  for k, s in enumerate(played.seats)])
    session.guide_seen = {"secret", "move"}
    session.phone_links = SeatTokens.new([0, 2]).renew([0, 2]).to_json()
    return session


def test_every_save_the_game_writes_fits_the_schema(tmp_path):
    store = GameStore(tmp_path)
    session = _base_session()
    store.save(session)
    checked = check_save(json.loads(store.current.read_text()))
    assert [s.kind for s in checked.seats] == ["human", "hard", "human"]
    assert checked.phones is not None and sorted(checked.phones.tokens) == ["0", "2"]
    loaded, problems = store.load(BOARD, CHART)
    assert problems == [] and loaded.phone_links == session.phone_links
    assert loaded.guide_seen == session.guide_seen and loaded.seats == session.seats


def _resign(doc: dict) -> dict:
    return {**doc, "sha256": checksum(payload_text(doc["payload"]))}


def test_saves_of_older_versions_still_load(tmp_path):
    """Before the guide, the computers and the phones a save had none of their fields, and
    a seat no avatar or kind."""
    store = GameStore(tmp_path)
    session = random_session(3, moves=4)
    store.save(session)
    doc = json.loads(store.current.read_text())
    payload = doc["payload"]
    for key in ("undo_moves", "guide", "phones"):
        payload.pop(key, None)
    payload["seats"] = [{"name": s["name"]} for s in payload["seats"]]
    store.current.write_text(json.dumps(_resign(doc)))
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and loaded.public() == session.public()
    assert loaded.phone_links == {} and loaded.guide_seen == set()


@pytest.mark.parametrize(("place", "value", "said"), [
    (("phones", "retired"), 5, "at `$.payload.phones.retired`"),
    (("phones", "tokens", "7"), "A" * 22, "at `key` in `$.payload.phones.tokens`"),
    (("phones", "tokens", "3"), "A" * 22, "a phone link for a seat the game does not have"),
    (("seats", 0, "kind"), "robot", "at `$.payload.seats[0].kind`"),
    (("seats", 0, "name"), "Anna\ud800", "at `$.payload.seats[0].name`"),
    (("generation",), True, "at `$.payload.generation`"),
    (("undo_moves",), 1.0, "at `$.payload.undo_moves`"),
    (("game", "record", "moves", 0, "from"), 10**40, "at `$.payload.game.record.moves[0].from`"),
])
def test_a_wrong_value_is_named_with_its_place(place, value, said):
    session = random_session(2, moves=3)
    session.phone_links = SeatTokens.new([0]).to_json()
    doc = {"format": SAVE_FORMAT, "sha256": "0" * 64,
           "payload": {"game": session.to_json(), "generation": 1,
                       "seats": [{"name": s.name} for s in session.seats],
                       "phones": session.phone_links}}
    parent = doc["payload"]
    for key in place[:-1]:
        parent = parent[key]
    parent[place[-1]] = value
    with pytest.raises(SchemaError) as caught:
        check_save(doc)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def _fuzz_dir(base: Path) -> dict:
    """Two saves of the base game in ``base`` (the newer one to be crafted); its payload
    (the same every time: the base game's phone links are fixed here)."""
    store = GameStore(base)
    session = _base_session()
    session.phone_links = SeatTokens({0: "A" * 22, 2: "B" * 22}, ["C" * 22]).to_json()
    store.save(session)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    store.save(session)
    return json.loads(store.current.read_text())["payload"]


with tempfile.TemporaryDirectory() as _made:
    _PAYLOAD = _fuzz_dir(Path(_made))
_BASE: Path | None = None
_MARK = "\u0000crafted\u0000"
#: Each field of the payload as likely as any other, then any place inside it: the phone
#: links weigh as much as the game's hundreds of huts and moves.
_PLACE = st.sampled_from([None, *_PAYLOAD]).flatmap(
    lambda field: st.just(()) if field is None else st.sampled_from(
        [(field, *p) for p in _places(_PAYLOAD[field])]))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@pytest.mark.slow
@given(place=_PLACE, raw=_RAW, new_key=st.none() | st.text(max_size=4))
@example(place=("phones", "retired"), raw="5", new_key=None)  # was a TypeError
@example(place=("phones", "tokens"), raw=json.dumps("D" * 22), new_key="\u00b2")  # ValueError
def test_any_json_in_any_field_of_a_save_never_stops_the_game_starting(tmp_path_factory,
                                                                       place, raw, new_key):
    """Any JSON in any field of a save (or under a new key of any object), re-signed: the
    table starts the game with its seat devices, phones served, and plays a move; the save
    was used, or it was moved aside with one sentence and the previous save is the game."""
    global _BASE
    if _BASE is None:
        _BASE = tmp_path_factory.mktemp("schema-fuzz")
        assert _fuzz_dir(_BASE) == _PAYLOAD
    base = _BASE
    crafted = json.loads(json.dumps(_PAYLOAD))
    parent = crafted
    for key in place[:-1]:
        parent = parent[key]
    target = parent[place[-1]] if place else crafted
    if isinstance(target, dict) and new_key is not None:
        target[new_key] = _MARK
    elif place:
        parent[place[-1]] = _MARK
    text = payload_text(crafted)
    text = text.replace(json.dumps(_MARK), raw) if json.dumps(_MARK) in text else raw
    directory = base.parent / f"{base.name}-run"
    shutil.rmtree(directory, ignore_errors=True)
    shutil.copytree(base, directory)
    head = json.dumps({"format": SAVE_FORMAT, "sha256": checksum(text)})[:-1]
    (directory / "game.json").write_text(f'{head}, "payload": {text}}}', encoding="utf-8")

    devices = SeatDevices(listen=("127.0.0.1", 0))
    table = Table(BOARD, CHART, store=GameStore(directory), devices=devices, pause_ms=0,
                  log_saves=False)
    try:
        session = table.resume()
        assert session is not None  # the crafted save or the previous one
        resumed_at = session.public().ply
        if session.seats[session.current_seat].is_human:
            m = session.public().legal_moves[0]
            table.play(m.src, m.dst)
        notices = table.take_notices() + devices.take_notices()
    finally:
        table.shutdown()
        devices.close()
    assert all(isinstance(n, str) and "\n" not in n for n in notices)
    aside = list(directory.glob("game.json.damaged-*"))
    if aside:  # not usable: moved aside whole, and the previous save is the game
        assert [n for n in notices if n.startswith("The saved game was damaged")] == [
            f"The saved game was damaged; it was moved aside ({aside[0].name}) and the last "
            "good save is used."]
        assert resumed_at == 9
