"""The typer application; each command group lives in its own module and registers itself here.

`main()` is the `jacknine` program: it runs the app and turns what click would print as a framed usage message
into one line, so every refusal is one line on stderr with exit status 2. Ctrl-C ends with status 130 (the
table saves first), and a closed output pipe (`jacknine ... | head`) ends quietly, as SIGPIPE does (141)."""

from __future__ import annotations

import os
import sys
from importlib import metadata
from typing import Annotated, Any

import typer


def _flags_take_no_value() -> None:
    """Typer's help shows a flag's type (`--auto <bool>`) as if the flag took a value; a flag has none."""
    import typer.core

    shown = typer.core.TyperOption.display_type_rich

    def display_type_rich(self: typer.core.TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag or self.count else shown(self, ctx)

    typer.core.TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_take_no_value()

app = typer.Typer(
    name="jacknine",
    help="Play, check and simulate the Jack-Nine family of card games (every game a YAML rule file states).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

INTERRUPTED = 130
BROKEN_PIPE = 141


def version_text() -> str:
    try:
        return f"jacknine {metadata.version('jacknine')}"
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        return "jacknine (not installed)"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", is_eager=True,
                                          callback=_show_version)] = False,
) -> None:
    """Play, check and simulate the Jack-Nine family of card games (every game a YAML rule file states)."""


def _register_all() -> None:
    from engine.cli import compare_cmd, hand_cmds, play_cmd, rules_cmds, serve_cmd, tournament_cmd

    rules_cmds.register(app)
    hand_cmds.register(app)
    play_cmd.register(app)
    tournament_cmd.register(app)
    serve_cmd.register(app)
    compare_cmd.register(app)


_register_all()


def run(args: list[str] | None = None) -> int:
    """Run the command line `args` (default: sys.argv) and return its exit status. Output that cannot be written
    (a full disk, a file that may not grow) ends the command with one line and status 2."""
    try:
        status = _run(args)
        sys.stdout.flush()    # here, not at exit, where a failure could only be a traceback-like complaint
    except BrokenPipeError:
        return _quiet_stdout(BROKEN_PIPE)
    except OSError as e:
        return _cannot_write(e)
    return status


def _quiet_stdout(status: int) -> int:
    """Point stdout at the null device, so that nothing left in its buffer is written (or fails) at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return status


def _cannot_write(e: OSError) -> int:
    what = f"{e.filename}" if e.filename else "cannot write the output"
    try:
        sys.stderr.write(f"jacknine: {what} ({e.strerror or e})\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return _quiet_stdout(UNREADABLE_OUTPUT)


UNREADABLE_OUTPUT = 2   # the exit status of input or output that cannot be used


def _run(args: list[str] | None) -> int:
    try:
        result = app(args=args, prog_name="jacknine", standalone_mode=False)
    except KeyboardInterrupt:
        return INTERRUPTED
    except SystemExit as e:
        # click meets a closed pipe by wrapping stdout to stay quiet and exiting 1; say it the shell's way
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":
            return BROKEN_PIPE
        return e.code if isinstance(e.code, int) else 1
    except BrokenPipeError:
        # whoever read our output stopped reading: say nothing more, and never complain at exit either
        return _quiet_stdout(BROKEN_PIPE)
    except OSError:
        raise           # output that cannot be written: run() says so in one line
    except Exception as e:  # noqa: BLE001 - click's usage errors; typer may vendor click, so by their shape
        return _usage_error(e)
    return result if isinstance(result, int) else 0


def _usage_error(e: Exception) -> int:
    """One line for a usage error (click's UsageError/ClickException, whichever copy of click typer uses)."""
    kind = type(e).__name__
    ctx = getattr(e, "ctx", None)
    where = getattr(ctx, "command_path", None) or "jacknine"
    if kind == "NoArgsIsHelpError" and ctx is not None:
        typer.echo(ctx.get_help())
        return 2
    if kind == "Abort":
        return INTERRUPTED
    message = getattr(e, "format_message", None)
    code = getattr(e, "exit_code", None)
    if not callable(message) or not isinstance(code, int):
        raise e
    hint = f" (see '{where} --help')" if ctx is not None else ""
    typer.echo(f"{where}: {message()}{hint}", err=True)
    return code


def _replace_what_cannot_be_shown() -> None:
    """A terminal or pipe whose encoding lacks a character (`PYTHONIOENCODING=ascii`, a latin-1 locale) shows '?'
    in its place instead of ending the command with UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure) and getattr(stream, "errors", "strict") == "strict":
            reconfigure(errors="replace")


def main() -> None:
    _replace_what_cannot_be_shown()
    sys.exit(run())
