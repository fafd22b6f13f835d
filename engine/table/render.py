"""The table screen for one seat, built from that seat's `View` only (never from the hand's full state).

Names on the screen come from the rule file (its name, contract and doubling names, ranks and suits) and may
have been written by anyone: every line goes through `safe` before it reaches the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.cards import SUIT_NAMES, SUIT_SYMBOLS, canonical_card
from engine.play.actions import Action
from engine.play.game import NO_TRUMP
from engine.play.rules import STEP_AUCTION
from engine.play.view import TrickView, View, hand_order
from engine.table.decisions import Decision, Picker
from engine.table.melds import meld_lines
from engine.table.seats import seat_label
from engine.text import printable

SUIT_STYLE = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}


def safe(line: Text | str) -> Text | str:
    """The line without escape sequences or control and format characters (a styled line that needed
    cleaning loses its inner styles: only a hostile file's text ever does)."""
    plain = line.plain if isinstance(line, Text) else line
    clean = printable(plain, keep_newlines=True)
    if clean == plain:
        return line
    return Text(clean, style=line.style) if isinstance(line, Text) else clean


class Labels:
    """How cards, seats and teams are written: suit symbols where the output can show them, else letters; other
    seats by number and, given the table (`players`, this hand's `teams`, the rule file's `direction`), by their
    place from the player's chair ("seat 2 (partner)")."""

    def __init__(self, seat: int, symbols: bool, players: int = 0, teams: Sequence[Sequence[int]] = (),
                 direction: str = "") -> None:
        self.seat = seat
        self.symbols = symbols
        self.players = players
        self.teams = [list(t) for t in teams]
        self.direction = direction

    def card(self, code: str) -> Text:
        rank, suit = code[:-1], code[-1:]
        mark = SUIT_SYMBOLS.get(suit, suit) if self.symbols else suit
        return Text(rank + mark, style=SUIT_STYLE.get(suit, ""))

    def suit(self, letter: str) -> str:
        if letter == "NT":
            return "no trumps"
        name = SUIT_NAMES.get(letter, letter)
        return f"{SUIT_SYMBOLS[letter]} {name}" if self.symbols and letter in SUIT_SYMBOLS else name

    def who(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        if not self.players:
            return f"seat {seat}"
        return seat_label(self.seat, seat, self.players, self.teams, self.direction)

    def who_partner(self, seat: int, view: View) -> str:
        """The seat's partner, as the table names it ("their partner" where it has more than one or none)."""
        team = next((t for t in view.teams if seat in t), [seat])
        others = [s for s in team if s != seat]
        return self.who(others[0]) if len(others) == 1 else "their partner"

    def team(self, team: Sequence[int]) -> str:
        mark = " (you)" if self.seat in team else ""
        return "team " + "+".join(str(s) for s in team) + mark

    def action(self, action: Action) -> Text:
        """An action without its seat; a played or laid card is shown as a card."""
        if action.verb in ("play", "trump") and canonical_card(action.arg) == action.arg:
            return Text(action.verb + " ").append_text(self.card(action.arg))
        return Text(action.notation)


def hand_line(view: View, lab: Labels, new: frozenset[str] | set[str] = frozenset()) -> Text:
    """The seat's cards grouped by suit, strongest first; `new` cards (just dealt) are marked with a star."""
    out = Text("your hand: ")
    suit = -1
    suit_of = view.game.suit_of
    for c in view.hand_cards():
        if suit_of[c] != suit:
            if suit >= 0:
                out.append("   ")
            suit = suit_of[c]
        else:
            out.append(" ")
        out.append_text(lab.card(view.code(c)))
        if view.code(c) in new:
            out.append("*", style="bold")
    if not view.hand:
        out.append("(no cards)")
    for words, card in (("face down", view.indicator), ("face up on the table", view.turned),
                        ("stock's bottom card", view.stock_bottom)):
        if card is not None:
            out.append(f"   {words}: ").append_text(lab.card(view.code(card)))
    if _shows_new(view, new):
        out.append("   (* just dealt)", style="dim")
    return out


def _shows_new(view: View, new: frozenset[str] | set[str]) -> bool:
    return bool(new) and any(view.code(c) in new for c in view.hand_cards())


def history_item(action: Action, lab: Labels) -> Text:
    if action.verb == "trump" and not action.arg:  # the view blanks a concealed choice
        return Text(f"{lab.who(action.seat)}: trump chosen face down")
    return Text(f"{lab.who(action.seat)}: ").append_text(lab.action(action))


def joined(items: Sequence[Text], sep: str = " · ") -> Text:
    out = Text()
    for i, t in enumerate(items):
        if i:
            out.append(sep)
        out.append_text(t)
    return out


def auction_line(view: View, lab: Labels, stages: Sequence[str] = ()) -> Text:
    """Every action that is not part of the card play, in order (bids, trump, raise, doubling, ...); given the
    stage of each history entry (`stages`), each stage after the first auction is named where it starts
    ("raise round: you: pass · ..."), so a pass says which round it ended."""
    items: list[Text] = []
    current = "auction"
    for i, a in enumerate(view.history):
        if a.verb in ("play", "call", "show"):
            continue
        stage = stages[i] if i < len(stages) else current
        item = history_item(a, lab)
        if stage != current and stage != "play":
            item = Text(f"{stage}: ", style="bold").append_text(item)
            current = stage
        items.append(item)
    return Text("auction: ").append_text(joined(items) if items else Text("nobody has spoken yet"))


def contract_line(view: View, lab: Labels) -> Text:
    if view.bidder is None:
        return Text("contract: none yet")
    what = _contract_what(view, lab, view.bidder)
    if view.multiplier != 1:
        what += f", x{view.multiplier}"
    if view.added:
        what += f", +{view.added} to the side that is paid"
    if view.contract_round == 2 and view.auction_round == 2:
        what += " (second auction)"
    if view.conceded:
        what += ", conceded"
    return Text(f"contract: {what}")


def _contract_what(view: View, lab: Labels, bidder: int) -> str:
    """Who holds the contract and what it asks: a special contract, a trump chosen without bids, or a bid."""
    if view.special:
        return f"{view.special} by {lab.who(bidder)}"
    if STEP_AUCTION not in view.game.rules.schedule:
        return f"{lab.who(bidder)} chose the trump"   # take or pass, choose_trump
    if view.game.rules.scoring.counted_by_opponents:
        return _beat_words(view, lab, bidder)
    return f"{lab.who(bidder)} bid {view.bid}, target {view.target}"


def _beat_words(view: View, lab: Labels, bidder: int) -> str:
    """A contract counted by the opponents: what they need to beat it."""
    others: Sequence[int] = next((t for t in view.teams if bidder not in t), [])
    whose = "your side" if lab.seat in others else lab.team(others) if others else "the other side"
    plural = "s" if view.target != 1 else ""
    return f"{lab.who(bidder)} bid {view.bid}: {whose} needs {view.target} card point{plural} to beat it"


def speech_line(view: View, lab: Labels) -> Text | None:
    """A heading for a speech that is not the seat's own ordinary turn: the second auction, or speaking for a
    partner."""
    if view.phase not in ("auction", "raise") or view.to_act != view.seat:
        return None
    parts: list[str] = []
    if view.auction_round == 2 and view.phase == "auction":
        parts.append("second auction")
    if view.speaking_for is not None:
        if view.handed_back:
            parts.append("your partner handed the speech back: bid or pass")
        else:
            parts.append(f"you speak in {lab.who(view.speaking_for)}'s place")
    return Text(" · ".join(parts), style="bold") if parts else None


def trump_line(view: View, lab: Labels, open_trump: bool = False) -> Text:
    known = view.trump_code()
    if view.trump_concealed:
        if known is not None:
            return Text(f"trump: concealed (only you know it: {lab.suit(known)})")
        return Text("trump: concealed")
    if known is None:
        return Text("trump: not chosen yet") if view.bidder is not None else Text("trump: none yet")
    if view.trump_mode is not None:
        return Text(f"trump: {view.trump_mode}")
    if view.trump == NO_TRUMP:
        return Text("trump: no trumps")
    when = " (open)" if open_trump else f", exposed in trick {view.exposed_in_trick}" if view.exposed_in_trick else ""
    return Text(f"trump: {lab.suit(known)}{when}")


def trick_cards(view: View, trick: TrickView, lab: Labels) -> Text:
    return joined([Text(f"{lab.who(s)} ").append_text(lab.card(view.code(c)))
                   for s, c in zip(trick.seats, trick.cards, strict=True)], "  ")


def trick_line(view: View, lab: Labels, number: int, winning: int | None = None) -> Text:
    out = Text(f"trick {number}: ")
    if view.trick.cards:
        out.append_text(trick_cards(view, view.trick, lab))
        if winning is not None:
            out.append(f"  <- {lab.who(winning)} winning", style="bold")
    else:
        out.append(f"{lab.who(view.trick.leader)} to lead" if view.trick.leader >= 0 else "not started")
    return out


def done_trick_line(view: View, trick: TrickView, lab: Labels, number: int) -> Text:
    return (Text(f"trick {number}: ").append_text(trick_cards(view, trick, lab))
            .append(f"  -> {lab.who(trick.winner if trick.winner is not None else -1)} ({trick.points} pts)"))


def points_line(view: View, lab: Labels) -> Text:
    won = [0] * len(view.teams)
    team_of = {s: i for i, t in enumerate(view.teams) for s in t}
    for t in view.tricks:
        if t.winner is not None and t.winner in team_of:
            won[team_of[t.winner]] += 1
    parts = [f"{lab.team(t)} {won[i]} trick{'s' if won[i] != 1 else ''}, {view.card_points[i]} pts"
             for i, t in enumerate(view.teams)]
    return Text("this hand: " + " · ".join(parts))


def score_line(match_teams: Sequence[Sequence[int]], scores: Sequence[int], lab: Labels) -> Text:
    return Text("match score: " + " · ".join(f"{lab.team(t)} {s:+d}" for t, s in zip(match_teams, scores,
                                                                                     strict=True)))


def choices_text(legal: Sequence[Action], lab: Labels, pickers: Sequence[Picker] = (),
                 risky: Sequence[str] = ()) -> Text:
    """The numbered choices (a risky one marked: its number asks for a confirmation), then how to type a number
    for a bid or raise ("or type a bid: 14 to 42, then a suit")."""
    out = Text("choose: ")
    for i, action in enumerate(legal, 1):
        if i > 1:
            out.append("  ")
        out.append(f"{i}) ", style="dim")
        out.append_text(lab.action(action))
        if action.notation in risky and len(legal) > 1:
            out.append(" [asks to confirm]", style="dim")
    for p in pickers:
        out.append(f"   or type a {p.verb}: {span(p.values)}")
        if p.suits:
            out.append(", then a suit (" + " ".join(suit_mark(s, lab) for s in p.all_suits) + ")")
            out.append(f", e.g. {p.values[0]} {suit_mark(p.all_suits[0], lab)}")
    return out


def span(values: Sequence[int]) -> str:
    """'14 to 42' for a run on one step; the values themselves when they are few or irregular."""
    if len(values) > 2 and all(b - a == values[1] - values[0] for a, b in zip(values, values[1:], strict=False)):
        step = values[1] - values[0]
        return f"{values[0]} to {values[-1]}" + (f" in steps of {step}" if step != 1 else "")
    return ", ".join(str(v) for v in values)


def suit_mark(letter: str, lab: Labels) -> str:
    return SUIT_SYMBOLS[letter] if lab.symbols and letter in SUIT_SYMBOLS else letter


def menu(decision: Decision, legal: Sequence[Action]) -> list[Action]:
    """The numbered choices: every action but bids and raises, and of those only the lowest (the rest are typed
    as numbers), in the engine's order except that risky actions (a claim, a call, a concession, a doubling
    step: `decision.risky`) come last, so that choice 1 is never one while anything else is allowed."""
    picked = {p.verb for p in decision.pickers}
    out: list[Action] = []
    last: list[Action] = []
    shown: set[str] = set()
    for action in legal:
        if action.verb in picked:
            if action.verb in shown:
                continue
            shown.add(action.verb)
        (last if action.notation in decision.risky else out).append(action)
    return out + last


def exposed_lines(view: View, lab: Labels) -> list[Text]:
    """Hands lying face up (a dummy, an exposed partner, a hand shown), and whose play the seat chooses now."""
    out: list[Text] = []
    for e in view.exposed:
        out.append(Text(f"face up ({lab.who(e.seat)}{', dummy' if e.seat in view.dummies else ''}): "))
        for c in hand_order(view.game, e.cards):
            out[-1].append_text(lab.card(view.code(c))).append(" ")
    if view.controller == view.seat and view.to_act != view.seat:
        out.append(Text(f"you play {lab.who(view.to_act)}'s cards (your dummy)", style="bold"))
    return out


def screen(view: View, lab: Labels, hand_no: int, match_teams: Sequence[Sequence[int]],
           open_trump: bool = False, decision: Decision | None = None, winning: int | None = None,
           new: frozenset[str] | set[str] = frozenset(), stages: Sequence[str] = ()) -> list[Text]:
    """Everything the seat may know, top to bottom, ending with the decision's heading and the choices
    (`open_trump`: the rule file plays with the trump face up, so there is no exposure to report; `winning`:
    whose card is winning the trick so far; `new`: cards just dealt; `stages`: the stage of each history entry,
    engine.table.cues.stages)."""
    lines = [_title(view, lab, hand_no), score_line(match_teams, view.match_scores, lab)]
    if lab.players:
        lines.append(Text("at the table: " + " · ".join(lab.who(s) for s in range(view.players) if s != lab.seat)))
    lines += [
        auction_line(view, lab, stages),
        contract_line(view, lab),
        trump_line(view, lab, open_trump),
    ]
    if view.phase == "play" or view.tricks:
        lines += _trick_lines(view, lab, winning)
    lines.append(hand_line(view, lab, new))
    lines += exposed_lines(view, lab)
    lines += [Text(t) for t in meld_lines(view, lab.who, lab.team)]
    heading = speech_line(view, lab)
    if heading is not None:
        lines.append(heading)
    if view.legal:
        lines += _choice_lines(view, lab, decision)
    return lines


def _title(view: View, lab: Labels, hand_no: int) -> Text:
    side = lab.team(next((t for t in view.teams if view.seat in t), [view.seat]))
    return Text(f"== {view.ruleset} · hand {hand_no} · dealer {lab.who(view.dealer)} · you are seat {view.seat} "
                f"({side}) ==", style="bold")


def _trick_lines(view: View, lab: Labels, winning: int | None) -> list[Text]:
    """The last trick taken, the trick on the table and the card points so far."""
    lines = []
    if view.tricks:
        lines.append(Text("last ").append_text(done_trick_line(view, view.tricks[-1], lab, len(view.tricks))))
    lines.append(trick_line(view, lab, len(view.tricks) + 1, winning))
    lines.append(points_line(view, lab))
    return lines


def _choice_lines(view: View, lab: Labels, decision: Decision | None) -> list[Text]:
    """The decision's heading and its menu (the legal actions as they are without one)."""
    if decision is None:
        return [choices_text(view.legal, lab)]
    return [Text(f"-- {decision.heading} --", style="bold"),
            choices_text(menu(decision, view.legal), lab, decision.pickers, decision.risky)]


def hand_summary(view: View, lab: Labels, made: bool | None, annulled_because: str,
                 change: Sequence[int], match_teams: Sequence[Sequence[int]], open_trump: bool = False,
                 next_dealer: str = "the same dealer deals again", reason: str | None = None) -> list[Text]:
    """A finished hand as the seat saw it: contract, every trick, card points, the outcome (`reason`: why it
    scored what it did, engine.table.outcome) and the score change."""
    lines = [contract_line(view, lab), trump_line(view, lab, open_trump)]
    lines += [Text("  ").append_text(done_trick_line(view, t, lab, i)) for i, t in enumerate(view.tricks, 1)]
    if view.status == "annulled":
        lines.append(Text(f"annulled: {annulled_because}; {next_dealer}"))
    else:
        pts = " · ".join(f"{lab.team(t)} {view.card_points[i]}" for i, t in enumerate(view.teams))
        lines.append(Text(f"card points: {pts}"))
        lines += [Text(t) for t in meld_lines(view, lab.who, lab.team)]
        if reason is not None:
            lines.append(Text(f"why: {reason}"))
        elif made is not None and view.bidder is not None:
            lines.append(Text(f"{lab.who(view.bidder)} {'made' if made else 'failed'} the contract"))
    lines.append(Text("score change: " + " · ".join(f"{lab.team(t)} {p:+d}" for t, p in zip(match_teams, change,
                                                                                           strict=True))))
    return lines
