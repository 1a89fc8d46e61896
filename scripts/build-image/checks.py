"""The checks scripts/test-image runs on a Clans Pi card booted in QEMU
(scripts/build-image/guest.py), as a family and a maker would meet it, each step printed
with its time:

  first boot    the root grows to the card, the machine restarts by itself
  broken file   a broken clans-pi.toml (before any game is kept): the start screen, with the
                one line saying what is wrong (it stays a minute); the file put back after
  start screen  power on to the start screen, which is the picture `clans-pi render --screen
                start --kiosk` draws of the same settings and state: the game draws through
                SDL's KMS/DRM on the card as on a Pi; until then the screen stays dark (no
                kernel text, cursor or login prompt)
  touch         a 2-player game against a computer started by touch, the clan peeked, a move
                played, the computer's answer; the screen matched at every step against the
                same game drawn here ("the shadow", in the same state)
  power cut     the power cut after a move; the root needs nothing beyond its journal; the
                next power-on shows the same game at the same move
  switch off    Menu, Switch off, Yes: the machine is off within 30 s; that boot's journal
                has no error from the game's unit
  compiled core that boot's journal has the game saying its computers think on the compiled
                core the builder cross-compiled (libclanscore-aarch64.so), which it loaded
                as its service runs it: the image's Python, in the unit's sandbox
  phone seat    a phone seat set in the card's clans-pi.toml: the phones' page is served
                through QEMU's forwarded port (on this machine's loopback only)

Run by scripts/test-image as root; run alone: python scripts/build-image/checks.py CARD.img WORK.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

# guest.py beside this file (its folder is sys.path[0] when run as a script).
from guest import SCREEN, Card, GuestError, Machine, have_tools

from clans_pi.hardware.seats import SeatDevices
from clans_pi.rules.board import load_default_board
from clans_pi.rules.epochs import load_default_chart
from clans_pi.saving.store import GameStore, read_save
from clans_pi.settings.config import Config, Problem, load_files
from clans_pi.ui.app import LONG_PRESS_MS, App
from clans_pi.ui.display import Display
from clans_pi.ui.run import render_start, table_app, use_language
from clans_pi.ui.screens.base import DOUBLE_TAP_MS

BOARD, CHART = load_default_board(), load_default_chart()
STATE = "/var/lib/clans-pi"
ETC_CONFIG = "/etc/clans-pi/config.toml"
BOOT_CONFIG = "/boot/firmware/clans-pi.toml"
#: A pixel differs when a colour channel differs by more than this; a screen matches when at
#: most MATCH_SHARE of its pixels differ (the same program drawing the same picture, on
#: another machine's SDL: exact, or nearly).
PIXEL_TOLERANCE = 24
MATCH_SHARE = 0.002


#: What the game says of its computers when it starts (clans_pi.cli, in the journal) on a
#: card whose computers think in C: the library the builder cross-compiled for the Pi.
COMPILED_CORE = "compiled core (libclanscore-aarch64.so)"


def computer_players(journal: list[str]) -> str | None:
    """What the game's journal lines say its computers think on (its last start), or None
    when they say nothing of it."""
    key = "computer players: "
    said = [line.split(key, 1)[1] for line in journal if key in line]
    return said[-1] if said else None


#: A dark screen: at most this share of its pixels lit (a channel above LIT_LEVEL); a line
#: of kernel text or a blinking cursor (8x2 pixels) is more.
LIT_LEVEL = 48
LIT_SHARE = 0.00001  # 4 pixels of 800x480


def lit_share(picture: pygame.Surface) -> float:
    rgb = pygame.surfarray.pixels3d(picture.convert(24) if picture.get_bitsize() != 24
                                    else picture)
    return float((rgb.max(axis=2) > LIT_LEVEL).mean())


def as_on_card(problems: list[str], where: dict[Path, Path]) -> list[str]:
    """``problems`` of the settings files read here (``where``'s keys) as the card's own
    files would give them (its values): each keeps what is wrong and what was left out, so
    that the screen names the card's clans-pi.toml as the game on the card does."""
    def renamed(text: str) -> str:
        for here, there in where.items():
            text = text.replace(str(here), str(there))
        return text

    return [Problem(where.get(p.file, p.file), renamed(p.what), p.unused)
            if isinstance(p, Problem) else renamed(p) for p in problems]

class CheckFailed(RuntimeError):
    pass


def say(step: str, text: str, t0: float) -> None:
    print(f"test-image: [{time.monotonic() - t0:6.0f} s] {step}: {text}", flush=True)


def difference(a: pygame.Surface, b: pygame.Surface) -> tuple[float, pygame.Rect | None]:
    """The share of pixels that differ (by more than PIXEL_TOLERANCE in a channel), and the
    rectangle holding them."""
    if a.get_size() != b.get_size():
        return 1.0, pygame.Rect((0, 0), a.get_size())
    import numpy as np

    x = pygame.surfarray.pixels3d(a.convert(24) if a.get_bitsize() != 24 else a).astype(int)
    y = pygame.surfarray.pixels3d(b.convert(24) if b.get_bitsize() != 24 else b).astype(int)
    differs = (np.abs(x - y) > PIXEL_TOLERANCE).any(axis=2)
    share = float(differs.mean())
    if not differs.any():
        return share, None
    xs, ys = np.nonzero(differs)
    return share, pygame.Rect(int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1),
                              int(ys.max() - ys.min() + 1))


