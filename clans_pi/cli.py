"""The ``clans-pi`` command: play, show the board, replay a record, list the past games.

Errors in what the user gave us (files, records, options) print one line and exit 1;
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from . import __version__, i18n
from .bots.random_mover import RandomMover
from .i18n import N_, _, ngettext
from .palette import clan_name
from .rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Board,
    ClansError,
    GameOver,
    Strife,
    VillageFounded,
    VillageScored,
    VillageUnscored,
    deal,
    replay,
    result,
    to_record,
)
from .rules.epochs import EpochChart
from .saving.files import load_board, load_chart, read_json, user_state_dir
from .service.logs import setup_logging
from .settings.config import Config, load_config
from .settings.language import chosen_language
from .settings.options import (
    DEFAULT_SIZE,
    MAX_SIDE,
    MIN_SIZE,
    RENDER_SCREENS,
    ROTATIONS,
    size_problem,
)

DEFAULT_NAMES = ("Ada", "Bo", "Cy", "Di")
log = logging.getLogger("clans_pi")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except ClansError as exc:
        print(f"clans-pi {args.command}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clans-pi", description="A tabletop companion for Leo Colovini's Clans."
    )
    parser.add_argument("--version", action="version", version=f"clans-pi {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--board", metavar="PATH", help="a board file instead of the shipped one")
        p.add_argument("--chart", metavar="PATH", help="an epoch chart file (a variant)")

    p = sub.add_parser("play", help="play on the touchscreen (or --headless in the terminal)")
    common(p)
    p.add_argument("--fullscreen", action="store_true", default=None,
                   help="use the whole screen (settings: display.fullscreen)")
    p.add_argument("--size", type=_size, metavar="WxH",
                   help=f"window size, at least {MIN_SIZE[0]}x{MIN_SIZE[1]} as the game draws it "
                   "(after --rotate) (settings: display.size, default 800x480); ignored with "
                   "--fullscreen")
    p.add_argument("--rotate", type=int, choices=ROTATIONS,
                   help="turn the picture clockwise by this many degrees, touch follows "
                   "(settings: display.rotate, default 0)")
    p.add_argument("--load", metavar="FILE",
                   help="go on with a saved game or a game record (clans-save/1, clans-state/1, "
                   "clans-record/1)")
    p.add_argument("--seed", type=int, help="seed for a reproducible deal")
    p.add_argument("--config", metavar="FILE",
                   help="settings file (default: /etc/clans-pi/config.toml or "
                   "~/.config/clans-pi/config.toml when present)")
    p.add_argument("--kiosk", action="store_true",
                   help="run as the appliance (clans-pi.service): the menu offers Switch off "
                   "instead of Quit; it exits with status 10 (the service powers off), Ctrl+Q "
                   "with 11 (the service brings back the login prompt)")
    p.add_argument("--first-frame", action="store_true", help=argparse.SUPPRESS)
    g = p.add_argument_group("headless (random computer players in the terminal)")
    g.add_argument("--headless", action="store_true", help="no display: random movers play")
    g.add_argument(
        "--players", type=int, default=3, help=f"{MIN_PLAYERS} to {MAX_PLAYERS} (default 3)"
    )
    g.add_argument("--record", metavar="PATH", help="write the game record (JSON) here")
    g.add_argument("--quiet", action="store_true", help="print only the result")
    g.add_argument("--seats", metavar="KIND,KIND,...",
                   help="seats for a saved headless game: random, easy, normal or hard "
                   "each, or phone (moves at random, its clan seen on a phone), e.g. "
                   "phone,hard")
    g.add_argument("--listen", metavar="HOST:PORT", default="127.0.0.1:8080",
                   help="where phone seats' pages are served (--seats phone,...); "
                   "default 127.0.0.1:8080")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the game is saved after every move and resumed from "
                   "(default: $STATE_DIRECTORY, else ~/.local/state/clans-pi)")
    p.set_defaults(run=_play)

    p = sub.add_parser("render", help="draw one screen of a game to a PNG (no display needed)")
    common(p)
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="a saved game or a game record, or - for stdin (--screen start "
                   "without one: the start screen as the table shows it when it starts)")
    p.add_argument("--size", type=_size, default=DEFAULT_SIZE, metavar="WxH",
                   help=f"picture size, at least {MIN_SIZE[0]}x{MIN_SIZE[1]} (default 800x480)")
    p.add_argument("--screen", default="play", choices=RENDER_SCREENS,
                   help="which screen (default play)")
    p.add_argument("--kiosk", action="store_true",
                   help="--screen start: as the appliance shows it (with Switch off)")
    p.add_argument("--state-dir", metavar="DIR",
                   help="--screen start: the table's state (remembered language, guide, past "
                   "games)")
    p.add_argument("--rotate", type=int, choices=ROTATIONS, default=0,
                   help="turn the picture clockwise, as on a rotated display")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png", help="the PNG to write")
    p.add_argument("--config", metavar="FILE",
                   help="draw the clans as this settings file shows them (display.fifth_clan, "
                   "display.clan_marks; --screen start without FILE: all of it, its problems "
                   "as the notice); default: the defaults")
    p.set_defaults(run=_render)

    p = sub.add_parser("selftest", help="check the seat hardware: LEDs, buttons, handhelds")
    p.add_argument("--config", metavar="FILE", help="settings file (as for play)")
    p.add_argument("--seconds", type=float, default=15.0,
                   help="how long to wait for button presses (0: skip; default 15)")
    p.add_argument("--step", type=float, default=0.4, help=argparse.SUPPRESS)
    p.set_defaults(run=_selftest)

    p = sub.add_parser("board", help="describe the board")
    common(p)
    p.add_argument("--json", action="store_true", help="print the board as JSON")
    p.set_defaults(run=_board)

    p = sub.add_parser("history", help="list the finished games kept in a state directory and "
                       "print the scoreboard")
    common(p)
    p.add_argument("--state-dir", metavar="DIR",
                   help="the game's state directory (default: $STATE_DIRECTORY, else "
                   "~/.local/state/clans-pi); its records/ holds the finished games")
    p.add_argument("--json", action="store_true",
                   help='print {"games": [...], "scoreboard": [...]} as JSON')
    p.add_argument("--analysis", metavar="FILE",
                   help="instead: how well each player hid their clan in the game kept as "
                   "FILE (a record's name in records/, or a path); with --json "
                   '{"players": [{"name", "clan", "curve", "giveaways", "verdict"}]}')
    p.set_defaults(run=_history)

    p = sub.add_parser("replay", help="check a game record move by move and print the outcome")
    common(p)
    p.add_argument("file", metavar="FILE", help="a clans-record/1 JSON file, or - for stdin")
    p.set_defaults(run=_replay)
    return parser


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT like 800x480, not {text!r}"
        ) from None
    if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
        raise argparse.ArgumentTypeError(f"{text}: each side must be 1 to {MAX_SIDE} pixels")
    return w, h  # whether the game can draw at this size: _check_size, with the rotation


def _listen(text: str) -> tuple[str, int]:
    """--listen HOST:PORT, the phones' server's address."""
    host, _colon, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ClansError(f"--listen: expected HOST:PORT like 127.0.0.1:8080, not {text!r}")
    return host, int(port)


def _check_size(size: tuple[int, int], rotate: int) -> None:
    w, h = size
    problem = size_problem(size, rotate, what=f"--size {w}x{h}")
    if problem is not None:
        raise ClansError(problem)


def _render(args: argparse.Namespace) -> int:
    from .settings.config import Config
    from .ui.run import clan_look, render

    _check_size(args.size, 0)  # render's size is the picture before it is turned
    config, problems = Config(), []
    if args.config is not None:  # only when asked: a picture should not depend on the machine
        config, problems = load_config(args.config)
        for line in problems:
            print(f"clans-pi render: {line}", file=sys.stderr)
    board, chart = load_board(args.board), load_chart(args.chart)
    if args.file is None:
        if args.screen != "start":
            raise ClansError(f"--screen {args.screen} needs a game file (FILE)")
        from .ui.run import render_start

        state_dir = Path(args.state_dir) if args.state_dir else None
        if state_dir is not None and not state_dir.is_dir():
            raise ClansError(f"--state-dir {state_dir}: no such directory")
        render_start(board, chart, size=args.size, out=Path(args.output), settings=config,
                     problems=problems, state_dir=state_dir, kiosk=args.kiosk,
                     rotate=args.rotate)
        return 0
    if args.kiosk or args.state_dir:
        raise ClansError("--kiosk and --state-dir go with --screen start without a FILE")
    data = read_json(args.file, "game file")
    render(data, board, chart, size=args.size, screen=args.screen, out=Path(args.output),
           rotate=args.rotate, look=clan_look(config), where=args.file)
    return 0


def _selftest(args: argparse.Namespace) -> int:
    from .bots.compiled_check import verdict
    from .hardware.selftest import run_selftest

    config, problems = load_config(args.config)
    for line in problems:
        print(f"clans-pi selftest: {line}", file=sys.stderr)
    print(f"clans-pi selftest (settings: {config.source})")
    core_ok, said = verdict()
    print(f"computer players: {said}")
    passed = run_selftest(config, seconds=args.seconds, step_s=args.step)
    return 0 if passed and core_ok else 1


def _board(args: argparse.Namespace) -> int:
    board = load_board(args.board)
    if args.json:
        print(json.dumps(board.to_dict()))
        return 0
    print(_describe_board(board))
    return 0


def _describe_board(board: Board) -> str:
    terrains = Counter(t.terrain for t in board.territories)
    degrees = Counter(len(t.neighbors) for t in board.territories)
    lines = [
        f"{board.name} ({board.id})",
        f"{len(board.territories)} territories in {len(board.regions)} regions, "
        f"{len(board.lakes)} lakes, {len(board.rivers)} rivers",
        "terrain: " + ", ".join(f"{n} {t}" for t, n in sorted(terrains.items())),
        "neighbours: " + ", ".join(f"{n} with {d}" for d, n in sorted(degrees.items())),
    ]
    return "\n".join(lines)


def _history(args: argparse.Namespace) -> int:
    from .history import History, recent_since, scoreboard

    board, chart = load_board(args.board), load_chart(args.chart)
    state_dir = Path(args.state_dir) if args.state_dir else user_state_dir()
    if not state_dir.is_dir():
        raise ClansError(f"--state-dir {state_dir}: no such directory")
    if args.analysis:
        return _analysis(args, state_dir, board, chart)
    history = History(state_dir / "records", board, chart)
    games = history.refresh(log_damaged=False)
    for damaged in history.damaged:  # the list goes on without them
        print(f"clans-pi history: {damaged.file} left out: {damaged.problem}", file=sys.stderr)
    standings = scoreboard(games)
    if args.json:
        print(json.dumps({"games": [g.to_json() for g in games],
                          "scoreboard": [s.to_json() for s in standings]}, indent=1))
        return 0
    if not games:
        print(f"No finished games in {state_dir / 'records'}.")
        return 0
    what = "finished game" if len(games) == 1 else "finished games"
    print(f"{len(games)} {what} in {state_dir / 'records'}, newest first:")
    for g in games:
        players = ", ".join(f"{p.name} {p.score}{'*' if p.winner else ''}" for p in g.players)
        print(f"  {g.date:%Y-%m-%d %H:%M}  {players}  ({g.end.replace('_', ' ')}, "
              f"{g.moves} moves)  {g.file}")
    for title, rows in (("Scoreboard, all time", standings),
                        ("Last 30 days", scoreboard(games, since=recent_since()))):
        print(f"\n{title}:")
        if not rows:
            print("  no games")
            continue
        width = max(len(r.name) for r in rows)
        print(f"  {'':{width}}  games   wins  average  best  read right")
        for r in rows:
            read = f"{r.read_right} of {r.guessed}" if r.guessed else "-"
            print(f"  {r.name:{width}}  {r.games:5}  {r.wins:5.3g}  {r.average:7.1f}  "
                  f"{r.best:4}  {read}")
    return 0


def _analysis(args: argparse.Namespace, state_dir: Path, board: Board,
              chart: EpochChart) -> int:
    from .history.hiding import percent
    from .history.hiding_cache import HidingCache

    path = Path(args.analysis)
    if path.name == args.analysis and not path.exists():
        path = state_dir / "records" / args.analysis
    data = read_json(str(path), "record")
    reading = HidingCache(state_dir, board, chart).reading(data)  # kept for the screens
    reading.wait()
    hiding = reading.result
    if hiding is None:
        raise ClansError(f"{path.name}: {reading.error}")
    if args.json:
        print(json.dumps({"file": path.name, **hiding.to_json()}, indent=1))
        return 0
    print(f"How well each player hid their clan ({path.name}, {hiding.total} moves):")
    for p in hiding.players:
        print(f"  {p.name} ({p.clan}): {p.verdict.text()}; the table's reading "
              f"{percent(p.table[0])} % -> {percent(p.table[-1])} %")
        for g in p.giveaways:
            print(f"    {g.line()}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    board, chart = load_board(args.board), load_chart(args.chart)
    data = read_json(args.file, "record")
    state = replay(data, board, chart)
    print(json.dumps(result(state), indent=2))
    return 0


def _play(args: argparse.Namespace) -> int:
    if not args.headless:
        from .ui.run import play

        board, chart = load_board(args.board), load_chart(args.chart)
        load = read_json(args.load, "game file") if args.load else None
        setup_logging()
        config, problems = load_config(args.config)
        log.info("clans-pi %s, settings: %s", __version__, config.source)
        from . import compiled

        # Which path the computers think on, and why not the compiled one (the journal).
        log.info("computer players: %s", compiled.describe())
        for line in problems:
            log.warning("%s", line)  # to the journal; shown on the screen too
        state_dir = Path(args.state_dir) if args.state_dir else config.state_dir
        config.state_dir = state_dir  # handheld pairings live beside the saved game
        # The command line wins over the settings file.
        fullscreen = config.fullscreen if args.fullscreen is None else True
        rotate = config.rotate if args.rotate is None else args.rotate
        if args.size is not None and not fullscreen:
            _check_size(args.size, rotate)
        return play(board, chart, size=args.size or config.size, fullscreen=fullscreen,
                    rotate=rotate,
                    seed=args.seed, load=load,
                    first_frame_only=args.first_frame, config=config, notices=problems,
                    state_dir=state_dir, kiosk=args.kiosk, load_from=args.load or "")
    return _play_headless(args)


def _headless_language(args: argparse.Namespace, state_dir: Path | None) -> Config:
    """The settings, and the language the table's screen would use (the start screen's
    choice remembered in ``state_dir``, or in the settings' state directory, else the
    settings' language): the headless game names the clans in it. Problems go to stderr,
    one line each; English is kept then."""
    config, problems = load_config(args.config)
    where = state_dir if state_dir is not None else config.state_dir
    problem = i18n.set_language(chosen_language(config.language, where))
    for line in [*problems, *([problem] if problem else [])]:
        print(line, file=sys.stderr)
    return config


#: The engine's words shown in the quick headless game, marked for translation: each is
#: shown as ``_(LABEL[word])`` (the terrains' names are the screen's, ui.theme's).
EFFECT_LABEL = {"favourable": N_("favourable"), "neutral": N_("neutral"),
                "hostile": N_("hostile")}
END_LABEL = {"twelfth_village": N_("12th village"), "no_moves": N_("no move left")}


def _play_headless(args: argparse.Namespace) -> int:
    if args.seats or args.state_dir:
        from .table.headless import parse_seats, run_headless

        kinds = parse_seats(args.seats or "random,random,random")
        board, chart = load_board(args.board), load_chart(args.chart)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        def tell(text: str) -> None:
            print(text, flush=True)

        say = (lambda _text: None) if args.quiet else tell
        state_dir = Path(args.state_dir or user_state_dir())
        config = _headless_language(args, state_dir)
        run_headless(state_dir, kinds, board, chart, random.Random(seed), say,
                     listen=_listen(args.listen), fifth_clan=config.fifth_clan, result=tell)
        return 0
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        raise ClansError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {args.players}")
    board, chart = load_board(args.board), load_chart(args.chart)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    config = _headless_language(args, None)
    fifth = config.fifth_clan
    from .ui.theme import TERRAIN_LABEL  # the screen's names (no pygame)

    def names(clans: Sequence[str]) -> str:
        return ", ".join(clan_name(c, fifth) for c in clans)

    state = deal(board, DEFAULT_NAMES[: args.players], rng, chart)
    mover = RandomMover(rng=rng)
    say = (lambda _text: None) if args.quiet else print
    say(_("Clans on {board}, seed {seed}: {players} (first: {first})").format(
        board=board.name, seed=seed, players=", ".join(state.players), first=state.players[0]))
    while not state.is_over:
        player = state.current_player
        move = mover.choose(state)
        for event in state.play(move):
            # Built from public events only: nothing here tells whose clan is whose (R22).
            if isinstance(event, VillageFounded):
                terrain = board.terrain(event.territory)
                say("  " + _("move {n}: {name} founds a village on {terrain} {territory} "
                             "(chip {chip}, epoch {epoch})").format(
                    n=state.ply, name=state.players[player],
                    terrain=_(TERRAIN_LABEL.get(terrain, terrain)),
                    territory=event.territory, chip=event.chip, epoch=event.epoch))
            elif isinstance(event, Strife):
                say("    " + ngettext("strife: {clans} loses its hut",
                                      "strife: {clans} lose their hut",
                                      len(event.removed)).format(clans=names(event.removed)))
            elif isinstance(event, VillageScored):
                say("    " + _("worth {value} ({effect}) to {clans}").format(
                    value=event.value, effect=_(EFFECT_LABEL.get(event.effect, event.effect)),
                    clans=names(event.clans) or _("nobody")))
            elif isinstance(event, VillageUnscored):
                say("    " + _("{territory} is cut off too late: no chip left (R18)").format(
                    territory=event.territory))
            elif isinstance(event, GameOver):
                say(ngettext("Game over after {n} move ({reason}).",
                             "Game over after {n} moves ({reason}).", state.ply).format(
                    n=state.ply, reason=_(END_LABEL.get(event.reason, event.reason))))
    for i, name in enumerate(state.players):
        mark = "  " + _("winner") if i in state.winners() else ""
        clan = state.clan_of(i)
        print(f"{name:>4}: {clan_name(clan, fifth):<6} " + _(
            "{points} points + {chips} chips = {score}").format(
            points=f"{state.clan_points[clan]:>3}", chips=state.chips[i],
            score=state.scores()[i]) + mark)
    if args.record:
        try:
            Path(args.record).write_text(json.dumps(to_record(state), indent=1) + "\n")
        except OSError as exc:
            raise ClansError(f"cannot write record {args.record}: {exc.strerror}") from None
        say(_("record written to {path} (check it with: clans-pi replay {path})").format(
            path=args.record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
