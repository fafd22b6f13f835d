"""Plain-text renderings of deals, replays, finished hands and simulation statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import SUIT_NAMES
from engine.play.banked import banked_words
from engine.play.base import AUCTION, RAISE, UNDECIDED
from engine.play.game import NO_TRUMP, GameTables
from engine.play.match import annulled_dealer_words
from engine.play.state import State
from engine.record import Replay
from engine.text import escaped, quoted


def hand_text(game: GameTables, cards: list[int]) -> str:
    """A hand sorted by suit then rank (high first), suits separated by two spaces."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(game.suit_of[c], []).append(c)
    parts = []
    for s in sorted(by_suit):
        parts.append(" ".join(game.codes[c] for c in sorted(by_suit[s], key=lambda c: -game.strength[c])))
    return "  ".join(parts)


def team_name(teams: Sequence[Sequence[int]], i: int) -> str:
    return "team " + "+".join(str(s) for s in teams[i])


def render_deal(state: State, seed: int) -> str:
    g = state.game
    lines = [f"{g.rules.name}: seed {seed}, dealer {state.dealer}, first hand {state.first}"]
    for seat, cards in enumerate(state.dealt):
        lines.append(f"  seat {seat}: {hand_text(g, cards)}")
    return "\n".join(lines)


def render_hand_summary(state: State) -> str:
    """Every trick, the card points and the score change of a finished hand."""
    g = state.game
    lines: list[str] = []
    if state.bidder >= 0:
        extra = f", x{state.multiplier}" if state.multiplier != 1 else ""
        lines.append(f"  contract: {_contract_words(state)}, trump {trump_words(state)}{extra}"
                     + (f", exposed in trick {state.exposed_trick}" if state.exposed_trick else ""))
    for i, t in enumerate(state.tricks, 1):
        cards = "  ".join(f"{s}:{g.codes[c]}" for s, c in zip(t.seats, t.cards, strict=True))
        lines.append(f"  trick {i}: {cards}  -> seat {t.winner} ({t.points} pts)")
    if state.status == "annulled":
        lines.append(f"  annulled: {state.annul_reason}; {annulled_dealer_words(state.game, state.annul_code)}")
    elif state.status == "complete":
        lines += _complete_lines(state)
    return "\n".join(lines)


def _contract_words(state: State) -> str:
    """The special contract, the bid (and its target where it differs), or a later round's raise under way."""
    if state.special is not None:
        return f"{state.special.name} by seat {state.bidder}"
    if state.round >= 2 and state.phase in (AUCTION, RAISE) and 0 <= state.high_bidder != state.bidder:
        # a later round in progress: the bid has moved to the raiser's, the holder changes when it ends
        return (f"seat {state.high_bidder} raised to {state.bid} and holds the contract unless outbid (the "
                "round goes on)")
    return f"seat {state.bidder} bid {state.bid}" + (f" (target {state.target})" if state.target != state.bid else "")


def _complete_lines(state: State) -> list[str]:
    """A finished hand's card points, melds, outcome and game points."""
    pts = ", ".join(f"{team_name(state.hand_teams, i)} {p}" for i, p in enumerate(state.team_points))
    gp = ", ".join(f"{team_name(state.hand_teams, i)} {p:+d}" for i, p in enumerate(state.game_points))
    said = banked_words(state) or ("made" if state.made else "failed")   # a banked hand: why, in words
    return [f"  card points: {pts}", *meld_summary(state), f"  {said}; game points: {gp}"]


def meld_summary(state: State) -> list[str]:
    """The melds that scored and the trump marriages, per side (files with combinations or trump_marriage)."""
    g = state.game
    if g.rules.combinations is None and g.rules.marriage is None:
        return []
    from engine.play.combinations import melds_report

    name = g.rules.marriage.name if g.rules.marriage is not None else "marriage"
    parts = []
    for side in melds_report(state):
        said = [f"seat {m['seat']} " + (f"sequence of {m['length']}" if m["kind"] == "sequence" else "four of a kind")
                + f" ({m['value']})" for m in side["scored"]]
        said += [f"seat {s} {name}" for s in side["marriages"]]
        part = f"{team_name(state.hand_teams, side['team'])} melds {side['meld_points']}"
        if side["marriage_points"]:
            part += f" + {name} {side['marriage_points']}"
        parts.append(part + (f" ({', '.join(said)})" if said else ""))
    return ["  " + "; ".join(parts)]


