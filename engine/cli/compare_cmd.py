"""The compare command: what a house rule changes, the same deals played under two rule files by the same bots."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from engine.cli.common import UNREADABLE, bot_names, fail, load_game_or_exit
from engine.cli.runs import CLUSTER_HELP, WORKERS_HELP, check_cluster, progress_bar
from engine.errors import ClusterError


def compare_cmd(
    a: Annotated[str, typer.Argument(metavar="A", help="Rule file A: a shipped name or a path.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Rule file B, e.g. a house rule of A.")],
    bots: Annotated[str, typer.Option("--bots", help="The bot at every seat under both files (one name, or one per "
                                                     "seat separated by commas).")] = "heuristic",
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, max=10**9, help="How many deals.")] = 2000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed for the deals and the bots.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help=WORKERS_HELP)] = 1,
    cluster: Annotated[str | None, typer.Option("--cluster", help=CLUSTER_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Play the same deals under two rule files with the same bots and show what changes: contracts by bid,
    success rates, card and game points per side, each mechanism's use and effect, hand length, each with a 95%
    interval, and B - A. Where both files deal the same pack to the same table the very same deals are played
    (duplicate), so the differences are measured hand by hand."""
    from engine.compare import compare

    check_cluster(cluster)
    game_a = load_game_or_exit(a)
    game_b = load_game_or_exit(b)
    if game_a.n != game_b.n:
        fail(f"{a} seats {game_a.n} players and {b} {game_b.n}: the same bots cannot sit at both tables",
             UNREADABLE)
    specs = bot_names(bots, game_a)
    bar = progress_bar(hands, "hands", quiet=as_json)
    try:
        rep = compare(game_a, game_b, specs, hands, seed, workers=workers, cluster=cluster,
                      on_progress=bar.update if bar is not None else None)
    except ClusterError as e:
        fail(str(e), UNREADABLE)
    finally:
        if bar is not None:
            bar.close()
    typer.echo(json.dumps(rep) if as_json else render(rep))


def _pct(e: dict[str, Any] | None) -> str:
    if e is None or e["share"] is None:
        return "-"
    lo, hi = e["ci95"]
    return f"{100 * e['share']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _mean(e: dict[str, Any] | None, signed: bool = True) -> str:
    if e is None or e["n"] == 0:
        return "-"
    lo, hi = e["ci95"]
    f = "+.3f" if signed else ".2f"
    return f"{e['mean']:{f}} [{lo:{f}}, {hi:{f}}]"


def _diff(d: dict[str, Any], scale: float = 1.0) -> str:
    lo, hi = d["ci95"]
    return f"{scale * d['mean']:+.3f} [{scale * lo:+.3f}, {scale * hi:+.3f}]"


def render(rep: dict[str, Any]) -> str:
    a, b, d = rep["a"], rep["b"], rep["difference"]
    how = "the same deals under both (duplicate)" if rep["duplicate"] else "each file dealing its own hands"
    lines = [f"A = {a['ruleset']}, B = {b['ruleset']}: {rep['hands']} hands, {how}; bots "
             f"{','.join(dict.fromkeys(rep['bots']))}, seed {rep['seed']}. Means and shares with 95% intervals.", ""]
    w = 30
    col = 30 - 2    # characters per column of figures
    lines.append(f"{'':<{w}}{'A':<{col}}{'B':<{col}}B - A")
    rows = [
        ("annulled hands", _pct(_share(a["annulled"], a["hands"])), _pct(_share(b["annulled"], b["hands"])),
         _diff(d["annulled"], 100) + " pts"),
        ("contracts made", _pct(a["success_rate"]), _pct(b["success_rate"]), _diff(d["success_rate"], 100) + " pts"),
        ("game points, bidding side", _mean(a["game_points"]["bidding_side"]),
         _mean(b["game_points"]["bidding_side"]), _diff(d["bidding_side_game_points"])),
        ("game points, other side", _mean(a["game_points"]["other_side"]), _mean(b["game_points"]["other_side"]),
         _diff(d["other_side_game_points"])),
        ("card points, bidding side", _mean(a["card_points"]["bidding_side"], False),
         _mean(b["card_points"]["bidding_side"], False), _diff(d["bidding_side_card_points"])),
        ("card points, other side", _mean(a["card_points"]["other_side"], False),
         _mean(b["card_points"]["other_side"], False), _diff(d["other_side_card_points"])),
        ("actions per hand", _mean(a["hand_length"]["actions"], False), _mean(b["hand_length"]["actions"], False),
         _diff(d["actions"])),
        ("tricks per hand", _mean(a["hand_length"]["tricks"], False), _mean(b["hand_length"]["tricks"], False),
         _diff(d["tricks"])),
    ]
    for name, x, y, z in rows:
        lines.append(f"{name:<{w}}{x:<{col}}{y:<{col}}{z}")
    lines += ["", f"{'contracts by bid':<{w}}{'share of hands (hands)':<{col + 8}}made"]
    for c in sorted(set(a["contracts_by_bid"]) | set(b["contracts_by_bid"]),
                    key=lambda c: (0, int(c), "") if c.isdigit() else (1, 0, c)):
        lines += [_bid_line(c, tag, side["contracts_by_bid"].get(c), w, col) for tag, side in (("A", a), ("B", b))]
    mechs = sorted(set(a["mechanisms"]) | set(b["mechanisms"]))
    if mechs:
        lines += ["", f"{'mechanism':<{w}}{'open in (hands)':<{col}}{'used in (hands)':<{col}}{'ended':>6}  "
                      "game points of its users"]
        for m in mechs:
            lines += [_mechanism_line(m, tag, side["mechanisms"].get(m), w, col) for tag, side in (("A", a), ("B", b))]
    return "\n".join(lines)


def _bid_line(c: str, tag: str, e: dict[str, Any] | None, w: int, col: int) -> str:
    """One file's row of a contract: its share of the hands and how often it was made ('-': never bid)."""
    label = f"  {c if tag == 'A' else '':<6}{tag}"
    hands = f"{_pct(e['hands'])} ({e['hands']['count']})" if e else "-"
    return f"{label:<{w}}{hands:<{col + 8}}{_pct(e['made']) if e else '-'}"


def _mechanism_line(m: str, tag: str, e: dict[str, Any] | None, w: int, col: int) -> str:
    """One file's row of a mechanism: open in, used in, ended, its users' game points."""
    label = f"  {m if tag == 'A' else '':<{w - 5}}{tag}"
    if e is None:
        return f"{label:<{w}}never open"
    return (f"{label:<{w}}{_pct(e['offered']):<{col}}{_pct(e['used']):<{col}}{e['ended_hand']:>6}  "
            f"{_mean(e['user_game_points'])}")


def _share(k: int, n: int) -> dict[str, Any]:
    from engine.compare import share_ci

    return share_ci(k, n)


def register(app: typer.Typer) -> None:
    app.command("compare")(compare_cmd)
