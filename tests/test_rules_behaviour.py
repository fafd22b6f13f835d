"""The behavioural twin of `show`'s test: every field of the rule-file model is read by the one compile step
(engine/play/compile.py) or listed there as display-only, and changing any field that is read changes what
happens at the table - legal actions, scores or the match - in seeded hands of some file.

Each change is a house-rule file in a folder of its own that extends a shipped game, as a player would write it.
"""

from __future__ import annotations

import copy
import random
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

from engine.play.actions import Action
from engine.play.compile import DISPLAY_ONLY, compile_rules, load_game
from engine.play.game import Game
from engine.play.match import Match
from engine.rules.load import load_ruleset, shipped_rulesets
from engine.rules.messages import unwrap_type
from engine.rules.model import Ruleset

TESTS = Path(__file__).parent
MELDS_DECLARED = str(TESTS / "rulefiles" / "jass" / "melds-declared.yaml")
MELDS_ROEM = str(TESTS / "rulefiles" / "jass" / "melds-roem.yaml")
EXTRA_FILES = (sorted((TESTS / "rulefiles" / "axes").glob("*.yaml"))
               + sorted((TESTS / "rulefiles" / "variants").glob("*.yaml"))
               + sorted((TESTS / "rulefiles" / "trump_roles").glob("trump-*.yaml"))
               + sorted((TESTS / "rulefiles" / "banked").glob("*.yaml"))
               + sorted((TESTS / "rulefiles" / "jass").glob("*.yaml"))
               + sorted((TESTS / "rulefiles" / "deal").glob("*.yaml")))
DEAL = TESTS / "rulefiles" / "deal"   # the deal procedures' small files (turned card, choose_trump, coinche)


# ------------------------------------------------------------------------------------------- the model's fields
def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def leaf_paths(model: type[BaseModel] = Ruleset, prefix: str = "") -> list[str]:
    """Every field a rule file can set, as `section.field`, with `[]` for items of a list of mappings."""
    out: list[str] = []
    for name, f in model.model_fields.items():
        path = prefix + (f.alias or name)
        tp = unwrap_type(f.annotation)
        item = unwrap_type(typing.get_args(tp)[0]) if typing.get_origin(tp) is list else None
        if _is_model(tp):
            out += leaf_paths(tp, path + ".")
        elif item is not None and _is_model(item):
            out += leaf_paths(item, path + "[].")
        else:
            out.append(path)
    return out


class _Recorder:
    """Stands in for a model while `compile_rules` reads it, noting the path of every field it reads."""

    def __init__(self, obj: BaseModel, path: str, seen: set[str]) -> None:
        self._obj, self._path, self._seen = obj, path, seen

    def __getattr__(self, name: str) -> Any:
        field = type(self._obj).model_fields.get(name)
        value = getattr(self._obj, name)
        path = self._path + ((field.alias or name) if field is not None else name)
        return _wrap(value, path, self._seen)


def _wrap(value: Any, path: str, seen: set[str]) -> Any:
    if isinstance(value, BaseModel):
        return _Recorder(value, path + ".", seen)
    if isinstance(value, list) and any(isinstance(v, BaseModel) for v in value):
        seen.add(path)
        return [_wrap(v, path + "[]", seen) if isinstance(v, BaseModel) else v for v in value]
    seen.add(path)
    return value


def _read_by_compile() -> set[str]:
    seen: set[str] = set()
    for ref in [*shipped_rulesets(), *EXTRA_FILES]:
        compile_rules(_Recorder(load_ruleset(ref), "", seen))  # type: ignore[arg-type]
    return seen


def test_every_field_is_read_by_the_compile_step_or_display_only() -> None:
    leaves = set(leaf_paths())
    read = _read_by_compile()
    assert DISPLAY_ONLY <= leaves, DISPLAY_ONLY - leaves
    unread = leaves - read - DISPLAY_ONLY
    assert not unread, f"fields neither compiled nor display-only: {sorted(unread)}"


def test_every_field_read_has_a_change_that_shows_in_play() -> None:
    behavioural = set(leaf_paths()) - DISPLAY_ONLY - PRESENTATION - NEEDS_MODES
    assert behavioural == set(CHANGES), (sorted(behavioural - set(CHANGES)), sorted(set(CHANGES) - behavioural))


# ---------------------------------------------------------------------------------------------- the changes
# Read by the compile step for what people see (names in messages and views), not for how the game plays.
PRESENTATION = frozenset({"name", "description"})

BANDS_14 = [{"bids": [14, 19], "made": 1, "failed": -2}, {"bids": [20, 24], "made": 2, "failed": -3},
            {"bids": [25, 28], "made": 3, "failed": -4}]
FORTY_BANDS = [{"bids": [20, 29], "made": 1, "failed": -2}, {"bids": [30, 33], "made": 2, "failed": -3},
               {"bids": [34, 40], "made": 3, "failed": -4}]
# (the game to start from: a shipped name, or a shipped name and a common house rule on it; what the house rule
# under test writes on top)
Change = tuple[str | tuple[str, dict[str, Any]], dict[str, Any]]
# Twenty-Eight with a second auction after the full deal in place of the raise (bids 24-28 by default).
SECOND: dict[str, Any] = {"raise": None, "schedule": [{"deal": 4}, "auction", "trump", {"deal": 4}, "second_auction"],
                          "second_auction": {"bids": {"min": 24, "max": 28}}}
FLAT = [{"bids": [14, 28], "made": 1, "failed": -1}]
LAST_TRICK_1 = {"special": {"capture_bonuses": [{"trigger": "last_trick", "amount": 1}]}}
JACKS = {"special": {"capture_bonuses": [{"trigger": "all_of_rank", "rank": "J", "amount": 1,
                                          "unit": "game_points"}]}}
SETS = {"match": {"win_at": None, "lose_at": None, "sets": {"at": 6, "win_sets": 3}}}
# Thunee's special contracts, melds and claims as its file writes them, for changes of one field each
TH_THUNEE: dict[str, Any] = {"name": "thunee", "who": "anyone", "partner": "plays", "trumps": "first_card_led",
                             "made": 4, "failed": -4, "failed_to_partner": -8, "stops_at_first_loss": True,
                             "barred_with_one_suit": True, "switches_off": ["melds", "claims"]}
