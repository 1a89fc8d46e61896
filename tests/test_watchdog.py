"""clans_pi.service.watchdog.Notifier against a real AF_UNIX datagram socket, as systemd listens."""

from __future__ import annotations

import logging
import os
import socket
import uuid

import pytest

from clans_pi.service.watchdog import Notifier


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def listener(tmp_path):
    # AF_UNIX socket paths are at most 107 bytes long.
    path = tmp_path / "notify"
    if len(os.fsencode(path)) > 100:
        pytest.skip("tmp_path too long for an AF_UNIX socket path")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


def received(sock: socket.socket) -> list[bytes]:
    """Every datagram waiting on the socket."""
    out = []
    sock.setblocking(False)
    try:
        while True:
            out.append(sock.recv(4096))
    except BlockingIOError:
        pass
    finally:
        sock.settimeout(2)
    return out


def test_ready_status_stopping_arrive_with_exact_bytes(listener):
    sock, path = listener
    n = Notifier({"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.interval_ms is None
    assert n.ready() is True
    assert n.status("Epoch 3, 2 players") is True
    assert n.ready("Waiting\nfor players") is True
    assert n.stopping() is True
    assert received(sock) == [
        b"READY=1",
        b"STATUS=Epoch 3, 2 players",
        b"READY=1\nSTATUS=Waiting for players",
        b"STOPPING=1",
    ]
    n.close()


def test_abstract_socket():
    name = f"clans-pi-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    try:
        n = Notifier({"NOTIFY_SOCKET": "@" + name})
        assert n.ready() is True
        assert sock.recv(4096) == b"READY=1"
    finally:
        sock.close()


def test_watchdog_rate_limited_to_half_the_interval(listener):
    sock, path = listener
    clock = Clock()
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"}, clock=clock)
    assert n.interval_ms == 30_000
    assert n.watchdog() is True  # the first call always sends
    for step in (1.0, 5.0, 14.9):  # called every loop turn: nothing until 15 s have passed
        clock.now = 1000.0 + step
        assert n.watchdog() is False
    clock.now = 1015.0
    assert n.watchdog() is True
    clock.now = 1029.0
    assert n.watchdog() is False
    clock.now = 1030.0
    assert n.watchdog() is True
    assert received(sock) == [b"WATCHDOG=1"] * 3


def test_watchdog_for_another_process_is_off(listener):
    _sock, path = listener
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}
    n = Notifier(env)
    assert n.interval_ms is None
    assert n.watchdog() is False
    env["WATCHDOG_PID"] = str(os.getpid())
    assert Notifier(env).interval_ms == 30_000


@pytest.mark.parametrize("usec", ["", "0", "-5", "soon"])
def test_no_or_bad_watchdog_interval(listener, usec):
    _sock, path = listener
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": usec})
    assert n.interval_ms is None
    assert n.watchdog() is False


def test_no_socket_is_a_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    for n in (Notifier(), Notifier({})):
        assert not n.enabled
        assert n.interval_ms is None  # no socket, so nobody to ping
        assert n.ready() is False
        assert n.status("x") is False
        assert n.watchdog() is False
        assert n.stopping() is False
        n.close()


def test_not_a_unix_socket_is_a_no_op():
    n = Notifier({"NOTIFY_SOCKET": "vsock:2:1234", "WATCHDOG_USEC": "1000000"})
    assert not n.enabled
    assert n.ready() is False


def test_broken_socket_never_raises_and_logs_once(tmp_path, caplog):
    clock = Clock()
    missing = str(tmp_path / "nobody-listens")
    n = Notifier({"NOTIFY_SOCKET": missing, "WATCHDOG_USEC": "2000000"}, clock=clock)
    with caplog.at_level(logging.WARNING, logger="clans_pi.service.watchdog"):
        assert n.ready() is False
        assert n.status("still here") is False
        for _ in range(3):
            assert n.watchdog() is False
            clock.now += 1.0
        assert n.stopping() is False
    warnings = [r for r in caplog.records if r.name == "clans_pi.service.watchdog"]
    assert len(warnings) == 1
    assert missing in warnings[0].getMessage()


def test_sends_again_once_the_socket_works(tmp_path):
    path = str(tmp_path / "late")
    n = Notifier({"NOTIFY_SOCKET": path})
    assert n.ready() is False  # nobody listening yet
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    try:
        assert n.status("back") is True
        assert sock.recv(4096) == b"STATUS=back"
    finally:
        sock.close()
        n.close()