class Shadow:
    """The same game drawn here: an App in the same state as the card's, whose buttons say
    where to touch and whose picture is what the card's screen must show."""

    def __init__(self, state_dir: Path, settings: Config) -> None:
        use_language(settings, state_dir)
        self.now = 10_000
        self.display = Display(SCREEN)
        # The same seat devices as the game's (no GPIO or handhelds in these settings; the
        # phones offered, their server started only by a phone seat).
        self.devices = SeatDevices.open(settings)
        self.app: App = table_app(BOARD, CHART, settings, state_dir, display=self.display,
                                  store=GameStore(state_dir), devices=self.devices,
                                  kiosk=True)
        self.app.clock = lambda: self.now
        self.app.start_menu()
        self.settle()

    def settle(self) -> None:
        """Animations and the double-tap window over; the picture drawn."""
        self.now += 5_000
        self.app.pump()
        self.app.redraw()

    def picture(self) -> pygame.Surface:
        self.settle()
        return self.app.surface.copy()

    def where(self, button: str) -> tuple[int, int]:
        screen = self.app.screen
        assert screen is not None
        b = screen.button(button)
        if not b.enabled:
            raise CheckFailed(f"the button {button} is not enabled on {screen.name}")
        return b.rect.center

    def _finger(self, kind: int, pos: tuple[float, float]) -> None:
        x, y = pos
        pygame.event.post(pygame.event.Event(kind, x=x / SCREEN[0], y=y / SCREEN[1], dx=0.0,
                                             dy=0.0, finger_id=0, touch_id=1, pressure=1.0))
        self.app.pump()

    def tap(self, pos: tuple[float, float], hold_ms: int = 100) -> None:
        self.now += DOUBLE_TAP_MS + 100
        self._finger(pygame.FINGERDOWN, pos)
        self.now += hold_ms
        self.app.pump()
        self._finger(pygame.FINGERUP, pos)

    def down(self, pos: tuple[float, float]) -> None:
        self.now += DOUBLE_TAP_MS + 100
        self._finger(pygame.FINGERDOWN, pos)
        self.now += LONG_PRESS_MS + 100
        self.app.pump()

    def up(self, pos: tuple[float, float]) -> None:
        self._finger(pygame.FINGERUP, pos)

    def territory_point(self, t: int) -> tuple[int, int]:
        """A point of territory ``t`` on the play screen that hit-tests to ``t``."""
        return self.app.screen.bv.touch_point(t)  # type: ignore[union-attr]

    def close(self) -> None:
        self.app.table.shutdown()
        self.devices.close()
        self.display.close()


