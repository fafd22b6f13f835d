"""`jacknine play`: a whole match at the table. A person plays one seat against bots, with saves and resume;
with --auto, bots play every seat and the match is shown hand by hand."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from engine.cli.common import DEFAULT_RULESET, INVALID, UNREADABLE, fail, load_game_or_exit, make_bots
from engine.cli.render import render_hand_summary, team_name
from engine.errors import ArgumentError, RulesetError, UnreadableError
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.match import Match
from engine.rules.load import canonical_name
from engine.safefile import os_reason
from engine.sim import play_out
from engine.table.save import MAX_HANDS, MatchSave, SaveInUse, read_save
from engine.table.session import ResumeError, Session, TableConfig, save_bot_concern
from engine.text import escaped, one_line, printable, quoted, shell_word

DEFAULT_SAVE = "jacknine-match.yaml"


# Bots worth watching and playing against: they bid from their cards (random bots bid wildly and always fail).
DEFAULT_BOTS = "heuristic"


def play_cmd(
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Shipped or short name (see rulesets), or path "
                                                f"(default: {DEFAULT_RULESET}).", show_default=False)] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Bots play every seat; the match is shown hand by hand.")]
    = False,
    seat: Annotated[int | None, typer.Option("--seat", help="The seat you play (default: 0).",
                                             show_default=False)] = None,
    bots: Annotated[str | None, typer.Option("--bots", help="Bot name for every other seat, or one per seat "
                                             "separated by commas (default: heuristic).", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", min=0, help="Seed for the deals and the bots "
                                             "(default: 0 with --auto, else a random one, shown and saved).",
                                             show_default=False)]
    = None,
    save: Annotated[Path | None, typer.Option("--save", help="Match save file, rewritten after every move; an "
                                              "existing file is replaced only if it is a save of this same match "
                                              "(default: jacknine-match.yaml, or -2, -3... if taken).",
                                              show_default=False)] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue the match saved in this file (saves "
                                                "go back to it unless --save names another). A save that names an "
                                                "outside program (cmd:...) as a bot runs it only if you repeat its "
                                                "bots with --bots.")] = None,
    max_hands: Annotated[int, typer.Option("--max-hands", min=1, max=MAX_HANDS,
                                           help="Stop after this many hands.")] = 500,
) -> None:
    """Play a whole match to the rule file's end: you at one seat against bots, or bots only with --auto.

    At your turn type a choice number, a card (JS), an action (bid 18, pass, call, show pair), or q to save and stop.

    ? explains why each of your cards is or is not playable now. End of input and Ctrl-C also save.

    Exit status: 0 ok, 1 a rules problem (an invalid rule file, a save the rules reject), 2 usage or unreadable.
    """
    if auto:
        if save is not None or resume is not None or seat is not None:
            fail("play: --save, --resume and --seat are for playing yourself; leave out --auto", UNREADABLE)
        _auto_with_defaults(ruleset, bots, seed, max_hands)
        return
    # NO_COLOR asks for plain text: no colour and no other styling either (rich alone would keep bold)
    _stop_on_signal()
    console = TableConsole(highlight=False, soft_wrap=True,
                           color_system=None if os.environ.get("NO_COLOR") else "auto")
    session = _resume(resume, save, ruleset, seat, bots, seed, console) if resume is not None else \
        _new_with_defaults(ruleset, seat, bots, seed, max_hands, save, console)
    try:
        code = session.run()
    except BrokenPipeError:
        raise   # nobody reads the screen: the session saved the match; the command ends quietly (141)
    except OSError as e:  # the save's folder vanished, the disk is full...
        fail(f"{_shown(session.save_path)}: cannot write the save ({os_reason(e)})", UNREADABLE)
    raise typer.Exit(code)


def _auto_with_defaults(ruleset: str | None, bots: str | None, seed: int | None, max_hands: int) -> None:
    """A match of bots only, each option not given taking its default (seed 0)."""
    _auto(ruleset or DEFAULT_RULESET, bots or DEFAULT_BOTS, 0 if seed is None else seed, max_hands)


def _new_with_defaults(ruleset: str | None, seat: int | None, bots: str | None, seed: int | None, max_hands: int,
                       save: Path | None, console: TableConsole) -> Session:
    """A new match, each option not given taking its default (a random seed, shown and saved)."""
    return _new(ruleset or DEFAULT_RULESET, 0 if seat is None else seat, bots or DEFAULT_BOTS,
                secrets.randbelow(1 << 31) if seed is None else seed, max_hands, save, console)


def _first_save(session: Session) -> None:
    """Lock the save and write it before anything is shown, so a save that is in use or cannot be written is the
    only line printed."""
    try:
        session.hold_save()
    except SaveInUse:
        session.close_bots()
        fail(f"{_shown(session.save_path)}: another jacknine is playing this save; finish or stop it first",
             UNREADABLE)
    except OSError as e:
        fail(f"{_shown(session.save_path)}: cannot read the save ({os_reason(e)})", UNREADABLE)
    try:
        session.save()
    except OSError as e:
        session.release_save()
        fail(f"{_shown(session.save_path)}: cannot write the save ({os_reason(e)})", UNREADABLE)


def _followed(path: Path) -> Path:
    """A save named through a symbolic link is the link's target: the table writes there, beside the files the
    save names relative to its folder (a new file beside the link would not resume). A link to nothing is left as
    it is, and refused like anything else at that name that is not a save."""
    if not os.path.islink(path) or not os.path.exists(path):
        return path
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return path


def _stop_on_signal() -> None:
    """SIGTERM and SIGHUP end the match as Ctrl-C does: saved, temporary files removed, bots stopped."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            with contextlib.suppress(ValueError, OSError):   # not the main thread: leave the default
                signal.signal(sig, interrupt)