TH_ROYALS: dict[str, Any] = {**TH_THUNEE, "name": "royals", "ranking": "reversed"}
# open-trump scored by banking card points the Belote way (tests/rulefiles/banked/banked-open.yaml), with changes
BANKED: dict[str, Any] = {
    "deck": {"points": {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}, "last_trick_bonus": 10},
    "auction": {"bids": {"min": 60, "max": 130, "step": 10}, "partner_overcall": None}, "raise": None,
    "schedule": [{"deal": 4}, "auction", "trump", {"deal": 4}], "annul": {"bidding_team_held_all_trumps": False},
    "scoring": {"method": "banked", "bands": [], "banked": {"all_tricks": {"card_points": 250}}},
    "match": {"win_at": 501, "lose_at": None}}
COINCHE_STEPS = {"window": "after_trump", "steps": [{"name": "coinche", "by": "opponents", "multiplier": 2}]}


def _banked(special: dict[str, Any] | None = None, **banked: Any) -> tuple[str, dict[str, Any]]:
    """The banked start with these scoring.banked fields (and a special section)."""
    return ("open-trump", {**BANKED, "special": special or {}, "scoring": {**BANKED["scoring"], "banked": {
        **BANKED["scoring"]["banked"], **banked}}})


# A trump mode named like a suit after open-trump's auction (top-down, with points of its own, doubled); where the
# card-play obligations exist (play.obligations), with the duty to head a trump lead: an all-trumps mode applies it
# to every suit led, which is how `trumps: all` shows in play
OBE: dict[str, Any] = {"name": "obenabe", "trumps": "none", "ranks": ["A", "K", "Q", "J", "T", "9", "8", "7"],
                       "points": {"A": 4, "J": 2, "T": 1}, "multiplier": 2}
_HEAD = ({"play": {"obligations": {"trump_led": "head_trick"}}}
         if "obligations" in Ruleset.model_fields["play"].annotation.model_fields else {})  # type: ignore[union-attr]
MODES: tuple[str, dict[str, Any]] = ("open-trump", {"trump": {"modes": [OBE]}, **_HEAD})
NEEDS_OBLIGATIONS = {"trump.modes[].trumps"} if not _HEAD else set()


def _contracts(**change: Any) -> dict[str, Any]:
    return {"special": {"contracts": [copy.deepcopy({**TH_THUNEE, **change}),
                                      copy.deepcopy({**TH_ROYALS, **change})]}}


JODI: dict[str, Any] = {"name": "jodi", "ranks": ["K", "Q"], "plain_value": 20, "trump_value": 40,
                        "extra": {"rank": "J", "plain_value": 30, "trump_value": 50}, "after_tricks": [1, 3]}


def _jodi(**change: Any) -> dict[str, Any]:
    return copy.deepcopy({"special": {"melds": {**JODI, **change}}})


DOUBLE: dict[str, Any] = {"name": "double", "who": "unbeaten_side", "barred_within": 1,
                          "rewards": {"on_time": 2, "failed": -4}}
KHANAAK: dict[str, Any] = {"name": "khanaak", "who": "side_showed_meld", "needs_lost_trick": True,
                           "melds_beat_opponents_by": 10, "match_target_after": 13,
                           "rewards": {"on_time": 3, "on_time_by_counting_side": 6, "failed": -4}}
EASY_KHANAAK: dict[str, Any] = {"needs_lost_trick": False, "melds_beat_opponents_by": None}


def _claims(double: dict[str, Any] | None = None, khanaak: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"special": {"claims": [copy.deepcopy({**DOUBLE, **(double or {})}),
                                   copy.deepcopy({**KHANAAK, **(khanaak or {})})]}}


def _rewards(base: dict[str, Any], **change: Any) -> dict[str, Any]:
    return {"rewards": {**base["rewards"], **change}}


PCC_304 = {"name": "pcc", "who": "anyone", "window": "second_auction", "partner": "sits_out", "trumps": "keep",
           "open_trump": True, "stops_at_first_loss": True, "made": 4, "failed": -5}
CAPS_REWARDS = {"on_time": 1, "on_time_score": "adds", "on_time_before_trick": 7, "wrong_but_won": -2, "failed": -5}
CAPS_304 = {"name": "caps", "who": "unbeaten_side", "claims": "remaining_tricks_by_side", "certainty": "provable",
            "first_moment": True, "stops_play": False,
            "rewards": CAPS_REWARDS}
MELDS_304 = {"name": "marriage", "ranks": ["K", "Q"], "compulsory": True, "trump_value": 40, "plain_value": 20,
             "when": ["side_won_a_trick", "trump_exposed"],
             "target_bounds": [0, 314]}
