"""`jacknine serve`: the web table (the optional `web` extra: Starlette, uvicorn, websockets)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated

import typer

from engine.cli.common import UNREADABLE, fail

DEFAULT_DB = "jacknine-tables.db"
_NEEDED = ("starlette", "uvicorn", "websockets", "segno")


def serve_cmd(
    host: Annotated[str, typer.Option("--host", help="Address to listen on; 0.0.0.0 only to let other machines "
                                      "of your home network in.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[Path, typer.Option("--db", help="SQLite file holding the tables (created if missing); a "
                                     "restart over the same file resumes every table.")] = Path(DEFAULT_DB),
    max_tables: Annotated[int, typer.Option("--max-tables", min=1, max=10000, help="Tables this server holds "
                                            "at most.")] = 200,
    grace: Annotated[float, typer.Option("--grace", min=0, max=3600, help="Seconds a person may be away before "
                                         "a bot plays for them.")] = 45.0,
    bot_delay: Annotated[float, typer.Option("--bot-delay", min=0, max=10, help="Seconds a bot waits before "
                                             "its move at a table with people.")] = 0.7,
    workers: Annotated[int, typer.Option("--workers", min=1, max=16, help="Worker processes for the search "
                                         "bots.")] = 2,
    allow_host: Annotated[list[str] | None, typer.Option("--allow-host", help="A name this server is reached by "
                                                         "(repeatable); IP addresses and localhost always work, "
                                                         "other names are refused.")] = None,
) -> None:
    """Serve a table for people at different places: open the printed address, create a table of any shipped
    game or an uploaded house rule, and send each player the link of their seat.

    Exit status: 0 stopped (Ctrl-C), 2 the web extra is not installed or the address or database cannot be used.
    """
    missing = [m for m in _NEEDED if importlib.util.find_spec(m) is None]
    if missing:
        fail(f"serve: the web extra is not installed (missing {', '.join(missing)}); install it with: "
             "python3 -m pip install '.[web]' (from a checkout)", UNREADABLE)
    import sqlite3

    import uvicorn

    from engine.web.server import Settings, build_app

    try:
        sqlite3.connect(str(db)).close()
    except sqlite3.Error as e:
        fail(f"--db: {db}: cannot be used as a database ({e})", UNREADABLE)
    app = build_app(Settings(db=db, max_tables=max_tables, grace=grace, bot_delay=bot_delay, workers=workers,
                             allowed_hosts=tuple(h.strip().lower() for h in allow_host or ())))
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"jacknine serve: the lobby is at http://{shown}:{port}/ (tables kept in {db}; Ctrl-C stops)")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=16 * 1024,
                            ws_ping_interval=20, ws_ping_timeout=20, lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run()
    except OSError as e:   # the port is taken, the address is not this machine's
        fail(f"serve: cannot listen on {host}:{port} ({e.strerror or e})", UNREADABLE)
    if not server.started:
        fail(f"serve: cannot listen on {host}:{port}", UNREADABLE)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)