class Checks:
    def __init__(self, card: Card, work: Path, port: int) -> None:
        self.card, self.work, self.port = card, work, port
        self.t0 = time.monotonic()
        self.machine: Machine | None = None
        self.figures: dict[str, float] = {}
        self.failures: list[str] = []
        self.boots = 0

    # --- helpers --------------------------------------------------------------------------
    def say(self, step: str, text: str) -> None:
        say(step, text, self.t0)

    def power_on(self, name: str) -> Machine:
        self.boots += 1
        self.machine = Machine(self.card, self.work, phone_port=self.port,
                               name=f"{self.boots}-{name}")
        return self.machine

    def wait_for(self, expected: pygame.Surface, what: str, timeout: float,
                 ignore: pygame.Rect | None = None, dark_before: bool = False) -> float:
        """Wait until the card's screen shows ``expected``; the machine's seconds since
        power-on then. On a timeout: the last screen and the expected one are kept in the
        work directory, and the step fails saying how they differ. ``dark_before``: until
        then the card's display must stay dark (no kernel text, cursor or login prompt);
        what lit it is kept as pictures and named in the failures."""
        m = self.machine
        assert m is not None
        deadline = time.monotonic() + timeout
        expected = expected.copy()
        last = None
        lit: list[Path] = []
        while time.monotonic() < deadline:
            if not m.running:
                raise CheckFailed(f"the machine went off while waiting for {what}")
            shot = m.screen()
            pygame.image.save(shot, str(self.work / "latest-screen.png"))  # to look at
            if ignore is not None:
                shot.fill((0, 0, 0), ignore)
                expected.fill((0, 0, 0), ignore)
            share, where = difference(shot, expected)
            if share <= MATCH_SHARE:
                if lit:
                    self.failures.append(
                        f"before {what} the screen showed something else ({len(lit)} "
                        f"screens, the first {m.name}: {lit[0]})")
                return m.seconds()
            # QEMU's own "not initialized" picture has its own size: only the card's mode.
            if dark_before and shot.get_size() == SCREEN and lit_share(shot) > LIT_SHARE:
                lit.append(self.work / f"lit-before-{what.replace(' ', '-')}-{len(lit)}.png")
                pygame.image.save(shot, str(lit[-1]))
            last = (shot, share, where)
            time.sleep(1)
        name = what.replace(" ", "-")
        if last is not None:
            pygame.image.save(last[0], str(self.work / f"{name}-screen.png"))
        pygame.image.save(expected, str(self.work / f"{name}-expected.png"))
        detail = (f"{last[1]:.1%} of the pixels differ, within {tuple(last[2])}"
                  if last is not None and last[2] is not None else "no screen")
        raise CheckFailed(f"no {what} within {timeout:.0f} s: {detail} (pictures in "
                          f"{self.work})")

    def read_state(self) -> Path:
        """The card's /var/lib/clans-pi as it is on the card now (the machine may be
        running: a snapshot, its journal replayed as a mount would), copied here."""
        m = self.machine
        paused = m is not None and m.running
        if paused:  # one instant of the card, as a power cut would leave it
            m.pause()
        try:
            snap = self.card.snapshot(self.work / "snapshot.img")
        finally:
            if paused:
                m.resume()
        try:
            snap.replay_journal()
            dest = self.work / f"state-{time.monotonic_ns()}" / Path(STATE).name
            if Path(STATE).name not in snap.root_files(str(Path(STATE).parent)):
                dest.mkdir(parents=True)  # the game has not run yet: it makes it
                return dest
            snap.copy_out(f"{STATE}/", dest)
            return dest
        finally:
            snap.image.unlink(missing_ok=True)

    def shadow_state(self, state: Path, name: str) -> Path:
        """A copy of the card's state for a shadow: its remembered language and guide,
        not its game (the shadow is handed that)."""
        dest = self.work / name
        if dest.exists():
            shutil.rmtree(dest)
        # symlinks=True: a link on the card (libpulse's runtime link in the service's home,
        # which is the state directory) points into the card's tree, not this machine's.
        shutil.copytree(state, dest, symlinks=True, ignore=shutil.ignore_patterns(
            "game.json", "game.prev.json", "game.tmp*", "lock"))
        return dest

    def saved(self, state: Path):  # -> Session
        data = json.loads((state / "game.json").read_text(encoding="utf-8"))
        return read_save(data, BOARD, CHART, "game.json")[1]

    def expected_start(self, state: Path, boot_text: str | None) -> pygame.Surface:
        """The start screen `clans-pi render --screen start --kiosk` draws for the card's
        settings (its /etc/clans-pi/config.toml and clans-pi.toml, read as the game reads
        them, their problems named as on the card) and state."""
        files = []
        etc = self.work / "etc-config.toml"
        etc.write_text(self.card_etc_config, encoding="utf-8")
        files.append(etc)
        boot = self.work / "boot-clans-pi.toml"
        if boot_text is not None:
            boot.write_text(boot_text, encoding="utf-8")
            files.append(boot)
        settings, problems = load_files(files)
        problems = as_on_card(problems, {etc: Path(ETC_CONFIG), boot: Path(BOOT_CONFIG)})
        out = self.work / "expected-start.png"
        render_start(BOARD, CHART, size=SCREEN, out=out, settings=settings, problems=problems,
                     state_dir=state, kiosk=True)
        return pygame.image.load(str(out))

    # --- the steps ------------------------------------------------------------------------
    def first_boot(self) -> None:
        step = "first boot"
        before = self.card.root.size
        m = self.power_on("first")
        took = m.wait_off(600)
        self.card = Card(self.card.image)
        if self.card.root.start + self.card.root.size != self.card.image.stat().st_size:
            raise CheckFailed(f"{step}: the root partition does not reach the end of the card")
        blocks = subprocess.run(["dumpe2fs", "-h", f"{self.card.image}?offset="
                                 f"{self.card.root.start}"], capture_output=True, text=True,
                                check=False).stdout
        fields = dict(line.split(":", 1) for line in blocks.splitlines() if ":" in line)
        fs = int(fields["Block count"]) * int(fields["Block size"])
        if fs < self.card.root.size - 4 * 2**20:
            raise CheckFailed(f"{step}: the root file system ({fs >> 20} MiB) was not grown "
                              f"to its partition ({self.card.root.size >> 20} MiB)")
        self.figures["first_boot_s"] = took
        self.say(step, f"the root grew from {before >> 20} MiB to {fs >> 20} MiB and the "
                 f"machine restarted by itself, {took:.0f} s after power-on")
        self.card_etc_config = self._etc_config()

    def _etc_config(self) -> str:
        path = self.work / "card-config.toml"
        self.card.copy_out(ETC_CONFIG, path)
        return path.read_text(encoding="utf-8")

    def start_screen(self) -> None:
        step = "start screen"
        m = self.power_on("start")
        state = self.shadow_state(self.read_state(), "start-state")
        boot_text = self.card.read_boot("clans-pi.toml")
        expected = self.expected_start(state, boot_text)
        seconds = self.wait_for(expected, "start screen", 600, dark_before=True)
        self.figures["power_on_to_start_screen_s"] = seconds
        self.say(step, f"the start screen, as `clans-pi render --screen start --kiosk` draws "
                 f"it, {seconds:.0f} s after power-on ({m.cmdline!r})")

    def touch_game(self) -> None:
        """A 2-player game against a computer, by touch; the screen checked at each step."""
        step = "touch"
        m = self.machine
        assert m is not None
        state = self.read_state()
        shadow = Shadow(self.work / "shadow-state", Config())
        try:
            def touch(button: str) -> None:
                pos = shadow.where(button)
                m.touch(pos)
                shadow.tap(pos)
                self.wait_for(shadow.picture(), f"the screen after touching {button}", 120)

            # Seat 2: person, person with a phone, computer (Easy).
            for button in ("guide", "players2", "kind1", "kind1"):
                touch(button)
            self.say(step, "2 players, the second a computer (Easy), the first-game guide "
                     "off: each touch seen on the screen")
            m.touch(shadow.where("start"))
            # The deal is the card's: the shadow takes it from the card's save.
            deadline = time.monotonic() + 120
            while True:
                state = self.read_state()
                if (state / "game.json").exists():
                    break
                if time.monotonic() > deadline:
                    raise CheckFailed("no game saved on the card 120 s after Start")
                time.sleep(3)
            session = self.saved(state)
            moves_before = session.public().ply
            shadow.app.table.seats = list(session.seats)
            shadow.app.begin(self.saved(state), peeks=True)  # a copy: the shadow plays on it
            self.wait_for(shadow.picture(), "the first seat's peek", 120)
            hold = shadow.where("hold")
            m.press(hold)
            shadow.down(hold)
            self.wait_for(shadow.picture(), "the clan shown while held", 60)
            m.release(hold)
            shadow.up(hold)
            self.say(step, "the first player's clan seen by press and hold")
            # After it, the computer may move first, its own move: the shadow follows the
            # card's save again rather than its own computer.
            pos = shadow.where("done")
            m.touch(pos)
            shadow.tap(pos)
            # The computer may move first: the human's turn, from the card's save.
            session = self._wait_turn(lambda s: s.public().ply >= moves_before)
            ply = session.public().ply
            # The shadow plays on a copy: its moves (and its own computer's) are not the
            # card's.
            shadow.app.begin(self.saved(self.last_state), peeks=False)
            self.wait_for(shadow.picture(), "the board at the first person's turn", 180)
            rng = random.Random(1)
            src = rng.choice(sorted(session.movable()))
            dst = rng.choice(sorted(session.legal_targets(src)))
            for t in (src, dst):
                pos = shadow.territory_point(t)
                m.touch(pos)
                shadow.tap(pos)
            order = getattr(shadow.app.screen, "order", None)
            if order is not None:
                for t in order.founds[:-1]:
                    pos = shadow.territory_point(t)
                    m.touch(pos)
                    shadow.tap(pos)
                touch("found")
            self.say(step, f"move {ply + 1} played by touch: huts from territory {src} to "
                     f"{dst}")
            t_move = time.monotonic()
            session = self._wait_turn(lambda s: s.public().ply >= ply + 2)
            self.figures["computer_answer_s"] = time.monotonic() - t_move
            self.moves_played = session.public().ply
            self.say(step, f"the card saved the move and the computer's answer (move "
                     f"{ply + 2})")
            shadow.app.begin(self.saved(self.last_state), peeks=False)
            try:
                self.wait_for(shadow.picture(), "the board after the computer's answer", 120)
                self.say(step, "the board on the screen as the shadow draws it")
            except CheckFailed as exc:  # said at the end; the steps after it still run
                self.failures.append(f"{step}: {exc}")
                self.say(step, f"FAILED: {exc}")
        finally:
            shadow.close()

    def _wait_turn(self, state_of, timeout: float = 300):  # -> Session
        """The card's saved game, once ``state_of`` holds for it and a person is to move."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.read_state()
            if (state / "game.json").exists():
                session = self.saved(state)
                if state_of(session) and session.seats[session.current_seat].is_human:
                    self.last_state = state
                    return session
            time.sleep(3)
        raise CheckFailed(f"the game on the card did not reach a person's turn in {timeout} s")

    def power_cut(self) -> None:
        step = "power cut"
        assert self.machine is not None
        self.machine.cut_power()
        snap = self.card.snapshot(self.work / "after-cut.img")
        try:
            journal = snap.replay_journal()
            problems = snap.check_root()
            if problems:
                raise CheckFailed(f"{step}: e2fsck -f -n after the journal finds "
                                  f"{len(problems)} problems: {problems[:3]}")
        finally:
            snap.image.unlink(missing_ok=True)
        replayed = "recovering journal" in journal
        self.say(step, "the power cut after move "
                 f"{self.moves_played}; e2fsck finds nothing to repair"
                 f"{' beyond replaying the journal' if replayed else ''}")
        self.power_on("after-cut")
        state = self.read_state()
        session = self.saved(state)
        if session.public().ply != self.moves_played:
            raise CheckFailed(f"{step}: the card kept move {session.public().ply}, not "
                              f"{self.moves_played}")
        shadow = Shadow(self.shadow_state(state, "shadow-state-2"), Config())
        try:
            shadow.app.begin(session, peeks=False)
            seconds = self.wait_for(shadow.picture(), "the same game after the power cut",
                                    600)
        finally:
            shadow.close()
        self.figures["power_cut_resume_s"] = seconds
        self.say(step, f"the same game at move {self.moves_played} on the screen {seconds:.0f}"
                 f" s after power-on")

    def switch_off(self) -> None:
        step = "switch off"
        m = self.machine
        assert m is not None
        state = self.read_state()
        session = self.saved(state)
        shadow = Shadow(self.shadow_state(state, "shadow-state-3"), Config())
        try:
            shadow.app.begin(session, peeks=False)
            for button in ("menu", "menu_off", "confirm_yes"):
                pos = shadow.where(button)
                m.touch(pos)
                shadow.tap(pos)
                if button != "confirm_yes":
                    self.wait_for(shadow.picture(), f"the screen after touching {button}", 120)
        finally:
            shadow.close()
        took = m.wait_off(30)
        self.figures["switch_off_s"] = took
        errors = self.unit_errors()
        if errors:
            raise CheckFailed(f"{step}: the game's unit logged errors this boot: {errors[:3]}")
        self.say(step, f"Menu, Switch off, Yes: off {took:.0f} s later; no error from "
                 "clans-pi.service in that boot's journal")

    def unit_errors(self) -> list[str]:
        """The last boot's error lines (priority err and worse) from clans-pi.service."""
        return self.game_journal("-p", "err")

    def game_journal(self, *options: str) -> list[str]:
        """The last boot's lines from clans-pi.service (those journalctl's ``options``
        select), read from the card (the machine off)."""
        dest = self.work / f"journal-{self.boots}"
        if dest.exists():
            shutil.rmtree(dest)
        self.card.copy_out("/var/log/journal/", dest / "journal")
        boots = subprocess.run(["journalctl", "-D", str(dest / "journal"), "--list-boots",
                                "-o", "json"], capture_output=True, text=True, check=False)
        if boots.returncode != 0:
            raise CheckFailed(f"journalctl cannot read the card's journal: {boots.stderr}")
        last = json.loads(boots.stdout)[-1]["boot_id"]
        out = subprocess.run(["journalctl", "-D", str(dest / "journal"), "-b", last,
                              "-u", "clans-pi.service", *options, "-o", "cat", "-q"],
                             capture_output=True, text=True, check=False).stdout
        return [line for line in out.splitlines() if line.strip()]

    def compiled_core(self) -> None:
        """The game on the card, as its service runs it, uses the compiled core: it says
        so in the journal when it starts (after switch_off: that boot's journal)."""
        step = "compiled core"
        said = computer_players(self.game_journal())
        if said is None:
            raise CheckFailed(f"{step}: the game on the card says nothing of its computers "
                              "in the journal")
        if said != COMPILED_CORE:
            raise CheckFailed(f"{step}: the game on the card says its computers think on "
                              f"the {said}, not the {COMPILED_CORE}")
        self.say(step, f"the game says its computer players think on the {said}")

    def phone_seat(self) -> None:
        step = "phone seat"
        text = '[seats]\n2 = "phone"\n'
        self.card.write_boot("clans-pi.toml", text, self.work)
        m = self.power_on("phone")
        deadline = time.monotonic() + 600
        answer = None
        while time.monotonic() < deadline and m.running:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/phone.css")
                response = conn.getresponse()
                answer = (response.status, response.getheader("Content-Type"),
                          response.read())
                conn.close()
                if answer[0] == 200:
                    break
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(2)
        if answer is None or answer[0] != 200:
            raise CheckFailed(f"{step}: the phones' page was not served on 127.0.0.1:"
                              f"{self.port} within 600 s ({answer})")
        self.figures["power_on_to_phone_page_s"] = m.seconds()
        self.say(step, f"clans-pi.toml's phone seat: the phones' page served through "
                 f"127.0.0.1:{self.port} {m.seconds():.0f} s after power-on")
        m.cut_power()

    def broken_file(self) -> None:
        """Before any game is kept (a maker edits the file before the first boot): a broken
        clans-pi.toml gives the start screen with its one line; the card's own file is put
        back after."""
        step = "broken file"
        built = self.card.read_boot("clans-pi.toml")
        text = 'language = "de"\n[seats\n2 = "phone"\n'
        self.card.write_boot("clans-pi.toml", text, self.work)
        self.power_on("broken")
        state = self.shadow_state(self.read_state(), "broken-state")
        expected = self.expected_start(state, text)
        seconds = self.wait_for(expected, "the start screen with the notice", 600)
        self.figures["power_on_to_broken_file_notice_s"] = seconds
        self.say(step, f"a broken clans-pi.toml: the start screen with its one line, "
                 f"{seconds:.0f} s after power-on")
        self.machine.cut_power()
        self.card.write_boot("clans-pi.toml", built, self.work)