# caps that need not be certain: any claim that comes true is on time (so on-time rewards show in random play)
CAPS_ANY_CLAIM = CAPS_304 | {"certainty": "none", "first_moment": False}
CAPS_ANY = {"special": {"claims": [CAPS_ANY_CLAIM]}}
OB_FREE: dict[str, Any] = {"play": {"obligations": {}}}   # play.obligations with every duty at its default
CHANGES: dict[str, Change] = {
    "table.players": ("fifty-six", {"table": {"players": 4, "teams": [[0, 2], [1, 3]]},
                                    "schedule": [{"deal": 12}, "auction"]}),
    "table.teams": ("twenty-eight", {"table": {"teams": [[0, 1], [2, 3]]}}),
    "table.bidder_plays_alone": ("twenty-eight-3p", {"table": {"bidder_plays_alone": False}}),
    "table.first_lead": ("twenty-eight", {"table": {"first_lead": "bidder"}}),
    "deck.suits": ("twenty-eight", {"deck": {"suits": ["H", "S", "D", "C"]}}),
    "deck.ranks": ("twenty-eight", {"deck": {"ranks": ["9", "J", "A", "T", "K", "Q", "8", "7"]}}),
    "deck.copies": ("twenty-eight-3p", {"deck": {"copies": 2},
                                        "schedule": [{"deal": 8}, "auction", "trump", {"deal": 8}]}),
    "deck.rank_ties": ("forty", {"deck": {"rank_ties": []}}),
    "deck.points": ("twenty-eight", {"deck": {"points": {"J": 3, "9": 2, "A": 1, "T": 1, "K": 1}}}),
    "deck.last_trick_bonus": ("twenty-eight", {"deck": {"last_trick_bonus": 1}}),
    "schedule": ("twenty-nine", {"schedule": [{"deal": 8}, "auction", "trump"]}),
    "auction.bids.min": ("twenty-eight-flat", {"auction": {"bids": {"min": 16}},
                                               "scoring": {"bands": [{"bids": [16, 28], "made": 1, "failed": -1}]}}),
    "auction.bids.max": ("twenty-eight-flat", {"auction": {"bids": {"max": 24}},
                                               "scoring": {"bands": [{"bids": [14, 24], "made": 1, "failed": -1}]},
                                               "raise": {"min": 20}}),
    "auction.bids.step": ("twenty-eight-flat", {"auction": {"bids": {"step": 2}, "partner_overcall": {"min": 20}},
                                                "raise": {"min": 24}}),
    "auction.first_hand_must_bid": ("twenty-eight", {"auction": {"first_hand_must_bid": False}}),
    "auction.pass_is_final": ("twenty-eight", {"auction": {"pass_is_final": True}}),
    "auction.if_all_pass": ("twenty-nine", {"auction": {"if_all_pass": "redeal"}}),
    "auction.dealer_forced_bid": ("twenty-nine", {"auction": {"dealer_forced_bid": 20}}),
    "auction.hold": ("twenty-nine", {"auction": {"hold": True}}),
    "auction.ends_at_max_bid": ("twenty-eight", {"auction": {"ends_at_max_bid": True}}),
    "auction.partner_overcall.min": ("twenty-eight", {"auction": {"partner_overcall": {"min": 23}}}),
    "auction.partner_overcall.forbidden": ("twenty-eight", {"auction": {"partner_overcall": {"forbidden": True}}}),
    # matters only where a partner can speak right after you: partners side by side
    "auction.partner_overcall.only_after_a_pass": (("twenty-eight", {"table": {"teams": [[0, 1], [2, 3]]}}), {
        "auction": {"partner_overcall": {"only_after_a_pass": False}}}),
    "auction.second_bid_min": ("twenty-eight", {"auction": {"second_bid_min": 22}}),
    "auction.one_suit_hand_may_not_bid": ("forty", {"auction": {"one_suit_hand_may_not_bid": "everyone"}}),
    "auction.pointless_redeal.seats": ("twenty-eight", {"auction": {"pointless_redeal": {"seats": 3}}}),
    "auction.pointless_redeal.automatic": ("twenty-eight", {"auction": {"pointless_redeal": {"automatic": True}}}),
    "auction.pointless_redeal.max_points": ("twenty-eight", {"auction": {"pointless_redeal": {"max_points": 2}}}),
    "auction.bids.extra": (("twenty-eight-flat", {"auction": {"bids": {"max": 26}},
                                                  "scoring": {"bands": [{"bids": [14, 26], "made": 1, "failed": -1}]}}),
                           {"auction": {"bids": {"extra": [28]}}, "scoring": {"bands": FLAT}}),
    "auction.exact_step": ("twenty-eight", {"auction": {"exact_step": True}}),
    "auction.only_opponents_may_bid": ("twenty-eight", {"auction": {"only_opponents_may_bid": True}}),
    # a coinche that leaves the auction open: the bidder's turn comes round again after it
    "auction.may_raise_own_bid": ((str(DEAL / "coinche-auction.yaml"), {"special": {"doubling": {
        "closes_auction": False}}}), {"auction": {"may_raise_own_bid": True}}),
    "special.doubling.closes_auction": (str(DEAL / "coinche-auction.yaml"), {"special": {"doubling": {
        "closes_auction": False}}}),
    "table.first_forehand.holder_of": (str(DEAL / "choose-push.yaml"), {"table": {"first_forehand": {
        "holder_of": "7S"}}}),
    "auction.default_bidder": ("twenty-eight-flat", {"auction": {"default_bidder": "first_hand",
                                                                 "first_hand_must_bid": False},
                                                     "scoring": {"bands": [{"bids": [0, 28], "made": 1,
                                                                            "failed": -1}]}}),
    "auction.after_first_speech_min": ("twenty-eight", {"auction": {"after_first_speech_min": 22}}),
    "auction.partner_speech.hand_back": (("twenty-eight", {"auction": {"partner_speech": {}}}),
                                         {"auction": {"partner_speech": {"hand_back": False}}}),
    "second_auction.bids.min": (("twenty-eight", SECOND), {"second_auction": {"bids": {"min": 22}}}),
    "second_auction.bids.max": (("twenty-eight", SECOND), {"second_auction": {"bids": {"max": 26}}}),
    "second_auction.bids.step": (("twenty-eight", SECOND), {"second_auction": {"bids": {"step": 2}}}),
    "second_auction.bids.extra": (("twenty-eight", {**SECOND, "second_auction": {"bids": {"min": 24, "max": 26}}}),
                                  {"second_auction": {"bids": {"extra": [28]}}}),
    "second_auction.turns": (("twenty-eight", SECOND), {"second_auction": {"turns": "once"}}),
    "second_auction.holder_refolds": (("twenty-eight", SECOND), {"second_auction": {"holder_refolds": "when_bidding"}}),
    "second_auction.partner_speech.hand_back": (
        ("twenty-eight", {**SECOND, "second_auction": {"bids": {"min": 24, "max": 28}, "partner_speech": {}}}),
        {"second_auction": {"partner_speech": {"hand_back": False}}}),
    "trump.may_redeal.max_points": (("twenty-eight", {"trump": {"may_redeal": {"max_points": 0}}}),
                                    {"trump": {"may_redeal": {"max_points": 3}}}),
    "trump.chosen": ("fifty-six", {"trump": {"chosen": "after_auction", "declared_as": "suit"},
                                   "schedule": [{"deal": 4}, {"deal": 4}, "auction", "trump"]}),
    "trump.declared_as": ("twenty-eight", {"trump": {"declared_as": "suit"}}),
    "trump.concealed": ("twenty-eight", {"trump": {"concealed": False}}),
    "trump.seventh_card": ("twenty-nine", {"trump": {"seventh_card": True}}),
    "trump.no_trumps": ("twenty-nine", {"trump": {"no_trumps": True}}),
    "trump.no_trumps_ranking": ("fifty-six", {"trump": {"no_trumps_ranking": "reversed"}}),
    # the trump suit's own order and points, trump modes and multipliers by trump (open-trump names the suit)
    "deck.trump_ranks": ("open-trump", {"deck": {"trump_ranks": ["A", "T", "J", "9", "K", "Q", "8", "7"]}}),
    "deck.trump_points": ("open-trump", {"deck": {"trump_points": {"J": 1, "9": 1, "A": 3, "T": 2}}}),
    "trump.suit_multipliers": ("open-trump", {"trump": {"suit_multipliers": {"S": 2, "D": 3}}}),
    "trump.modes[].name": (MODES, {"trump": {"modes": [{**OBE, "name": "obe"}]}}),
    "trump.modes[].trumps": (MODES, {"trump": {"modes": [{**OBE, "trumps": "all"}]}}),
    "trump.modes[].ranks": (MODES, {"trump": {"modes": [{**OBE, "ranks": ["7", "8", "9", "T", "J", "Q", "K", "A"]}]}}),
    "trump.modes[].points": (MODES, {"trump": {"modes": [{**OBE, "points": {"A": 4, "T": 3}}]}}),
    "trump.modes[].multiplier": (MODES, {"trump": {"modes": [{**OBE, "multiplier": 1}]}}),
    "play.reveal.call": ("twenty-eight", {"play": {"reveal": {"call": "compulsory_first_void"}}}),
    "play.reveal.caller_must_trump": ("twenty-eight", {"play": {"reveal": {"caller_must_trump": False}}}),
    "play.reveal.retroactive": ("twenty-eight", {"play": {"reveal": {"retroactive": True}}}),
    "play.reveal.last_trick_forces_exposure": ("twenty-eight", {
        "play": {"reveal": {"last_trick_forces_exposure": False}}}),
    "play.bidder_while_concealed.lead_trump_suit": ("twenty-eight", {
        "play": {"bidder_while_concealed": {"lead_trump_suit": "free"}}}),
    "play.bidder_while_concealed.when_trump_suit_led": ("twenty-eight", {
        "play": {"bidder_while_concealed": {"when_trump_suit_led": "may_call_and_play_indicator"}}}),
    "play.bidder_while_concealed.void_in_plain_suit": ("twenty-eight", {
        "play": {"bidder_while_concealed": {"void_in_plain_suit": "discard_any_or_call_and_play_any_trump"}}}),
    "play.no_discard_before_suit_led": ("twenty-eight", {"play": {"no_discard_before_suit_led": ["J"]}}),
    "play.suit_counts_as_led_when": ("no-jack-discard", {"play": {"suit_counts_as_led_when": "played"}}),
    "play.must_not_undertrump": ("open-trump", {"play": {"must_not_undertrump": True}}),
    "play.obligations.trump_led": (("open-trump", OB_FREE), {"play": {"obligations": {"trump_led": "head_trick"}}}),
    "play.obligations.void": (("open-trump", OB_FREE), {"play": {"obligations": {"void": "must_trump"}}}),
    "play.obligations.overtrump": (("open-trump", {"play": {"obligations": {"void": "must_trump"}}}),
                                   {"play": {"obligations": {"overtrump": "required"}}}),
    "play.obligations.undertrump": (("open-trump", OB_FREE), {"play": {"obligations": {
        "undertrump": "forbidden_unless_only_trumps"}}}),
    "play.obligations.trump_while_following": (("open-trump", OB_FREE), {"play": {"obligations": {
        "trump_while_following": True}}}),
    "play.obligations.never_forced": (("open-trump", OB_FREE), {"play": {"obligations": {"never_forced": ["J"]}}}),
    "raise.by": ("twenty-eight", {"raise": {"by": ["bidder"]}}),
    "raise.min": ("twenty-eight", {"raise": {"min": 26}}),
    "raise.others_may_raise": ("twenty-eight", {"raise": {"others_may_raise": True}}),
    "special.pair.ranks": ("twenty-nine", {"special": {"pair": {"ranks": ["J", "9"]}}}),
    "special.pair.bidding_team[].bids": ("west-bengal-pair", {"special": {"pair": {"bidding_team": [
        {"bids": [16, 20], "adjust": None}, {"bids": [21, 21], "adjust": -3}, {"bids": [22, 28], "adjust": -4}]}}}),
    "special.pair.bidding_team[].adjust": ("twenty-nine", {"special": {"pair": {"bidding_team": [
        {"bids": [16, 28], "adjust": -2}]}}}),
    "special.pair.opponents": ("twenty-nine", {"special": {"pair": {"opponents": 0}}}),
    "special.pair.needs_trump_exposed": ("twenty-nine", {"special": {"pair": {"needs_trump_exposed": False}}}),
    "special.pair.needs_won_trick": ("twenty-nine", {"special": {"pair": {"needs_won_trick": False}}}),
    "special.pair.right_after_winning": ("twenty-nine", {"special": {"pair": {"right_after_winning": True}}}),
    "special.pair.target_bounds": ("twenty-nine", {"special": {"pair": {"target_bounds": [12, 28]}}}),
    "special.contracts[].name": ("thani", {"special": {"contracts": [
        {"name": "adi", "who": "bidder", "partner": "plays", "trumps": "keep", "made": 4, "failed": -5}]}}),
    "special.contracts[].who": ("thani", {"special": {"contracts": [
        {"name": "thani", "who": "anyone", "partner": "plays", "trumps": "keep", "made": 4, "failed": -5}]}}),
    "special.contracts[].partner": ("thani", {"special": {"contracts": [
        {"name": "thani", "who": "bidder", "partner": "sits_out", "trumps": "keep", "made": 4, "failed": -5}]}}),
    "special.contracts[].trumps": ("thani", {"special": {"contracts": [
        {"name": "thani", "who": "bidder", "partner": "plays", "trumps": "none", "made": 4, "failed": -5}]}}),
    "special.contracts[].made": ("single-hand", {"special": {"contracts": [
        {"name": "single-hand", "who": "anyone", "partner": "sits_out", "trumps": "none", "made": 5,
         "failed": -3}]}}),
    "special.contracts[].failed": ("thani", {"special": {"contracts": [
        {"name": "thani", "who": "bidder", "partner": "plays", "trumps": "keep", "made": 4, "failed": -7}]}}),
    "special.contracts[].window": ("thani", {"special": {"contracts": [
        {"name": "thani", "who": "anyone", "window": "first_auction", "made": 4, "failed": -5}]}}),
    "special.contracts[].trick": ("thani-late", {"special": {"contracts": [
        {"name": "thani", "who": "sole_winner", "window": "before_trick", "trick": 3, "made": 4, "failed": -5}]}}),
    "special.contracts[].deal": ("cot-four", {"special": {"contracts": [
        {"name": "cot", "who": "anyone", "window": "first_auction", "partner": "dummy", "trumps": "none",
         "must_win": "side", "stops_at_first_loss": True, "made": 4, "failed": -5}]}}),
    # (declared before trick 2 and stopped at the first loss: a trick the partner wins shows at once)
    "special.contracts[].must_win": (("thani-late", {"special": {"contracts": [
        {"name": "thani", "who": "sole_winner", "window": "before_trick", "trick": 2, "stops_at_first_loss": True,
         "made": 4, "failed": -5}]}}), {"special": {"contracts": [
            {"name": "thani", "who": "sole_winner", "window": "before_trick", "trick": 2, "stops_at_first_loss": True,
             "must_win": "side", "made": 4, "failed": -5}]}}),
    "special.contracts[].stops_at_first_loss": ("thani", {"special": {"contracts": [
        {"name": "thani", "who": "bidder", "stops_at_first_loss": True, "made": 4, "failed": -5}]}}),
    "special.contracts[].sure_sweep": ("single-hand", {"special": {"contracts": [
        {"name": "single-hand", "who": "anyone", "partner": "sits_out", "trumps": "none", "sure_sweep": "forbidden",
         "made": 3, "failed": -3}]}}),
    "special.contracts[].played": ("single-hand-show", {"special": {"contracts": [
        {"name": "single-hand", "who": "anyone", "partner": "sits_out", "trumps": "none", "sure_sweep": "forbidden",
         "made": 3, "failed": -3},
        {"name": "show", "who": "anyone", "trumps": "none", "sure_sweep": "required", "played": True, "made": 3,
         "failed": -3}]}}),
    "play.exposed_after_deal": ("twenty-nine", {"play": {"exposed_after_deal": "bidders_partner"}}),
    "special.all_tricks.multiplier": ("cot", {"special": {"all_tricks": {"multiplier": 3}}}),
    "special.all_tricks.surrender.refused_loss_multiplier": ("cot", {
        "special": {"all_tricks": {"surrender": {"refused_loss_multiplier": 3}}}}),
    "special.doubling.steps[].name": ("double-redouble", {"special": {"doubling": {"steps": [
        {"name": "dbl", "by": "opponents", "multiplier": 2}, {"name": "redouble", "by": "bidding_team"}]}}}),
    "special.doubling.steps[].by": ("double-redouble", {"special": {"doubling": {"steps": [
        {"name": "double", "by": "opponents"}, {"name": "redouble", "by": "opponents"}]}}}),
    "special.doubling.steps[].multiplier": ("double-redouble", {"special": {"doubling": {"steps": [
        {"name": "double", "by": "opponents", "multiplier": 3}, {"name": "redouble", "by": "bidding_team"}]}}}),
    "special.doubling.cap": ("gorakhpur", {"special": {"doubling": {"cap": 2}}}),
    "special.doubling.window": ("double-redouble", {"special": {"doubling": {"window": "before_play"}}}),
    "special.doubling.steps[].adds": ("double-redouble", {"special": {"doubling": {"steps": [
        {"name": "double", "by": "opponents", "adds": 1}, {"name": "redouble", "by": "bidding_team", "adds": 1}]}}}),
    "special.capture_bonuses[].trigger": (("twenty-eight", LAST_TRICK_1), {"special": {"capture_bonuses": [
        {"trigger": "all_of_rank", "rank": "J", "amount": 1}]}}),
    "special.capture_bonuses[].rank": (("twenty-eight", JACKS), {"special": {"capture_bonuses": [
        {"trigger": "all_of_rank", "rank": "9", "amount": 1, "unit": "game_points"}]}}),
    "special.capture_bonuses[].amount": (("twenty-eight", LAST_TRICK_1), {"special": {"capture_bonuses": [
        {"trigger": "last_trick", "amount": 2}]}}),
    "special.capture_bonuses[].unit": (("twenty-eight", LAST_TRICK_1), {"special": {"capture_bonuses": [
        {"trigger": "last_trick", "amount": 1, "unit": "game_points"}]}}),
    "special.capture_bonuses[].kind": (("twenty-eight", LAST_TRICK_1), {"special": {"capture_bonuses": [
        {"trigger": "last_trick", "amount": 1, "kind": "transfer"}]}}),
    "special.concede.when": (("twenty-eight", {"special": {"concede": {"when": ["in_play"]}}}),
                             {"special": {"concede": {"when": ["after_first_auction"]}}}),
    "special.doubling.auto_double.from_bid": ("gorakhpur", {"special": {"doubling": {
        "auto_double": {"from_bid": 17}}}}),
    "special.doubling.auto_double.multiplier": ("gorakhpur", {"special": {"doubling": {
        "auto_double": {"multiplier": 4}, "cap": 8}}}),
    "special.doubling.fixed_stake.name": ("odisha", {"special": {"doubling": {"fixed_stake": {"name": "CC"}}}}),
    "special.doubling.fixed_stake.value": ("odisha", {"special": {"doubling": {"fixed_stake": {"value": 5}}}}),
    "special.doubling.fixed_stake.needs_no_score_showing": ("odisha", {"special": {"doubling": {
        "fixed_stake": {"needs_no_score_showing": False}}}}),
    "scoring.method": ("twenty-eight", {"scoring": {"method": "opponents_credited"}}),
    "scoring.bands[].bids": ("twenty-eight", {"scoring": {"bands": [
        {"bids": [14, 17], "made": 1, "failed": -2}, {"bids": [18, 24], "made": 2, "failed": -3},
        {"bids": [25, 28], "made": 3, "failed": -4}]}}),
    "scoring.bands[].made": ("twenty-eight", {"scoring": {"bands": [{**BANDS_14[0], "made": 2}, *BANDS_14[1:]]}}),
    "scoring.bands[].failed": ("twenty-eight", {"scoring": {"bands": [{**BANDS_14[0], "failed": -1},
                                                                     *BANDS_14[1:]]}}),
    "scoring.below_half_loss_multiplier": ("twenty-eight", {"scoring": {"below_half_loss_multiplier": 2}}),
    "scoring.bands[].round": ("twenty-eight", {"scoring": {"bands": [
        *BANDS_14[:2], {"bids": [25, 28], "made": 3, "failed": -4, "round": 1},
        {"bids": [25, 28], "made": 5, "failed": -4, "round": 2}]}}),
    "scoring.shortfall_loss.at_least": (("twenty-eight-flat", {"scoring": {"shortfall_loss": {
        "at_least": 14, "loss": "bid"}}}), {"scoring": {"shortfall_loss": {"at_least": 8}}}),
    "scoring.shortfall_loss.loss": (("twenty-eight-flat", {"scoring": {"shortfall_loss": {
        "at_least": 8, "loss": "bid"}}}), {"scoring": {"shortfall_loss": {"loss": 3}}}),
    "scoring.counted_by": ("twenty-eight", {"scoring": {"counted_by": "opponents"}}),
    "scoring.target": ("twenty-eight", {"scoring": {"target": 18}}),
    "scoring.target_adjustments": (("twenty-eight", {"scoring": {"counted_by": "opponents", "target": 28}}),
                                   {"scoring": {"target_adjustments": ["call"]}}),
    "scoring.banked.success": (_banked(), {"scoring": {"banked": {"success": "reaches_bid_and_beats_opponents"}}}),
    "scoring.banked.ties": (_banked(), {"scoring": {"banked": {"ties": "maker_scores_nothing"}}}),
    "scoring.banked.add_bid": (_banked(), {"scoring": {"banked": {"add_bid": True}}}),
    "scoring.banked.failed_defenders": (_banked(), {"scoring": {"banked": {"failed_defenders": "fixed_and_bid",
                                                                           "failed_fixed": 160}}}),
    "scoring.banked.failed_fixed": (_banked(failed_defenders="fixed_and_bid", failed_fixed=160),
                                    {"scoring": {"banked": {"failed_fixed": 150}}}),
    "scoring.banked.doubled": (_banked({"doubling": COINCHE_STEPS}, failed_fixed=160, failed_defenders="fixed_and_bid"),
                               {"scoring": {"banked": {"doubled": "fixed_and_bid_times_multiplier"}}}),
    "scoring.banked.all_tricks.card_points": (_banked(), {"scoring": {"banked": {"all_tricks": {"card_points": 252}}}}),
    "scoring.banked.all_tricks.bonus": (_banked(all_tricks={"bonus": 50}),
                                        {"scoring": {"banked": {"all_tricks": {"bonus": 100}}}}),
    "scoring.banked.all_tricks.bid_from": (_banked(), {"scoring": {"banked": {"all_tricks": {"bid_from": 130}}}}),
    "scoring.banked.rounding": (_banked(), {"scoring": {"banked": {"rounding": "nearest_ten"}}}),
    "match.deals": (_banked(), {"match": {"win_at": None, "deals": 3}}),
    "match.ends_mid_deal": (_banked(success="none"), {"match": {"ends_mid_deal": True}}),
    "match.start": ("twenty-eight", {"match": {"start": 2}}),
    "match.win_at": ("twenty-eight", {"match": {"win_at": 3}}),
    "match.lose_at": ("twenty-eight", {"match": {"lose_at": -3}}),
    "match.next_dealer.after_hand": ("twenty-eight", {"match": {"next_dealer": {"after_hand":
                                                                                 "stays_while_team_behind"}}}),
    "match.next_dealer.after_all_pass": ("fifty-six", {"match": {"next_dealer": {"after_all_pass": "next"}}}),
    "match.next_dealer.after_void": ("twenty-eight-3p", {"match": {"next_dealer": {"after_void": "next"}}}),
    "match.next_dealer.after_redeal": ("twenty-eight", {"match": {"next_dealer": {"after_redeal": "next"}}}),
    "match.next_dealer.after_annul": ("twenty-nine", {"match": {"next_dealer": {"after_annul": "next"}}}),
    "match.sets.at": (("twenty-nine", SETS), {"match": {"sets": {"at": 4}}}),
    "match.sets.win_sets": (("twenty-nine", {"match": {"win_at": None, "lose_at": None,
                                                        "sets": {"at": 1, "win_sets": 3}}}),
                            {"match": {"sets": {"win_sets": 1}}}),
    "annul.one_hand_holds_all_of": ("twenty-eight-3p", {"annul": {"one_hand_holds_all_of": None}}),
    "annul.bidding_team_held_all_trumps": ("twenty-eight-3p", {"annul": {"bidding_team_held_all_trumps": False}}),
    "annul.trump_never_exposed": ("twenty-nine", {"annul": {"trump_never_exposed": False}}),
    "annul.held_all_trumps_checked": ("twenty-eight-3p", {"annul": {"held_all_trumps_checked": "before_play"}}),
    "annul.pointless_hand_may_redeal": ("twenty-eight-6p", {"annul": {"pointless_hand_may_redeal": True}}),
    # Thunee's mechanisms
    "trump.last_card.only_when_suits_differ": ("thunee", {"trump": {"last_card": {"only_when_suits_differ": False}}}),
    "trump.shown_at_first_lead": ("thunee", {"trump": {"shown_at_first_lead": False}}),
    "special.contracts[].ranking": ("thunee", _contracts(ranking="normal")),
    "special.contracts[].failed_to_partner": ("thunee", _contracts(failed_to_partner=-2)),
    "special.contracts[].barred_with_one_suit": ("thunee", _contracts(barred_with_one_suit=False)),
    "special.contracts[].switches_off": ("thunee", _contracts(switches_off=[])),
    "special.declarations.first": ("thunee", {"special": {"declarations": {"first": "first_hand"}}}),
    "special.declarations.priority": ("thunee", {"special": {"declarations": {"priority": "first_declared"}}}),
    "special.melds.name": ("thunee", _jodi(name="pair")),
    "special.melds.ranks": ("thunee", _jodi(ranks=["K", "A"])),
    "special.melds.plain_value": ("thunee", _jodi(plain_value=60)),
    "special.melds.trump_value": ("thunee", _jodi(trump_value=80)),
    "special.melds.extra.rank": ("thunee", _jodi(extra={"rank": "A", "plain_value": 30, "trump_value": 50})),
    "special.melds.extra.plain_value": ("thunee", _jodi(extra={"rank": "J", "plain_value": 90, "trump_value": 50})),
    "special.melds.extra.trump_value": (("thunee", _jodi(ranks=["K"], extra={"rank": "Q", "plain_value": 30,
                                                                             "trump_value": 50})),
                                        _jodi(ranks=["K"], extra={"rank": "Q", "plain_value": 30, "trump_value": 90})),
    "special.melds.after_tricks": ("thunee", _jodi(after_tricks=[2])),
    "special.melds.target_bounds": ("thunee", _jodi(target_bounds=[80, 130])),
    "special.claims[].name": ("thunee", _claims(double={"name": "dbl"})),
    "special.claims[].who": ("thunee", _claims(double={"who": "side_showed_meld"})),
    "special.claims[].needs_lost_trick": ("thunee", _claims(double={"needs_lost_trick": True})),
    "special.claims[].melds_beat_opponents_by": ("thunee", _claims(khanaak={"melds_beat_opponents_by": None})),
    "special.claims[].barred_within": ("thunee", _claims(double={"barred_within": 11})),
    "special.claims[].match_target_after": ("thunee", _claims(khanaak={"match_target_after": 3})),
    "special.claims[].rewards.on_time": ("thunee", _claims(double=_rewards(DOUBLE, on_time=5))),
    "special.claims[].rewards.on_time_by_counting_side": (
        ("thunee", _claims(khanaak=EASY_KHANAAK)),
        _claims(khanaak={**EASY_KHANAAK, **_rewards(KHANAAK, on_time_by_counting_side=None)})),
    "special.claims[].rewards.on_time_score": ("thunee", _claims(double=_rewards(DOUBLE, on_time_score="adds"))),
    "special.claims[].rewards.failed": ("thunee", _claims(double=_rewards(DOUBLE, failed=-1))),
    "play.blind_cut": ("three-hundred-and-four", {"play": {"blind_cut": False}}),
    "play.exhausted_trumps": ("three-hundred-and-four", {"play": {"exhausted_trumps": False}}),
    "trump.opening.by_choice": ("three-hundred-and-four", {"trump": {"opening": {"by_choice": False}}}),
    "trump.opening.lead_trump_after": ("three-hundred-and-four", {"trump": {"opening": {
        "lead_trump_after": False}}}),
    "trump.opening.after_trick": ("three-hundred-and-four", {"trump": {"opening": {"after_trick": 3}}}),
    "trump.opening.from_bid": ("three-hundred-and-four", {"trump": {"opening": {"from_bid": 160}}}),
    "special.contracts[].open_trump": ("three-hundred-and-four", {"special": {"contracts": [PCC_304 | {
        "open_trump": False}]}}),
    "special.claims[].certainty": ("three-hundred-and-four", {"special": {"claims": [CAPS_ANY_CLAIM]}}),
    "special.claims[].first_moment": ("three-hundred-and-four", {"special": {"claims": [CAPS_304 | {
        "first_moment": False}]}}),
    "special.claims[].stops_play": ("three-hundred-and-four", {"special": {"claims": [CAPS_304 | {
        "stops_play": True}]}}),
    "special.claims[].rewards.on_time_before_trick": (("three-hundred-and-four", CAPS_ANY), {"special": {"claims": [
        CAPS_ANY_CLAIM | {"rewards": CAPS_REWARDS | {"on_time_before_trick": None}}]}}),
    "special.claims[].rewards.wrong_but_won": ("three-hundred-and-four", {"special": {"claims": [CAPS_304 | {
        "rewards": CAPS_REWARDS | {"wrong_but_won": -1}}]}}),
    "special.melds.when": ("three-hundred-and-four-maharashtra", {"special": {"melds": MELDS_304 | {
        "when": ["trump_exposed"]}}}),
    "special.claims[].claims": ("three-hundred-and-four", {"special": {"claims": [CAPS_ANY_CLAIM | {
        "claims": "last_trick_by_caller"}]}}),
    "special.melds.compulsory": ("three-hundred-and-four-maharashtra", {"special": {"melds": MELDS_304 | {
        "compulsory": False, "when": [], "after_tricks": [1, 2]}}}),
    # melds of the European games (combinations, trump_marriage), on the test files that extend open-trump
    "combinations.order": (MELDS_DECLARED, {"combinations": {"order": ["A", "T", "K", "Q", "J", "9", "8", "7"]}}),
    "combinations.sequences": (MELDS_DECLARED, {"combinations": {"sequences": {3: 30}}}),
    "combinations.four_of_a_kind": (MELDS_DECLARED, {"combinations": {"four_of_a_kind": {
        r: 300 for r in ("J", "9", "A", "T", "K", "Q", "8", "7")}}}),
    "combinations.counted": (MELDS_DECLARED, {"combinations": {"counted": "in_trick"}}),
    "combinations.compared": (MELDS_DECLARED, {"combinations": {"compared": "each_side_own"}}),
    "combinations.ranking": (MELDS_DECLARED, {"combinations": {"ranking": ["value", "earlier"]}}),
    "combinations.ties": (MELDS_DECLARED, {"combinations": {"ties": "earlier"}}),
    "trump_marriage.ranks": (MELDS_DECLARED, {"trump_marriage": {"ranks": ["A", "K"]}}),
    "trump_marriage.value": (MELDS_DECLARED, {"trump_marriage": {"value": 40}}),
    "trump_marriage.counted": (MELDS_DECLARED, {"trump_marriage": {"counted": "in_trick"}}),
}


