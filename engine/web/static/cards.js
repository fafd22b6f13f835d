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

// A card as an element: its face drawn as SVG, coloured by suit, named in words for screen readers.
export function cardFace(code, tag = "span") {
  const el = document.createElement(tag);
  const suit = SUITS[code.slice(-1)];
  el.className = "card " + (suit ? suit.colour : "");
  el.dataset.code = code;
  el.append(cardSvg(code));
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

// --- card faces drawn as SVG (no image files, no build step) ------------------------------------------------
const NS = "http://www.w3.org/2000/svg";
const INK = { red: "#c0161f", black: "#1b1b1b" };

function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function corner(rank, symbol, fill) {
  const g = svg("g", { fill, "font-family": "Georgia, 'Times New Roman', serif", "font-weight": 700,
    "text-anchor": "middle" });
  g.append(svg("text", { x: 9, y: 17, "font-size": rank.length > 1 ? 13 : 15 }, rank),
    svg("text", { x: 9, y: 30, "font-size": 13 }, symbol));
  return g;
}

// The face of a card, 60 x 84 units: the corner index twice (the second turned round) and a large centre:
// the suit symbol for a number card or the ace, the rank letter in a frame for a court card.
export function cardSvg(code) {
  const r = code.slice(0, -1);
  const suit = SUITS[code.slice(-1)];
  const rank = r === "T" ? "10" : r;
  const symbol = suit ? suit.symbol : code.slice(-1);
  const fill = INK[suit ? suit.colour : "black"];
  const root = svg("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true", focusable: "false" });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fffef9", stroke: "#8a8a8a",
    "stroke-width": 1.2 }));
  root.append(corner(rank, symbol, fill));
  const turned = corner(rank, symbol, fill);
  turned.setAttribute("transform", "rotate(180 30 42)");
  root.append(turned);
  if ("JQK".includes(r)) {
    root.append(svg("rect", { x: 17, y: 18, width: 26, height: 48, rx: 3, fill: "none", stroke: fill,
      "stroke-width": 1.2 }));
    root.append(svg("text", { x: 30, y: 45, "font-size": 22, "font-weight": 700, fill, "text-anchor": "middle",
      "font-family": "Georgia, 'Times New Roman', serif" }, r));
    root.append(svg("text", { x: 30, y: 61, "font-size": 13, fill, "text-anchor": "middle" }, symbol));
  } else {
    root.append(svg("text", { x: 30, y: 55, "font-size": r === "A" ? 34 : 28, fill, "text-anchor": "middle" },
      symbol));
  }
  return root;
}

// The back of a card (another seat's hand): a lattice, no face.
export function cardBack() {
  const root = svg("svg", { viewBox: "0 0 60 84", class: "back", "aria-hidden": "true", focusable: "false" });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#7a1f2b", stroke: "#f3e9d2",
    "stroke-width": 2 }));
  root.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "none", stroke: "#f3e9d2",
    "stroke-width": 1, "stroke-dasharray": "3 2" }));
  return root;
}
