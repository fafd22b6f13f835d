"""Compose the worked-deal records: a header saying the arithmetic, then the body golden_search found."""
import sys
from pathlib import Path

HEADERS = {
 "belote-b1-dedans-keeps-belote": ("b1", "belote", [
  "belote, worked deal B1 (JASS-GROUP.md 8): a failed contract (dedans) whose takers keep their belote.",
  "Hearts turned (7H) and taken by seat 0: NS take. Card points NS 62, EW 100 (= 162). Seat 0 holds KH QH:",
  "belote 20 to NS. Seat 1 announces the diamond tierce A-K-Q (20), NS announce nothing: EW's meld is the best",
  "and scores. NS 62 + 20 = 82 against EW 100 + 20 = 120: dedans. NS keep their belote: 20; EW score 162 + 20 = 182."]),
 "belote-b2-carre-beats-quarte": ("b2", "belote", [
  "belote, worked deal B2: the best meld carries its side, the other side's meld is void; dedans.",
  "Spades turned (8S) and taken by seat 0. Card points NS 97, EW 65 (= 162). Seat 2 announces the heart quarte",
  "J-T-9-8 (50), seat 1 the four Queens (100): EW's carre is the best meld, NS's quarte scores nothing. Seat 1",
  "also holds KS QS: belote 20 to EW. NS 97 against EW 65 + 100 + 20 = 185: dedans. NS 0; EW 162 + 100 + 20 = 282."]),
 "belote-b3-capot-250": ("b3", "belote", [
  "belote, worked deal B3: capot - the takers win all eight tricks and count 250 card points.",
  "Clubs turned (TC) and taken by seat 0, who announces the trump tierce J-T-9 (20); EW announce nothing and",
  "KC QC lie in different EW hands (no belote). NS win every trick: 250 + 20 = 270; EW 0."]),
 "belote-b4-tie-is-dedans": ("b4", "belote", [
  "belote, worked deal B4 (base file): equal totals are dedans - the takers must score strictly more.",
  "Diamonds trumps, taken by NS. Card points 81 each (= 162), no meld announced, no belote. 81 is not more than",
  "81: dedans. NS 0; EW 162."]),
 "belote-litige-b4-tie-held-over": ("b4", "belote-litige", [
  "belote-litige, worked deal B4 (the litige overlay): equal totals are held in suspense, not dedans.",
  "The deal and play of belote-b4-tie-is-dedans: diamonds trumps, taken by NS, 81 card points each, no melds,",
  "no belote. EW score their 81 now; NS's 81 wait for the winner of the next deal (a match-level effect), so this",
  "hand's game points are NS 0, EW 81."]),
 "coinche-c1-made-bid-added": ("c1", "coinche", [
  "coinche, worked deal C1: a made contract scores the bid plus the bidders' total.",
  "Seat 0 bids 100 spades, the others pass. Card points NS 112, EW 50 (= 162); no meld announced; seat 0 holds",
  "KS QS: belote 20 to NS. NS 112 + 20 = 132 reaches 100 and beats 50: made. NS 100 + 132 = 232; EW 50."]),
 "coinche-c2-failed-160-plus-bid": ("c2", "coinche", [
  "coinche, worked deal C2: a failed contract gives the defenders 160 + the bid + their belote.",
  "Seat 0 bids 90 hearts, the others pass. Card points NS 85, EW 77 (= 162); no meld announced; seat 1 holds",
  "KH QH: belote 20 to EW. NS 85 is short of 90: failed. NS 0; EW 160 + 90 + 20 = 270."]),
 "coinche-c3-coinched-doubled": ("c3", "coinche", [
  "coinche, worked deal C3: a coinched contract that fails - (160 + bid) x 2 to the defenders.",
  "Seat 1 bids 120 diamonds, seat 2 coinches (the auction closes), the bidding side passes (no surcoinche).",
  "Card points EW 95, NS 67 (= 162); no melds, no belote. 95 is short of 120: NS win the deal and score",
  "(160 + 120) x 2 = 560; EW 0."]),
 "coinche-c4-made-bid-110": ("c4", "coinche", [
  "coinche, worked deal C4 (lacontree.free.fr's example): bid 110 hearts made with 113.",
  "Seat 0 bids 110 hearts, the others pass. NS's tricks hold 103 card points and the last trick (10): 113; EW",
  "49 (= 162); no melds, no belote. Made: NS 110 + 113 = 223; EW 49."]),
 "coinche-rounding-c4-rounded": ("c4", "coinche-rounding", [
  "coinche-rounding, worked deal C4: the deal of coinche-c4-made-bid-110 with scores rounded to tens.",
  "Made on the exact totals (113 reaches 110, beats 49); then NS 223 rounds down to 220 (unit 3) and EW 49 up",
  "to 50 (unit 9)."]),
 "klaverjas-k1-made-roem-and-stuk": ("k1", "klaverjas", [
  "klaverjas, worked deal K1: a made contract, roem counted in the tricks, the stuk besides a trump run.",
  "Seat 1 (first hand) names hearts: EW play. Trick 1, KH QH JH (with 9S) won by seat 0: the run K-Q-J of",
  "trumps 20 and the stuk 20 to NS. Trick 2, JC AC QC TC won by seat 1: the run Q-J-T 20 to EW. No other roem.",
  "Card points NS 68, EW 94 (= 162). EW 94 + 20 = 114 beats NS 68 + 40 = 108: made. EW 114; NS 108."]),
 "klaverjas-k2-nat": ("k2", "klaverjas", [
  "klaverjas, worked deal K2: nat - the playing side scores nothing, the defenders 162 and all roem.",
  "Seat 0 (first hand) names trumps: NS play. Card points NS 75, EW 87 (= 162); a four-card run (50) falls",
  "in a trick EW win, no other roem, no stuk. NS 75 against EW 87 + 50 = 137: nat. NS 0; EW 162 + 50 = 212."]),
 "klaverjas-k3-pit": ("k3", "klaverjas", [
  "klaverjas, worked deal K3: pit - all eight tricks to the playing side, 100 roem more.",
  "Seat 0 names clubs: NS play and win every trick; one three-card run (20) falls in their tricks, the trump",
  "King and Queen never in one trick. NS 162 + 20 + 100 = 282; EW 0."]),
 "schieber-s1-weis-and-stoeck": ("s1", "schieber", [
  "schieber, worked deal S1: only the best Weis's side scores its Weis; the Stoeck is always scored.",
  "Seat 0 (forehand) chooses hearts (x1). Seat 0 declares the spade run A-K-Q-J (50), seat 1 the diamond run",
  "A-K-Q (20): NS hold the best Weis and score 50, EW's 20 nothing. Seat 1 holds KH QH: Stoeck 20 to EW.",
  "Card points NS 98, EW 59 (= 157). NS 98 + 50 = 148; EW 59 + 20 = 79."]),
 "schieber-2500-s2-obenabe-triple": ("s2", "schieber-2500", [
  "schieber-2500, worked deal S2: obenabe counts three times.",
  "Seat 0 (forehand) chooses obenabe (x3); no Weis declared, no Stoeck in obenabe. Card points NS 101, EW 56",
  "(= 157). NS 101 x 3 = 303; EW 56 x 3 = 168."]),
 "schieber-2500-s3-match-double": ("s3", "schieber-2500", [
  "schieber-2500, worked deal S3: a match (all nine tricks) in Schilten (spades, x2).",
  "Seat 1 (forehand) chooses spades; no Weis declared; KS and QS lie in different hands (no Stoeck). EW win",
  "every trick: (157 + 100) x 2 = 514; NS 0."]),
 "klaberjass-kb1-made": ("kb1", "klaberjass", [
  "klaberjass, worked deal KB1: the maker takes more than the opponent; both score their own.",
  "Seat 0 (non-dealer) makes trumps. Card points: maker 85, opponent 60 (of the 18 cards in play). The maker",
  "announces a sequence (20), the only one, and holds the trump King and Queen (bella 20). Maker 85 + 20 + 20",
  "= 125 beats 60: maker 125; opponent 60."]),
 "klaberjass-kb2-bate": ("kb2", "klaberjass", [
  "klaberjass, worked deal KB2: bate - the maker takes less and the opponent scores both totals.",
  "Seat 0 (non-dealer) makes trumps. Maker: card points 50 + his sequence 20 = 70; opponent: card points 65 +",
  "bella 20 = 85. 70 is less than 85: maker 0; opponent 70 + 85 = 155."]),
 "klaberjass-kb3-tie": ("kb3", "klaberjass", [
  "klaberjass, worked deal KB3: a tie - the maker scores nothing, the opponent his own.",
  "Seat 0 (non-dealer) makes trumps. Card points 70 each, no sequence announced, no bella: maker 0;",
  "opponent 70."]),
}