# trump_marriage.in_modes changes play only in a trump mode (all trumps), which trump.modes (issue 26's per-mode
# cards) brings: its change is added with that mechanism
NEEDS_MODES = frozenset({"trump_marriage.in_modes"})


def _house_rule(tmp_path: Path, name: str, base: str, change: dict[str, Any]) -> Path:
    path = tmp_path / f"{name}.yaml"
    text = yaml.safe_dump({"schema_version": 1, "name": name, "extends": base,
                           "description": "one rule changed", **change}, sort_keys=False)
    path.write_text(text)
    return path


# Changes whose effect needs a deal that random deals give too rarely: seat 0 is dealt every card of the
# first suit, first (so a lone bidder at seat 0 often holds all the trumps).
RIGGED = {"annul.bidding_team_held_all_trumps", "scoring.banked.all_tricks.card_points",
          "scoring.banked.all_tricks.bonus", "annul.held_all_trumps_checked", "match.next_dealer.after_void",
          "special.contracts[].barred_with_one_suit", "special.contracts[].sure_sweep",
          "special.contracts[].played",
          # (sweeps, which claims of the remaining tricks are graded on: a seat holding every trump)
          "special.claims[].certainty", "special.claims[].first_moment",
          "special.claims[].rewards.on_time_before_trick",
          "special.claims[].rewards.wrong_but_won"}