def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("card", type=Path, help="the card: a raw disk image, as flashed")
    p.add_argument("work", type=Path, help="a directory for pictures, logs and copies")
    p.add_argument("--port", type=int, default=18080,
                   help="this machine's loopback port forwarded to the phones' 8080")
    p.add_argument("--figures", type=Path, help="write the measured figures (JSON) here")
    args = p.parse_args(argv)
    missing = have_tools()
    if missing:
        print(f"test-image: missing {', '.join(missing)}", file=sys.stderr)
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    checks = Checks(Card(args.card), args.work, args.port)
    try:
        for step in (checks.first_boot, checks.broken_file, checks.start_screen,
                     checks.touch_game, checks.power_cut, checks.switch_off,
                     checks.compiled_core, checks.phone_seat):
            step()
    except (CheckFailed, GuestError) as exc:
        print(f"test-image: FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        if checks.machine is not None:
            checks.machine.close()
        if args.figures is not None:
            args.figures.write_text(json.dumps(checks.figures, indent=1) + "\n")
    if checks.failures:
        print("test-image: FAILED: " + "; ".join(checks.failures), file=sys.stderr)
        return 1
    print("test-image: every step passed; " + ", ".join(
        f"{k} {v:.0f}" for k, v in checks.figures.items()))
    return 0


if __name__ == "__main__":
    pygame.init()
    sys.exit(main())