class TableConsole(Console):
    """The table's console: when nobody reads the screen any more (a closed pipe) it lets the session know, so
    the match is saved before the program ends quietly (rich's own console would just exit)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise BrokenPipeError


def _symbols(console: Console) -> bool:
    try:
        "\u2660\u2665\u2666\u2663".encode(console.encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def _read_line(prompt: str) -> str:
    """One line typed at the table. A closed or broken standard input is the end of input (the match is saved
    and the way to resume it shown), never a crash."""
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        raise EOFError
    try:
        return input(prompt)
    except (RuntimeError, OSError, ValueError):  # lost sys.stdin, a hung-up terminal, bytes that are not UTF-8
        raise EOFError from None


def _is_path(ref: str) -> bool:
    return "/" in ref or ref.endswith((".yaml", ".yml"))


def _stored_ruleset(ref: str, save_path: Path) -> str:
    """A shipped name stays a name; a path is written relative to the save's folder (as hand records do)."""
    if not _is_path(ref):
        return ref
    return os.path.relpath(_resolved(_home(ref)), _resolved(save_path).parent)


def _home(ref: str) -> Path:
    """`~` and `~user` expanded, as in a hand record's or an `extends` path (an unknown user: as written)."""
    try:
        return Path(ref).expanduser()
    except RuntimeError:
        return Path(ref)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop: the reader says what is wrong with the file
        return path.absolute()


def _shown(path: Path) -> str:
    return escaped(str(path))


def _free_default() -> Path:
    path, k = Path(DEFAULT_SAVE), 1
    while os.path.lexists(path):
        k += 1
        path = Path(f"jacknine-match-{k}.yaml")
    return path


def _check_target(path: Path, config: TableConfig, resuming: bool) -> None:
    """Refuse (exit 2) to replace anything but a save of this same match; an unfinished one only when resuming."""
    if not os.path.lexists(path):
        return
    try:
        existing = read_save(path)
    except UnreadableError:
        fail(f"{_shown(path)}: exists and is not a jacknine match save; nothing was overwritten (choose another "
             "--save)", UNREADABLE)
    mine = MatchSave(config.ruleset, config.seat, config.seed, config.bots, config.max_hands)
    if not existing.same_game(mine):
        fail(f"{_shown(path)}: holds a different match (its ruleset, seat, seed, bots or hand limit differ); nothing "
             "was overwritten (choose another --save)", UNREADABLE)
    if existing.status != "over" and not resuming:
        fail(f"{_shown(path)}: holds an unfinished save of this match; continue it with --resume "
             f"{shell_word(str(path))}, or choose another --save", UNREADABLE)


def _session(game: Game, config: TableConfig, path: Path, console: Console, prior: MatchSave | None,
             allow_programs: bool, written: str | None = None, bots_from: str = "--bots") -> Session:
    try:
        return Session(game, config, path, console, _read_line, prior, _symbols(console), allow_programs, written)
    except ArgumentError as e:  # the engine refused a setting (a save's seed, say): not a bot problem
        fail(f"{_shown(path)}: {escaped(str(e), 300)}", UNREADABLE)
    except ValueError as e:
        fail(f"{bots_from}: {e}", UNREADABLE)
    except ResumeError as e:
        fail(f"{_shown(path)}:{e.line}: {e}" if e.line else f"{_shown(path)}: {e}", e.code)


def _new(ruleset: str, seat: int, bots: str, seed: int, max_hands: int, save: Path | None,
         console: Console) -> Session:
    game = load_game_or_exit(ruleset)
    if not 0 <= seat < game.n:
        fail(f"--seat: {one_line(game.rules.name)} has seats 0..{game.n - 1}, not {seat}", UNREADABLE)
    path = _followed(save) if save is not None else _free_default()
    config = TableConfig(_stored_ruleset(canonical_name(ruleset), path), seat, seed, bots, max_hands)
    _check_target(path, config, resuming=False)
    session = _session(game, config, path, console, None, allow_programs=True)  # the user typed these bots
    _first_save(session)
    console.print(f"{one_line(game.rules.name)}: {one_line(game.rules.description)}", markup=False, highlight=False)
    console.print(f"you are seat {seat}; seed {seed}; saving to {_shown(path)}", markup=False, highlight=False)
    return session