def _one_suit_to_seat_0(game: Game, dealt: list[list[int]]) -> list[list[int]]:
    suit = [c for h in dealt for c in h if game.suit_of[c] == 0]
    mine = suit + [c for c in dealt[0] if game.suit_of[c] != 0]
    spare = [c for c in dealt[0] if c not in mine[:len(dealt[0])]] + mine[len(dealt[0]):]
    out = [mine[:len(dealt[0])]]
    for h in dealt[1:]:
        out.append([c if game.suit_of[c] != 0 else spare.pop() for c in h])
    return out


def _hand_trace(game: Game, index: int, rigged: bool = False) -> Iterator[object]:
    """What happens in one seeded hand played by random players: every legal list, then the outcome."""
    rng = random.Random(1000 + index)
    # some hands with points showing
    scores = [(index % 3) - 1 if t == 0 else 0 for t in range(len(game.rules.table.teams))]
    dealer = index % game.n
    dealt = game.shuffled_deal(index, dealer)
    if rigged:
        dealt = _one_suit_to_seat_0(game, dealt)
    state = game.new_hand(dealer, hands=dealt, match_scores=scores, stock=game.shuffled_stock(index) or None)
    while not state.is_terminal:
        legal = state.legal_actions()
        yield state.to_act, tuple(a.notation for a in legal)
        state.apply(_choose(legal, rng))
    # the outcome as the replay report gives it: status, contract target, card and game points; and the hands
    # left lying face up, as a view shows them (what the players saw)
    yield state.status, state.target, tuple(state.game_points), tuple(state.team_points)
    yield tuple(state.meld_points), tuple(state.marriage_points)    # (melds and the trump marriage, per side)
    yield state.view(0).to_dict().get("exposed")