src, out = Path(sys.argv[1]), Path(sys.argv[2])
for name, (key, ruleset, header) in HEADERS.items():
    f = src / f"{key}.yaml"
    if not f.exists():
        print("missing", f)
        continue
    body = [ln for ln in f.read_text().splitlines() if not ln.startswith("#")]
    body = [f"ruleset: {ruleset}" if ln.startswith("ruleset:") else ln for ln in body]
    (out / f"{name}.yaml").write_text("".join(f"# {h}\n" for h in header) + "\n".join(body) + "\n")
    print("wrote", name)

# The same deals and plays under an overlay (the announcements dropped where the overlay has no melds): what the
# overlay changes, or that it changes nothing in one hand (a match target). (worked record, ruleset, drop announce)
VARIANTS = {
 "belote-sans-annonces-b1-no-meld": ("belote-b1-dedans-keeps-belote", "belote-sans-annonces", True, [
  "belote-sans-annonces: deal and play of B1 without the announcement (no meld exists in this file).",
  "NS 62 + belote 20 = 82 against EW 100 (their tierce no longer counts): still dedans. NS keep the belote 20;",
  "EW 162."]),
 "belote-sans-annonces-b2-made-without-carre": ("belote-b2-carre-beats-quarte", "belote-sans-annonces", True, [
  "belote-sans-annonces: deal and play of B2 without announcements: the four Queens score nothing here.",
  "NS 97 against EW 65 + belote 20 = 85: made. NS 97; EW 85."]),
 "belote-sans-annonces-b3-capot": ("belote-b3-capot-250", "belote-sans-annonces", True, [
  "belote-sans-annonces: deal and play of B3 without the tierce: capot 250 alone. NS 250; EW 0."]),
 "belote-1000-b1": ("belote-b1-dedans-keeps-belote", "belote-1000", False, [
  "belote-1000: deal B1 - a hand scores as in belote (NS 20, EW 182); the 1000 target only ends the match."]),
 "belote-1000-b2": ("belote-b2-carre-beats-quarte", "belote-1000", False, [
  "belote-1000: deal B2 - a hand scores as in belote (NS 0, EW 282); the 1000 target only ends the match."]),
 "belote-1000-b3": ("belote-b3-capot-250", "belote-1000", False, [
  "belote-1000: deal B3 - a hand scores as in belote (NS 270, EW 0); the 1000 target only ends the match."]),
 "belote-rounding-b1": ("belote-b1-dedans-keeps-belote", "belote-rounding", False, [
  "belote-rounding: deal B1 - dedans on the exact totals (82 against 120), then NS 20 stays 20 and EW 182",
  "rounds down to 180."]),
 "belote-rounding-b2": ("belote-b2-carre-beats-quarte", "belote-rounding", False, [
  "belote-rounding: deal B2 - dedans (97 against 185); EW 282 rounds down to 280, NS 0."]),
 "belote-rounding-b4": ("belote-b4-tie-is-dedans", "belote-rounding", False, [
  "belote-rounding: deal B4 - the 81-81 tie is dedans on the exact totals; EW 162 rounds down to 160, NS 0."]),
 "belote-capot-252-b3": ("belote-b3-capot-250", "belote-capot-252", False, [
  "belote-capot-252: deal B3 - the capot counts 252: NS 252 + tierce 20 = 272; EW 0."]),
 "belote-capot-252-b1": ("belote-b1-dedans-keeps-belote", "belote-capot-252", False, [
  "belote-capot-252: deal B1 - no capot, so the hand scores as in belote: NS 20, EW 182."]),
 "belote-capot-252-b2": ("belote-b2-carre-beats-quarte", "belote-capot-252", False, [
  "belote-capot-252: deal B2 - no capot, so the hand scores as in belote: NS 0, EW 282."]),
 "belote-litige-b1": ("belote-b1-dedans-keeps-belote", "belote-litige", False, [
  "belote-litige: deal B1 - not a tie (82 against 120), so dedans as in belote: NS 20, EW 182."]),
 "belote-litige-b3": ("belote-b3-capot-250", "belote-litige", False, [
  "belote-litige: deal B3 - capot as in belote: NS 270, EW 0."]),
 "coinche-sans-annonces-c1": ("coinche-c1-made-bid-added", "coinche-sans-annonces", False, [
  "coinche-sans-annonces: deal C1 (no meld was announced there): made, NS 100 + 112 + belote 20 = 232; EW 50."]),
 "coinche-sans-annonces-c2": ("coinche-c2-failed-160-plus-bid", "coinche-sans-annonces", False, [
  "coinche-sans-annonces: deal C2: failed, NS 0; EW 160 + 90 + belote 20 = 270."]),
 "coinche-sans-annonces-c3": ("coinche-c3-coinched-doubled", "coinche-sans-annonces", False, [
  "coinche-sans-annonces: deal C3: coinched and failed, NS (160 + 120) x 2 = 560; EW 0."]),
 "coinche-2000-c1": ("coinche-c1-made-bid-added", "coinche-2000", False, [
  "coinche-2000: deal C1 scores as in coinche (NS 232, EW 50); the target only ends the match."]),
 "coinche-2000-c2": ("coinche-c2-failed-160-plus-bid", "coinche-2000", False, [
  "coinche-2000: deal C2 scores as in coinche (NS 0, EW 270); the target only ends the match."]),
 "coinche-2000-c3": ("coinche-c3-coinched-doubled", "coinche-2000", False, [
  "coinche-2000: deal C3 scores as in coinche (NS 560, EW 0); the target only ends the match."]),
 "coinche-rounding-c1": ("coinche-c1-made-bid-added", "coinche-rounding", False, [
  "coinche-rounding: deal C1 - made on the exact totals; NS 232 rounds to 230, EW 50 stays 50."]),
 "coinche-rounding-c2": ("coinche-c2-failed-160-plus-bid", "coinche-rounding", False, [
  "coinche-rounding: deal C2 - failed (85 short of 90); EW 270 stays 270, NS 0."]),
 "coinche-partner-trump-free-c1": ("coinche-c1-made-bid-added", "coinche-partner-trump-free", False, [
  "coinche-partner-trump-free: deal C1 - every card played there is also allowed here (the overlay only frees",
  "a player over his partner's trump); the score is coinche's: NS 232, EW 50."]),
 "coinche-partner-trump-free-c2": ("coinche-c2-failed-160-plus-bid", "coinche-partner-trump-free", False, [
  "coinche-partner-trump-free: deal C2 as in coinche: NS 0, EW 270."]),
 "coinche-partner-trump-free-c3": ("coinche-c3-coinched-doubled", "coinche-partner-trump-free", False, [
  "coinche-partner-trump-free: deal C3 as in coinche: NS 560, EW 0."]),
 "coinche-ta-sa-c1": ("coinche-c1-made-bid-added", "coinche-ta-sa", False, [
  "coinche-ta-sa: deal C1 with a suit bid, scored as in coinche: NS 232, EW 50."]),
 "coinche-ta-sa-c3": ("coinche-c3-coinched-doubled", "coinche-ta-sa", False, [
  "coinche-ta-sa: deal C3 with a suit bid, scored as in coinche: NS 560, EW 0."]),
 "klaverjas-stuk-in-hand-k1": ("klaverjas-k1-made-roem-and-stuk", "klaverjas-stuk-in-hand", False, [
  "klaverjas-stuk-in-hand: deal K1 - KH and QH came from two hands, so no stuk: NS 68 + run 20 = 88 against",
  "EW 94 + 20 = 114: made. EW 114; NS 88."]),
 "klaverjas-stuk-in-hand-k2": ("klaverjas-k2-nat", "klaverjas-stuk-in-hand", False, [
  "klaverjas-stuk-in-hand: deal K2 (no stuk there): nat, NS 0; EW 162 + 50 = 212."]),
 "klaverjas-stuk-in-hand-k3": ("klaverjas-k3-pit", "klaverjas-stuk-in-hand", False, [
  "klaverjas-stuk-in-hand: deal K3 (KC with seat 0, QC with seat 2: no stuk in one hand): pit, NS 282; EW 0."]),
 "klaverjas-1500-k1": ("klaverjas-k1-made-roem-and-stuk", "klaverjas-1500", False, [
  "klaverjas-1500: deal K1 scores as in klaverjas (NS 108, EW 114); the target only ends the match."]),
 "klaverjas-1500-k2": ("klaverjas-k2-nat", "klaverjas-1500", False, [
  "klaverjas-1500: deal K2 scores as in klaverjas (NS 0, EW 212); the target only ends the match."]),
 "klaverjas-1500-k3": ("klaverjas-k3-pit", "klaverjas-1500", False, [
  "klaverjas-1500: deal K3 scores as in klaverjas (NS 282, EW 0); the target only ends the match."]),
 "klaverjas-rotterdam-k1": ("klaverjas-k1-made-roem-and-stuk", "klaverjas-rotterdam", False, [
  "klaverjas-rotterdam: the deal and plays of K1 under Rotterdam's duties (a void player always trumps, over",
  "his partner too, undertrumping if he must): the report shows where a card of the Amsterdam play is refused,",
  "or the same score (NS 108, EW 114) if none is."]),
 "klaverjas-rotterdam-k2": ("klaverjas-k2-nat", "klaverjas-rotterdam", False, [
  "klaverjas-rotterdam: the deal and plays of K2 under Rotterdam's duties: refused at the first Amsterdam card",
  "Rotterdam forbids, else scored as K2 (NS 0, EW 212)."]),
 "klaverjas-rotterdam-k3": ("klaverjas-k3-pit", "klaverjas-rotterdam", False, [
  "klaverjas-rotterdam: the deal and plays of K3 (EW hold no trumps, so the duties agree): pit, NS 282; EW 0."]),
 "schieber-s2-obenabe-single": ("schieber-2500-s2-obenabe-triple", "schieber", False, [
  "schieber: the deal and play of S2 in the base file, where obenabe counts once: NS 101, EW 56."]),
 "schieber-s3-match-bonus": ("schieber-2500-s3-match-double", "schieber", False, [
  "schieber: the deal and play of S3 in the base file (x1): EW win every trick, 157 + 100 = 257; NS 0."]),
 "schieber-2500-s1-hearts-single": ("schieber-s1-weis-and-stoeck", "schieber-2500", False, [
  "schieber-2500: deal S1 - hearts (Rosen) count once: NS 98 + 50 = 148; EW 59 + 20 = 79."]),
 "schieber-12-s1": ("schieber-s1-weis-and-stoeck", "schieber-12", False, [
  "schieber-12: deal S1 scores as in schieber (NS 148, EW 79); twelve deals make the match."]),
 "schieber-12-s2": ("schieber-2500-s2-obenabe-triple", "schieber-12", False, [
  "schieber-12: deal S2, obenabe counted once: NS 101, EW 56."]),
 "schieber-12-s3": ("schieber-2500-s3-match-double", "schieber-12", False, [
  "schieber-12: deal S3 counted once: EW 157 + 100 = 257; NS 0."]),
 "schieber-small-weis-s1": ("schieber-s1-weis-and-stoeck", "schieber-small-weis", False, [
  "schieber-small-weis: deal S1 - runs of four and three count as in schieber: NS 148, EW 79."]),
 "schieber-small-weis-s2": ("schieber-2500-s2-obenabe-triple", "schieber-small-weis", False, [
  "schieber-small-weis: deal S2 (no Weis), obenabe x1: NS 101, EW 56."]),
 "schieber-small-weis-s3": ("schieber-2500-s3-match-double", "schieber-small-weis", False, [
  "schieber-small-weis: deal S3 (no Weis), spades x1: EW 257; NS 0."]),
 "schieber-no-weis-s1": ("schieber-s1-weis-and-stoeck", "schieber-no-weis", True, [
  "schieber-no-weis: deal S1 without the declarations (no Weis here): NS 98; EW 59 + Stoeck 20 = 79."]),
 "schieber-no-weis-s2": ("schieber-2500-s2-obenabe-triple", "schieber-no-weis", True, [
  "schieber-no-weis: deal S2, obenabe x1: NS 101, EW 56."]),
 "schieber-no-weis-s3": ("schieber-2500-s3-match-double", "schieber-no-weis", True, [
  "schieber-no-weis: deal S3, spades x1: EW 257; NS 0."]),
}

if len(sys.argv) > 3 and sys.argv[3] == "variants":
    for name, (base, ruleset, drop, header) in VARIANTS.items():
        f = out / f"{base}.yaml"
        if not f.exists():
            print("missing", f)
            continue
        body = [ln for ln in f.read_text().splitlines() if not ln.startswith("#")]
        body = [f"ruleset: {ruleset}" if ln.startswith("ruleset:") else ln for ln in body]
        if drop:
            body = [ln for ln in body if not ln.rstrip().endswith(" announce")]
        (out / f"{name}.yaml").write_text("".join(f"# {h}\n" for h in header) + "\n".join(body) + "\n")
        print("wrote", name)
