// Cards and suits in words, symbols and colour: what the page shows and what screen readers say.

export const SUITS = {
  S: { symbol: "\u2660", name: "spades", colour: "black" },
  H: { symbol: "\u2665", name: "hearts", colour: "red" },
  D: { symbol: "\u2666", name: "diamonds", colour: "red" },
  C: { symbol: "\u2663", name: "clubs", colour: "black" },
};

const RANKS = {
  J: "Jack", 9: "Nine", A: "Ace", T: "Ten", K: "King", Q: "Queen", 8: "Eight", 7: "Seven",
  6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two",
};

export function isCard(text) {
  return typeof text === "string" && text.length >= 2 && text.length <= 3 &&
    text.slice(0, -1) in RANKS && text.slice(-1) in SUITS;
}

// "JS" -> "Jack of spades"
export function cardName(code) {
  const rank = RANKS[code.slice(0, -1)] || code.slice(0, -1);
  const suit = SUITS[code.slice(-1)];
  return suit ? `${rank} of ${suit.name}` : code;
}

// "JS" -> "J♠" (T shown as 10)
export function cardShort(code) {
  const r = code.slice(0, -1);
  const suit = SUITS[code.slice(-1)];
  return (r === "T" ? "10" : r) + (suit ? suit.symbol : code.slice(-1));
}

export function suitWords(letter) {
  if (letter === "NT") return "no trumps";
  const s = SUITS[letter];
  return s ? `${s.symbol} ${s.name}` : letter;
}

// A card as an element: rank and symbol, coloured by suit, named in words for screen readers.
export function cardFace(code, tag = "span") {
  const el = document.createElement(tag);
  const suit = SUITS[code.slice(-1)];
  el.className = "card " + (suit ? suit.colour : "");
  el.textContent = cardShort(code);
  el.setAttribute("aria-label", cardName(code));
  if (tag === "span") el.setAttribute("role", "img");
  return el;
}

// An action written in words: "play JS" -> "play Jack of spades", "bid 30 S" -> "bid 30 spades".
export function actionWords(notation) {
  const [verb, ...args] = notation.split(" ");
  const words = args.map((a) => (isCard(a) ? cardName(a) : a in SUITS ? SUITS[a].name : a === "NT" ? "no trumps" : a));
  return [verb, ...words].join(" ");
}

export function actionShort(notation) {
  const [verb, ...args] = notation.split(" ");
  return [verb, ...args.map((a) => (isCard(a) ? cardShort(a) : a in SUITS ? SUITS[a].symbol : a))].join(" ");
}