def _saved_game(ref: str, resume: Path) -> Game:
    """The rule file a save names (a path is relative to the save's folder). Whatever is wrong with it is one
    line naming the save; the rule file's own problems are listed by `jacknine validate`."""
    target: str | Path = ref
    if _is_path(ref) and not _home(ref).is_absolute():
        target = _resolved(resume).parent / ref
    elif _is_path(ref):
        target = _home(ref)   # `~/h.yaml` means the home folder in a save, as in a record and in `extends`
    where = f"{_shown(resume)}: ruleset {quoted(ref)}"
    try:
        return load_game(target)
    except UnreadableError as e:
        fail(f"{where} cannot be used: {escaped(str(e), 400)}", UNREADABLE)
    except RulesetError as e:
        more = len(e.problems) - 1
        extra = f" (and {more} more problem{'s' if more != 1 else ''})" if more > 0 else ""
        first = escaped(str(e.problems[0]), 300) if e.problems else "invalid"
        fail(f"{where} is not a valid rule file: {first}{extra}; see jacknine validate {shell_word(str(target))}",
             INVALID)


def _resume(resume: Path, save: Path | None, ruleset: str | None, seat: int | None, bots: str | None,
            seed: int | None, console: Console) -> Session:
    try:
        prior = read_save(resume)
    except UnreadableError as e:
        fail(str(e), UNREADABLE)
    _check_restated(resume, prior, {"--ruleset": ruleset, "--seat": seat, "--bots": bots, "--seed": seed})
    game = _saved_game(prior.ruleset, resume)
    if not 0 <= prior.seat < game.n:
        fail(f"{_shown(resume)}: seat: {prior.seat} does not exist in {one_line(game.rules.name)} "
             f"(seats 0..{game.n - 1})", UNREADABLE)
    path = _followed(save if save is not None else resume)
    resume = _followed(resume)
    same_file = _resolved(path) == _resolved(resume)
    stored = prior.ruleset
    if not same_file and _is_path(stored):
        stored = _stored_ruleset(str(_resolved(resume).parent / stored), path)
    config = TableConfig(stored, prior.seat, prior.seed, prior.bots, prior.max_hands)
    if not same_file:
        _check_target(path, config, resuming=True)
    # outside programs run only when the user restated the save's bots (checked equal above)
    session = _session(game, config, path, console, prior, allow_programs=bots is not None,
                       written=prior.text if same_file else None,
                       bots_from="--bots" if bots is not None else f"{_shown(resume)}: bots")
    _first_save(session)
    console.print(f"{one_line(game.rules.name)}: resumed {_shown(resume)} at hand {len(session.match.hands) + 1}; "
                  f"you are seat {prior.seat}; saving to {_shown(path)}", markup=False, highlight=False)
    return session


def _check_restated(resume: Path, prior: MatchSave, given: dict[str, str | int | None]) -> None:
    """Options given on resuming must repeat what the save holds; a save naming an outside program runs it only
    when its bots are repeated with --bots."""
    saved: dict[str, str | int] = {"--ruleset": prior.ruleset, "--seat": prior.seat, "--bots": prior.bots,
                                   "--seed": prior.seed}
    for option, value in given.items():
        stored = saved[option]
        if value is not None and value != stored:
            shown = quoted(stored) if isinstance(stored, str) else stored
            fail(f"{option}: {_shown(resume)} was saved with {shown}; a resumed match keeps it (leave the option "
                 "out, or repeat the same value)", UNREADABLE)
    concern = save_bot_concern(prior.bots)
    if concern is not None and given["--bots"] is None:
        fail(f"{_shown(resume)}: bots: this save {concern}; a save may only choose built-in bots. If you trust it, "
             f"resume with its bots repeated: --bots {shell_word(prior.bots)}", UNREADABLE)


def _auto(ruleset: str, bots: str, seed: int, max_hands: int) -> None:
    game = load_game_or_exit(ruleset)
    seat_bots = make_bots(bots, game, seed)
    match = Match(game, seed=seed, max_hands=max_hands)
    teams = game.rules.table.teams
    typer.echo(f"{one_line(game.rules.name)}: {one_line(game.rules.description)}")
    typer.echo("teams: " + ", ".join(team_name(teams, i) for i in range(len(teams))))
    number = 0
    while not match.is_over:
        number += 1
        state = match.new_hand()
        play_out(state, seat_bots)
        match.record_hand(state)
        typer.echo(f"\nhand {number}, dealer {state.dealer}:")
        typer.echo(printable(render_hand_summary(state), keep_newlines=True))
        typer.echo("  match score: " + ", ".join(f"{team_name(teams, i)} {s}" for i, s in enumerate(match.scores)))
    won = " and ".join(team_name(teams, i) for i in match.winners)
    scores = ", ".join(str(s) for s in match.scores)
    if match.decided:
        typer.echo(f"\nmatch over after {number} hands: {won} won ({scores})")
    else:
        ahead = f"{won} ahead" if len(match.winners) < len(teams) else "all level"
        typer.echo(f"\nmatch stopped at the hand limit after {number} hands, nobody at the winning score: "
                   f"{ahead} ({scores})")


def register(app: typer.Typer) -> None:
    app.command("play")(play_cmd)
