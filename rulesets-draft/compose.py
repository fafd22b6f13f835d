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