def _choose(legal: list[Action], rng: random.Random) -> Action:
    """A random player who passes half the time it may (uniform choices would outbid each other to the top)."""
    if rng.random() < 0.5:
        for a in legal:
            if a.verb == "pass":
                return a
    return legal[int(rng.random() * len(legal))]


def _match_trace(game: Game, index: int, rigged: bool = False) -> Iterator[object]:
    """A seeded match of random players: who deals each hand, its outcome, the match score (and open sets), and
    where the match ends."""
    rng = random.Random(index)
    match = Match(game, seed=index, max_hands=60)
    yield tuple(match.scores)
    while not match.is_over:
        state = match.new_hand()
        if rigged:
            state = game.new_hand(match.dealer, hands=_one_suit_to_seat_0(game, state.dealt),
                                  match_scores=match.scores, match_target=match.win_at)
        while not state.is_terminal:
            state.apply(_choose(state.legal_actions(), rng))
        match.record_hand(state)
        yield state.dealer, state.status, tuple(match.scores), tuple(tuple(st.values()) for st in match.sets)
    yield "over", tuple(match.winners)


def _first_difference(a: Game, b: Game, hands: int, rigged: bool) -> int | None:
    for i in range(hands):
        if i % 10 == 9:
            differ = list(_match_trace(a, i, rigged)) != list(_match_trace(b, i, rigged))
        else:
            differ = list(_hand_trace(a, i, rigged)) != list(_hand_trace(b, i, rigged))
        if differ:
            return i
    return None


@pytest.mark.parametrize("path", sorted(CHANGES))
def test_changing_a_rule_changes_play(path: str, tmp_path: Path) -> None:
    start, change = CHANGES[path]
    if path in NEEDS_OBLIGATIONS:
        pytest.skip("an all-trumps mode shows in play through the card-play obligations (play.obligations)")
    if isinstance(start, tuple):
        base = load_game(_house_rule(tmp_path, "common", *start))
        changed = load_game(_house_rule(tmp_path, "house", "./common.yaml", change))
    else:
        base = load_game(start)
        changed = load_game(_house_rule(tmp_path, "house", start, change))
    assert changed.rules != base.rules, "the house rule compiles to the same rules"
    found = _first_difference(base, changed, 600, path in RIGGED)
    assert found is not None, f"{path}: 600 seeded hands play the same with and without the change"