def mode_words(game: GameTables, mode: int) -> str:
    """A trump mode as a player says it: its name, and whether every suit or none plays as trumps."""
    md = game.rules.trump.modes[mode]
    return f"{md.name} ({'all trumps' if md.all_trumps else 'no trump suit'})"


def trump_words(state: State) -> str:
    """The trump as the whole record shows it: not chosen yet, no trumps, or the suit (said concealed while it
    is face down)."""
    if state.trump == UNDECIDED:
        return "not chosen yet" if state.status == "in_progress" else "none chosen"
    if state.trump_mode >= 0:
        return mode_words(state.game, state.trump_mode)
    if state.trump == NO_TRUMP:
        return "no trumps"
    code = state.trump_suit_code() or ""
    name = SUIT_NAMES.get(code, code)
    if state.concealed:
        return f"{name} (concealed{', never exposed' if state.status == 'complete' else ''})"
    return name


def render_replay(rp: Replay, rep: dict[str, Any]) -> str:
    s = rp.state
    g = rp.game
    lines = [f"{g.rules.name}: dealer {s.dealer}"]
    for seat, cards in enumerate(s.dealt):
        lines.append(f"  seat {seat}: {hand_text(g, cards)}")
    if s.turned_card >= 0:   # the turned card, and the stock's bottom card once shown (engine/play/turned.py)
        bottom = f"; the stock's bottom card shown: {g.codes[s.bottom_shown]}" if s.bottom_shown >= 0 else ""
        lines.append(f"  turned up: {g.codes[s.turned_card]}{bottom}")
    auction = [str(a) for a in s.history if a.verb not in ("play",)]
    if auction:
        lines.append("  actions before and between tricks: " + ", ".join(auction))
    lines.append(render_hand_summary(s))
    lines.append(_where_stopped(rep))
    return "\n".join(line for line in lines if line)


def _where_stopped(rep: dict[str, Any]) -> str:
    """The illegal action a replay stopped at, or who is to act in a hand in progress ('' for a finished one)."""
    if rep["status"] == "illegal":
        err = rep["error"]
        # counted from 1 as a reader counts the record's actions (the JSON report's `index` counts from 0)
        return (f"  illegal action #{err['index'] + 1} (of the record's actions, counted from 1) "
                f"{quoted(err['action'])}: {escaped(err['message'])}")
    if rep["status"] == "in_progress":
        nxt = rep["next"]
        return f"  in progress: seat {nxt['seat']} to act; legal: {', '.join(nxt['legal'])}"
    return ""


def render_stats(d: dict[str, Any]) -> str:
    lines = [f"{d['ruleset']}: {d['hands']} hands, {d['complete']} complete, {d['annulled']} annulled"]
    bots = d.get("bots")
    if isinstance(bots, list) and bots:
        lines.append(_bots_line(bots))
    if d["annulled_because"]:
        lines.append("  annulled because: " + ", ".join(f"{k} ({v})" for k, v in d["annulled_because"].items()))
    lines.append("  contracts by bid (made %):")
    for bid, count in d["contracts_by_bid"].items():
        lines.append(f"    {bid:>3}: {count:>7}  {100 * d['success_rate_by_bid'][bid]:5.1f}%")
    if d["special_contracts"]:
        lines.append("  special contracts: " + ", ".join(f"{k} {v}" for k, v in d["special_contracts"].items()))
    acp = d["average_card_points"]
    lines.append(f"  average card points: bidding side {acp['bidding_side']}, other side {acp['other_side']}")
    lines.append("  trump exposed in trick: " + ", ".join(f"{k}: {v}" for k, v in d["trump_exposed_in_trick"].items()))
    lines += _mechanism_lines(d.get("mechanisms") or {})
    return "\n".join(lines)


def _bots_line(bots: list[str]) -> str:
    who = f"{bots[0]} at every seat" if len(set(bots)) == 1 else ", ".join(f"seat {i} {b}" for i, b in enumerate(bots))
    return f"  played by bots: {who} (--bots to change; the figures are these bots' play, not the rule's alone)"


def _mechanism_lines(mech: dict[str, Any]) -> list[str]:
    """Per mechanism and side: hands it was offered, taken, and won by the side that took it."""
    if not mech:
        return []
    lines = ["  mechanisms (hands offered / taken / won by the side that took it):"]
    for name, sides in mech.items():
        parts = [f"{side} {c['offered']}/{c['taken']}/{c['won']}" for side, c in sides.items()]
        lines.append(f"    {name}: " + ", ".join(parts))
    return lines
