// The table page: one WebSocket to the server, which sends this seat's state after every change. The page only
// shows what it is sent and sends actions in notation; the seat is the link's (the token), never the page's say.
//
// The table is drawn as players know it: a green table with the seats around it as they sit from this chair
// (you at the bottom; the player after you on your right when play goes counter-clockwise, on your left
// clockwise), the trick in the middle until the next one is led, the hand always on screen with the decision
// beside it (a desktop) or over it (a phone), and the rest (announcements, auction, chat, host, files) in a side
// panel that a phone opens with "More".

import { SUITS, actionShort, actionWords, cardBack, cardFace, cardName, cardShort, isCard, suitWords } from "./cards.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();
const token = params.get("seat") || params.get("watch") || params.get("host") || "";
const hostToken = params.get("host");
const JSON_HEADERS = { "content-type": "application/json" };
history.replaceState(null, "", location.pathname + location.hash);

let ws = null;
let last = null;          // number of the last state received
let state = null;
let links = null;         // the host's page: every seat's link (the server derives them from the host's token)
let closed = false;       // the server closed this page for good (seat given away, table closed)
let retry = 500;
let receivedAt = 0;       // when the state arrived (the away countdowns count from it)
let showLast = false;     // the last trick is shown in the middle in place of the current one
let announced = new Set(); // announcements already read out (hand number, index)
let tickerText = "";       // the latest announcement, shown on the table
let picked = { value: null, key: "" };   // the bid value chosen in the number picker
const qrCache = new Map();

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function button(label, onClick, cls, aria) {
  const b = el("button", label, cls);
  b.type = "button";
  if (aria) b.setAttribute("aria-label", aria);
  b.addEventListener("click", onClick);
  return b;
}

// --- the connection ------------------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  ws.addEventListener("open", () => {
    retry = 500;
    const hello = { type: "hello", token };
    if (hostToken && hostToken !== token) hello.host = hostToken;
    if (last !== null) hello.last = last;
    ws.send(JSON.stringify(hello));
    setStatus("connected");
  });
  ws.addEventListener("message", (ev) => receive(JSON.parse(ev.data)));
  ws.addEventListener("close", () => {
    if (closed) return;
    setStatus("reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function act(notation) {
  $("refusal").textContent = "";
  send({ type: "act", action: notation });
}

function setStatus(text) {
  $("status").textContent = text;
}

function receive(msg) {
  if (msg.type === "state") {
    last = msg.n;
    state = msg;
    receivedAt = Date.now();
    render();
    window.jacknineLast = msg.n;   // the number of the state on screen (tests wait for it)
  } else if (msg.type === "refused" || msg.type === "error") {
    $("refusal").textContent = msg.reason;
    if (msg.closed) {
      closed = true;
      setStatus(msg.reason);
    } else if (msg.type === "error" && !state) setStatus(msg.reason);
  } else if (msg.type === "resumed") {
    last = msg.n;
  } else if (msg.type === "links") {
    links = msg;
    if (state) renderHost();
  }
}

// --- names ---------------------------------------------------------------------------------------------
function seatInfo(seat) {
  return state.table.seats[seat] || { label: `seat ${seat}` };
}
function who(seat) {
  return seatInfo(seat).label;
}
function mySeat() {
  return state.you.seat;
}
function shortName(s) {
  return s.relation === "you" ? "You" : s.name || `Seat ${s.seat}`;
}

// --- where each seat sits, seen from this chair ----------------------------------------------------------
// An angle in degrees on screen (0 = right, 90 = bottom): you at the bottom, then the seats in playing order
// round the table: counter-clockwise play puts the next seat on your right, clockwise on your left.
function angleOf(seat) {
  const t = state.table;
  const me = mySeat() === null ? 0 : mySeat();
  const offset = (seat - me + t.players) % t.players;
  const step = 360 / t.players;
  return t.direction === "clockwise" ? 90 + offset * step : 90 - offset * step;
}
function place(node, seat, rx, ry) {
  const a = (angleOf(seat) * Math.PI) / 180;
  node.style.left = `${50 + rx * Math.cos(a)}%`;
  node.style.top = `${50 + ry * Math.sin(a)}%`;
}

// --- rendering -----------------------------------------------------------------------------------------
function render() {
  const t = state.table;
  $("title").textContent = `${t.game} · hand ${t.hand || "–"}`;
  document.title = `${t.game}: hand ${t.hand || "–"}`;
  const me = mySeat();
  if (!closed) {
    setStatus(me === null ? "watching" : t.status === "waiting" ? "waiting for the host to start" :
      t.status === "over" ? "the match is over" : t.status === "stopped" ? "the host stopped the match" : "");
  }
  const watching = me === null;
  $("typed-box").hidden = watching;           // spectators only watch
  $("chat-form").hidden = watching && !hostToken;
  $("dock").hidden = watching;
  renderScore();
  renderSeats();
  renderContract();
  renderTrick();
  renderDecision();
  renderHand();
  renderAnnouncements();
  renderAuction();
  renderChat();
  renderHost();
  renderFiles();
  renderSummary();
}

function teamName(team) {
  const me = mySeat();
  if (me !== null && team.includes(me)) return "Your team";
  if (me === null) return "Team " + team.map((s) => seatInfo(s).name || s).join("+");
  return state.table.teams.length > 2 ? "Team " + team.join("+") : "Opponents";
}

function renderScore() {
  const t = state.table;
  const box = $("score");
  box.replaceChildren();
  t.teams.forEach((team, i) => {
    const cell = el("span", null, "score-cell" + (mySeat() !== null && team.includes(mySeat()) ? " mine" : ""));
    cell.append(el("span", teamName(team), "score-team"), el("strong", String(t.scores[i]), "score-value"));
    cell.setAttribute("aria-label", `${teamName(team)}: ${t.scores[i]} points in the match`);
    box.append(cell);
  });
}

function lastCalls(v) {
  // each seat's latest word in this hand's auction (what a player says aloud), while the auction lasts
  const calls = {};
  if (!v || v.phase === "play") return calls;
  for (const h of v.history) {
    const [s, ...rest] = h.split(" ");
    if (rest[0] === "play") continue;
    calls[Number(s)] = rest.join(" ") === "trump" ? "trump chosen" : actionShort(rest.join(" "));
  }
  return calls;
}

function renderSeats() {
  const box = $("seats");
  box.replaceChildren();
  const list = el("ul", null, "seat-ring");
  const v = state.hand && state.hand.view;
  const calls = lastCalls(v);
  const playing = state.table.status === "playing";
  const compact = $("felt").clientWidth < 500 && state.table.players > 4;   // six round a phone's table
  for (const s of state.table.seats) {
    const li = el("li", null, "seat-plate" + (compact ? " compact" : ""));
    place(li, s.seat, $("felt").clientWidth < 500 ? 35 : 38, 39);
    const toAct = v && v.to_act === s.seat && v.status === "in_progress";
    if (toAct) li.classList.add("to-act");
    if (s.relation === "you") li.classList.add("me");
    li.append(el("span", shortName(s), "seat-label"));
    if (s.relation && s.relation !== "you") li.append(el("span", s.relation, "seat-rel"));
    const counting = playing && s.kind === "person" && !s.connected && !s.away && s.grace_left !== null;
    const bits = [];
    if (s.kind === "bot") bits.push(`bot ${s.bot}`);
    else if (s.away) bits.push("away: a bot plays");
    else if (!s.connected && !counting) bits.push("not here");
    if (v && v.dealer === s.seat) bits.push("dealer");
    const note = el("span", bits.join(" · "), "seat-note");
    if (counting) {   // how long before a bot plays for a person who has gone ("bot in 0:40")
      const c = el("span", "", "countdown");
      c.dataset.deadline = String(receivedAt + s.grace_left * 1000);
      note.append(bits.length ? " · " : "", c);
    }
    if (bits.length || counting) li.append(note);
    if (v && s.relation !== "you" && !compact) {
      const backs = el("span", null, "backs");
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(v.hand_sizes[s.seat], 8); i++) backs.append(cardBack());
      li.append(backs);
    }
    if (v) li.append(el("span", `${v.hand_sizes[s.seat]} cards`, "visually-hidden"));
    if (calls[s.seat] !== undefined) li.append(el("span", calls[s.seat], "bubble"));
    if (toAct) li.append(el("span", s.relation === "you" ? "your turn" : "to play", "turn"));
    list.append(li);
  }
  box.append(list);
  tick();
  keepInside(list);
}

// a plate near the edge of a small table is moved in so that none of it is cut off
function keepInside(list) {
  const felt = $("felt").getBoundingClientRect();
  for (const li of list.children) {
    const r = li.getBoundingClientRect();
    let dy = 0;
    let dx = 0;
    if (r.top < felt.top + 4) dy = felt.top + 4 - r.top;
    else if (r.bottom > felt.bottom - 4) dy = felt.bottom - 4 - r.bottom;
    if (r.left < felt.left + 4) dx = felt.left + 4 - r.left;
    else if (r.right > felt.right - 4) dx = felt.right - 4 - r.right;
    if (dx || dy) {
      li.style.left = `calc(${li.style.left} + ${dx}px)`;
      li.style.top = `calc(${li.style.top} + ${dy}px)`;
    }
  }
}

// the countdown of a person who has gone: how long before a bot plays for them
function tick() {
  for (const c of document.querySelectorAll(".countdown")) {
    const left = Math.max(0, Math.round((Number(c.dataset.deadline) - Date.now()) / 1000));
    c.textContent = left > 0 ? `bot in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` :
      "a bot plays their turn";
    c.setAttribute("aria-label", left > 0 ? `a bot plays for them in ${left} seconds` : "a bot plays their turn");
  }
}
setInterval(tick, 1000);

function renderContract() {
  const box = $("contract");
  box.replaceChildren();
  const v = state.hand && state.hand.view;
  const t = state.table;
  if (!v) {
    const why = t.status === "waiting" ? "The host has not started the match yet." :
      t.status === "playing" ? "The hand is over: the next one is dealt when everyone has read the summary." :
        t.status === "over" ? "The match is over." : "The host stopped the match.";
    box.append(el("p", why, "muted"));
    return;
  }
  let contract = "no contract yet";
  if (v.bidder !== null) {
    contract = v.special ? `${v.special} by ${who(v.bidder)}` :
      t.auction === false ? `${who(v.bidder)} chose the trump` :   // take or pass, no bids
        `${who(v.bidder)} bid ${v.bid} (target ${v.target})`;
    if (v.multiplier !== 1) contract += `, ×${v.multiplier}`;
  }
  let trump;
  if (v.trump_concealed) trump = v.trump ? `concealed (only you know it: ${suitWords(v.trump)})` : "concealed";
  else if (v.trump === null) trump = v.bidder === null ? "none yet" : "not chosen yet";
  else if (v.trump_mode) trump = v.trump_mode;   // a trump mode the rule file names (trump.modes)
  else trump = suitWords(v.trump) + (v.exposed_in_trick && !t.open_trump ? ` (exposed in trick ${v.exposed_in_trick})` : "");
  const c = el("p", null, "contract-line");
  c.append(el("span", "Contract ", "key"), el("span", contract));
  const tr = el("p", null, "contract-line");
  tr.append(el("span", "Trump ", "key"), el("span", trump, v.trump && SUITS[v.trump] ? SUITS[v.trump].colour : ""));
  box.append(c, tr);
  const won = v.teams.map(() => 0);
  for (const x of v.tricks) v.teams.forEach((team, i) => { if (team.includes(x.winner)) won[i]++; });
  if (v.phase === "play" || v.tricks.length) {
    const me = mySeat();
    const side = (team) => (me === null || v.teams.length > 2 ? teamName(team) : team.includes(me) ? "us" : "them");
    const parts = v.teams.map((team, i) => `${side(team)} ${v.card_points[i]} (${won[i]} ${won[i] === 1 ? "trick" : "tricks"})`);
    box.append(el("p", "Points: " + parts.join(" · "), "contract-line muted"));
  }
  if (v.indicator) box.append(el("p", `Your face-down trump card: ${cardShort(v.indicator)}`, "contract-line"));
  if (v.turned) box.append(el("p", `Face up on the table: ${cardShort(v.turned)}`, "contract-line"));
  if (v.stock_bottom) box.append(el("p", `The stock's bottom card: ${cardShort(v.stock_bottom)}`, "contract-line muted"));
}

function trickCards(cards, winning, taken) {
  const ol = el("ol", null, "trick-cards" + (taken ? " taken" : ""));
  for (const [seat, code] of cards) {
    const li = el("li", null, "played" + (seat === winning ? " winning" : ""));
    place(li, seat, 15, 17);
    const face = cardFace(code);
    face.setAttribute("aria-label", `${who(seat)}: ${cardName(code)}` + (seat === winning ? (taken ? ", took the trick" : ", winning") : ""));
    li.append(face);
    ol.append(li);
  }
  return ol;
}

function renderTrick() {
  const box = $("trick");
  box.replaceChildren();
  const h = state.hand;
  const t = state.table;
  if (!h) {
    if (t.status === "waiting") {
      const p = el("div", null, "centre-note");
      p.append(el("p", "Waiting for the host to start the match."));
      if (hostToken) {
        p.append(button("Start the match", () => send({ type: "host", do: "start" }), "primary"));
        p.append(button("Invite players", () => openSide("host"), "action"));
      }
      box.append(p);
    }
    return;
  }
  const v = h.view;
  if (v.phase !== "play" && !v.tricks.length) {
    const phaseWords = {auction: "The auction", take_or_pass: "Take or pass", choose_trump: "The trump choice",
                        exchange: "The exchange"};
    const note = el("div", null, "centre-note");
    note.append(el("p", phaseWords[v.phase] || v.phase, "phase"));
    if (v.turned) {      // the card turned up for trump lies face up in the middle, where everyone sees it
      const face = cardFace(v.turned);
      face.setAttribute("aria-label", `Turned up: ${cardName(v.turned)}`);
      const lying = el("div", null, "turned-card");
      lying.append(face);
      note.append(lying);
    }
    box.append(note);
    return;
  }
  const lastTrick = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const current = v.trick.cards.length;
  let caption;
  if (showLast && lastTrick) {
    box.append(trickCards(lastTrick.cards, lastTrick.winner, true));
    caption = `Last trick (${v.tricks.length}): won by ${who(lastTrick.winner)}, ${lastTrick.points} points`;
  } else if (current) {
    box.append(trickCards(v.trick.cards, h.winning, false));
    caption = `Trick ${v.tricks.length + 1}`;
  } else if (lastTrick) {   // the trick just taken stays on the table until the next card is led
    box.append(trickCards(lastTrick.cards, lastTrick.winner, true));
    caption = `Trick ${v.tricks.length} taken by ${who(lastTrick.winner)} (${lastTrick.points} points); ` +
      `${who(v.trick.leader)} to lead`;
  } else {
    caption = `Trick 1: ${who(v.trick.leader)} to lead`;
  }
  box.append(el("p", caption, "trick-caption"));
  if (lastTrick && (current || showLast)) {
    const b = button(showLast ? "Back to the trick" : "Last trick", () => { showLast = !showLast; renderTrick(); },
      "small last-trick-button");
    b.setAttribute("aria-pressed", String(showLast));
    box.append(b);
  }
}

function renderDecision() {
  const box = $("decision");
  box.replaceChildren();
  const d = state.hand && state.hand.decision;
  if (!d) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.append(el("h2", d.heading[0].toUpperCase() + d.heading.slice(1), "heading"));
  if (d.cards.length && d.card_verb === "trump") box.append(el("p", "Tap a card of your hand.", "muted"));
  if (d.cards.length && d.card_verb === "play" && !d.pickers.length && !d.others.length) {
    box.classList.add("cards-only");
  } else box.classList.remove("cards-only");
  for (const p of d.pickers) box.append(picker(p, d));
  const row = el("div", null, "actions");
  for (const notation of d.others) {
    row.append(button(actionShort(notation), () => act(notation), "action", actionWords(notation)));
  }
  if (row.childNodes.length) box.append(row);
}

// The number picker: minus, the value, plus; then a suit row where bids name a suit.
function picker(p, d) {
  const key = state.table.hand + ":" + JSON.stringify(p.values);
  if (picked.key !== key || !p.values.includes(picked.value)) picked = { key, value: p.values[0] };
  const wrap = el("div", null, "picker");
  const idx = () => p.values.indexOf(picked.value);
  const shown = el("output", String(picked.value), "picker-value");
  shown.setAttribute("aria-live", "polite");
  shown.setAttribute("aria-label", `${p.verb} value`);
  const step = (k) => {
    const i = Math.min(p.values.length - 1, Math.max(0, idx() + k));
    picked.value = p.values[i];
    shown.textContent = String(picked.value);
    suitRow && refreshSuits();
  };
  const row = el("div", null, "picker-row");
  row.append(el("span", p.verb === "raise" ? "Raise to" : "Amount", "picker-label"),
    button("−", () => step(-1), "step", `lower ${p.verb}`), shown,
    button("+", () => step(1), "step", `higher ${p.verb}`), button("+5", () => step(5), "step", `${p.verb} 5 higher`));
  wrap.append(row);
  let suitRow = null;
  const refreshSuits = () => {
    suitRow.replaceChildren(el("span", "suit:", "picker-label"));
    for (const s of p.suits[String(picked.value)] || []) {
      const label = s === "NT" ? "NT" : SUITS[s] ? SUITS[s].symbol : s;
      const b = button(label, () => act(`${p.verb} ${picked.value} ${s}`), "suit " + (SUITS[s] ? SUITS[s].colour : ""),
        `${p.verb} ${picked.value} ${s === "NT" ? "no trumps" : SUITS[s] ? SUITS[s].name : s}`);
      suitRow.append(b);
    }
  };
  if (Object.keys(p.suits).length) {
    suitRow = el("div", null, "suit-row");
    wrap.append(suitRow);
    refreshSuits();
  } else {
    row.append(button(p.verb === "raise" ? "Raise" : "Bid", () => act(`${p.verb} ${picked.value}`), "primary",
      undefined));
  }
  return wrap;
}

function renderHand() {
  const box = $("hand");
  box.replaceChildren();
  const h = state.hand;
  if (!h || mySeat() === null) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const v = h.view;
  const d = h.decision;
  box.append(el("h2", "Your hand", "visually-hidden"));
  const choosingCard = Boolean(d && d.cards.length);
  const playable = new Set(choosingCard ? d.cards : []);
  const verb = d ? d.card_verb : "";
  const refuse = (text) => { $("refusal").textContent = text; };
  const cardButton = (code, note) => {
    const b = cardFace(code, "button");
    b.type = "button";
    const isNew = h.new.includes(code);
    const legal = playable.has(code);
    let label = cardName(code) + note + (isNew ? ", just dealt" : "");
    if (legal) {
      b.classList.add("legal");
      label += verb === "trump" ? ", lay as trump" : ", playable";
      b.addEventListener("click", () => act(`${verb} ${code}`));
    } else if (choosingCard) {
      b.setAttribute("aria-disabled", "true");
      const why = h.reasons[code];
      if (why) label += `, not playable: ${why}`;
      b.addEventListener("click", () => refuse(why ? `${cardShort(code)}: ${why}` : "not now"));
    } else {
      b.classList.add("idle");   // no card is chosen now: shown plainly, not as refused
      b.addEventListener("click", () => refuse(d ? "choose first: " + d.heading : "not your turn"));
    }
    if (isNew) b.classList.add("new");
    b.setAttribute("aria-label", label);
    return b;
  };
  const row = el("div", null, "cards fan");
  let lastSuit = null;
  for (const code of v.hand) {   // the server sends the hand by suit, strongest first
    const b = cardButton(code, "");
    if (lastSuit !== null && code.slice(-1) !== lastSuit) b.classList.add("suit-start");
    lastSuit = code.slice(-1);
    row.append(b);
  }
  // the card laid face down as trump is still the seat's: when the rules let it be played (the last card left,
  // say) it must be tappable here
  if (v.indicator) {
    const b = cardButton(v.indicator, ", your face-down trump card");
    b.classList.add("indicator", "suit-start");
    row.append(b);
  }
  box.append(row);
  // hands lying face up (a dummy, an exposed partner, a hand shown); a dummy's cards are played by its declarer
  for (const e of v.exposed || []) {
    const dummy = (v.dummies || []).includes(e.seat);
    const g = el("div", null, "exposed");
    g.append(el("span", `Face up: ${who(e.seat)}${dummy ? " (dummy)" : ""}`, "suit-name"));
    const r = el("div", null, "cards fan small");
    for (const code of e.cards) {
      const b = cardFace(code, "button");
      b.type = "button";
      if (playable.has(code) && v.controller === mySeat()) {
        b.classList.add("legal");
        b.setAttribute("aria-label", cardName(code) + ", playable from your dummy");
        b.addEventListener("click", () => act(`${verb} ${code}`));
      } else {
        b.classList.add("idle");
        b.setAttribute("aria-label", cardName(code) + `, face up in ${who(e.seat)}'s hand`);
      }
      r.append(b);
    }
    g.append(r);
    box.append(g);
  }
  fitHand();
}

// The hand in one row when it fits, the cards overlapping as little as they can; two rows when not.
function fitHand() {
  for (const row of document.querySelectorAll("#hand .fan")) {
    const cards = [...row.children];
    if (!cards.length) continue;
    const width = row.clientWidth;
    const w = cards[0].getBoundingClientRect().width || 60;
    const gap = 6;
    const need = cards.length * (w + gap);
    let step = w + gap;
    if (need > width) step = Math.max(44, (width - w) / Math.max(1, cards.length - 1));
    row.classList.toggle("wrap", step <= 44 && cards.length * 44 + w > width);
    cards.forEach((c, i) => { c.style.marginLeft = i === 0 || row.classList.contains("wrap") ? "" : `${step - w}px`; });
  }
}
window.addEventListener("resize", fitHand);

function renderAnnouncements() {
  const list = $("announcements");
  list.replaceChildren();
  const h = state.hand;
  const events = h ? h.events : state.summary ? state.summary.events : [];
  const melds = h ? h.melds || [] : state.summary ? state.summary.melds || [] : [];
  const hand = state.table.hand;
  const readOut = (key, text) => {
    if (announced.has(key)) return false;
    announced.add(key);
    $("live").append(el("p", text));
    while ($("live").childNodes.length > 5) $("live").firstChild.remove();
    return true;
  };
  for (const e of events) {
    // an announced meld is listed once, in the meld lines below (its cards and whether it scores once shown)
    if (!(melds.length && e.verb === "announce")) list.append(el("li", e.text));
    if (readOut(`${hand}:${e.i}`, e.text)) tickerText = e.text;
  }
  for (const line of melds) {
    list.append(el("li", line, "melds"));
    // the trump marriage, announced when its second card is played, is said aloud like an action
    const marriage = !line.includes(" announced ") && !line.includes(" melds ");
    if (marriage && readOut(`${hand}:m:${line}`, line)) tickerText = line;
  }
  if (!events.length && !melds.length) tickerText = "";
  $("announce-box").hidden = !events.length && !melds.length;     // no "nothing announced" noise
  $("ticker").textContent = tickerText;     // the latest thing said, until something newer is
}

function renderAuction() {
  const list = $("auction");
  list.replaceChildren();
  const v = state.hand && state.hand.view;
  if (!v) return;
  for (const entry of v.history) {
    const [seat, ...rest] = entry.split(" ");
    const notation = rest.join(" ");
    if (rest[0] === "play") continue;
    const text = notation === "trump" ? "chose the trump face down" : actionShort(notation);
    const li = el("li", `${who(Number(seat))}: ${text}`);
    li.setAttribute("aria-label", `${who(Number(seat))}: ${notation === "trump" ? text : actionWords(notation)}`);
    list.append(li);
  }
  if (!list.childNodes.length) list.append(el("li", "Nobody has spoken yet.", "muted"));
}

function renderChat() {
  const list = $("chat");
  list.replaceChildren();
  for (const c of state.chat) {
    const li = el("li");
    li.append(el("strong", c.name + ": "), el("span", c.text));
    list.append(li);
  }
}

// --- the host: controls and invitations ------------------------------------------------------------------
function linkOf(kind, tok) {
  return `${location.origin}/t/${tableId}#${kind}=${tok}`;
}

async function drawQr(url, box) {
  let rows = qrCache.get(url);
  if (!rows) {
    const r = await fetch("/api/qr", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ text: url }) });
    if (!r.ok) { box.textContent = "no QR code"; return; }
    rows = (await r.json()).rows;
    qrCache.set(url, rows);
  }
  const n = rows.length;
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("viewBox", `-4 -4 ${n + 8} ${n + 8}`);
  s.setAttribute("class", "qr");
  s.setAttribute("role", "img");
  s.setAttribute("aria-label", "QR code of the link");
  const bg = document.createElementNS(ns, "rect");
  for (const [k, v] of [["x", -4], ["y", -4], ["width", n + 8], ["height", n + 8], ["fill", "#fff"]]) bg.setAttribute(k, v);
  const path = document.createElementNS(ns, "path");
  let d = "";
  rows.forEach((row, y) => { for (let x = 0; x < row.length; x++) if (row[x] === "1") d += `M${x} ${y}h1v1h-1z`; });
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  s.append(bg, path);
  box.replaceChildren(s);
}

function invitation(label, url) {
  const li = el("li", null, "invite");
  const a = el("a", label);
  a.href = url;
  a.target = "_blank";
  a.rel = "noopener";
  const copy = button("Copy", async () => {
    try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch { copy.textContent = "Select and copy the link"; }
  }, "small", `Copy the link: ${label}`);
  const qrBox = el("div", null, "qr-box");
  const qr = button("QR", () => {
    const open = qrBox.childNodes.length === 0;
    qr.setAttribute("aria-expanded", String(open));
    if (open) drawQr(url, qrBox); else qrBox.replaceChildren();
  }, "small", `Show a QR code of the link: ${label}`);
  qr.setAttribute("aria-expanded", "false");
  const row = el("div", null, "invite-row");
  row.append(a, copy, qr);
  li.append(row, qrBox);
  return li;
}

function renderHost() {
  const box = $("host");
  if (!hostToken) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(el("h2", "Host"));
  const t = state.table;
  // before the match the invitations come first; during it, the auction and the announcements
  const anchor = t.status === "waiting" ? $("announce-box") : $("typed-box");
  if (box.nextElementSibling !== anchor) anchor.before(box);
  const row = el("div", null, "actions");
  if (t.status === "playing" || t.status === "waiting") {
    row.append(button("Stop the match (reveal the seed)", () => {
      if (confirm("Stop the match for everyone? The seed is revealed and the save can be downloaded.")) {
        send({ type: "host", do: "stop" });
      }
    }, "action"));
  }
  row.append(button(t.spectators ? "Close to spectators" : "Allow spectators",
    () => send({ type: "host", do: "spectators", allow: !t.spectators }), "action"));
  box.append(row);
  box.append(el("h3", "Invitations: one link per seat"));
  box.append(el("p", "Each link is that seat's key: send it only to the person who sits there.", "muted"));
  const list = el("ul", null, "host-seats");
  for (const s of t.seats) {
    const tok = links && links.seats[s.seat];
    const label = s.relation === "you" ? `Seat ${s.seat} (you)` : `Seat ${s.seat}${s.name ? " · " + s.name : ""}`;
    const li = el("li", null, "host-seat");
    if (s.kind === "person" && tok) {
      const inv = invitation(label + (s.connected ? " · here" : ""), linkOf("seat", tok));
      li.append(inv);
      if (s.relation !== "you") {
        li.append(button("Replace by a bot", () => send({ type: "host", do: "seat", seat: s.seat, bot: "heuristic" }),
          "small", `Seat ${s.seat}: replace by a bot (the link stops working)`));
      }
    } else {
      li.append(el("span", `${label}: bot ${s.bot}`, "muted"));
      li.append(button("Seat a person here", () => send({ type: "host", do: "seat", seat: s.seat }), "small",
        `Seat ${s.seat}: seat a person here (a new link)`));
    }
    list.append(li);
  }
  if (links && t.spectators) list.append(invitation("Spectators", linkOf("watch", links.watch)));
  box.append(list);
}

async function download(name) {
  const r = await fetch(`/api/tables/${tableId}/${name}`, { headers: { "x-jacknine-token": token } });
  const text = await r.text();
  if (!r.ok) { $("refusal").textContent = text; return; }
  const a = el("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  a.click();
}

function renderFiles() {
  const box = $("files");
  box.replaceChildren(el("h2", "Files and fairness"));
  const t = state.table;
  box.append(el("p", `Shuffle commitment: SHA-256 of the match seed is ${t.commitment}`, "mono"));
  if (t.seed !== null) {
    box.append(el("p", `The match seed: ${t.seed}. Check: printf %s SEED | sha256sum gives the commitment.`, "mono"));
    const ol = el("ol", null, "deals");
    for (const d of t.deals) ol.append(el("li", `hand ${d.hand}: jacknine deal -r ${t.ruleset} --seed ${d.seed} --dealer ${d.dealer}`, "mono"));
    box.append(ol);
  }
  const row = el("div", null, "actions");
  row.append(button("Hand records", () => download("hands.jsonl"), "small"));
  if (t.seed !== null) row.append(button("Match save", () => download("save.yaml"), "small"));
  if (t.ruleset.endsWith(".yaml")) {
    row.append(button(`Rule file ${t.ruleset}`, () => download(t.ruleset), "small"));
  }
  box.append(row);
}

// --- the hand's end: what happened and why the score moved -------------------------------------------------
function explain(s) {
  const t = state.table;
  const lines = [];
  if (s.status === "annulled") return [`Annulled: ${s.annulled_because}; the same dealer deals again.`];
  if (s.bidder !== null) {
    const side = s.teams.findIndex((team) => team.includes(s.bidder));
    const took = side >= 0 ? s.card_points[side] : null;
    const what = s.special ? `${who(s.bidder)} played ${s.special}` :
      t.auction === false ? `${who(s.bidder)} chose the trump` : `${who(s.bidder)} bid ${s.bid}`;
    let line = `${what}`;
    // a banked hand (s.why says how it came out) is not a target of card points
    if (!s.special && !s.why && s.target !== null && took !== null) {
      line += `: needed ${s.target} card points, took ${took}`;
    }
    line += s.made ? " — made." : " — failed.";
    lines.push(line[0].toUpperCase() + line.slice(1));
    if (s.why) lines.push(s.why[0].toUpperCase() + s.why.slice(1) + ".");
    else if (s.multiplier !== 1) lines.push(`Doubled: every point of the score counts ×${s.multiplier}.`);
  } else {
    lines.push("Nobody bid.");
  }
  const moved = t.teams.map((team, i) => [teamName(team), s.score_change[i], t.scores[i]]).filter(([, d]) => d !== 0);
  if (moved.length) {
    lines.push("So: " + moved.map(([n, d, now]) => `${n} ${d > 0 ? "+" : ""}${d} (now ${now})`).join(", ") + ".");
  } else lines.push("Nobody scores this hand.");
  return lines;
}

function renderSummary() {
  const dlg = $("summary");
  const s = state.summary;
  if (!s) {
    if (dlg.open) dlg.close();
    return;
  }
  dlg.replaceChildren();
  const t = state.table;
  const title = el("h2", `Hand ${s.number} is over`);
  title.id = "summary-title";
  dlg.append(title);
  const why = el("div", null, "explain");
  explain(s).forEach((line, i) => why.append(el("p", line, i === 0 ? "outcome" : "")));
  dlg.append(why);
  if (s.status !== "annulled") {
    dlg.append(el("p", "Trump: " + (s.trump ? suitWords(s.trump) : "none")));
    dlg.append(el("p", "Card points: " + s.teams.map((team, i) => `${teamName(team)} ${s.card_points[i]}`).join(" · ")));
  }
  dlg.append(el("p", "Score change: " + t.teams.map((team, i) => `${teamName(team)} ${s.score_change[i] > 0 ? "+" : ""}${s.score_change[i]}`).join(" · ")));
  for (const e of s.events) {   // an announced meld is said once, by the meld lines (with its cards)
    if (!(s.melds && s.melds.length && e.verb === "announce")) dlg.append(el("p", e.text, "muted"));
  }
  for (const line of s.melds || []) dlg.append(el("p", line, "muted"));
  const hands = el("div", null, "summary-hands");
  for (const [seat, cards] of Object.entries(s.hands)) {
    const row = el("div", null, "summary-hand");
    row.append(el("span", who(Number(seat)), "played-by"));
    const cs = el("span", null, "cards small");
    for (const c of cards) cs.append(cardFace(c));
    row.append(cs);
    hands.append(row);
  }
  const dh = el("details");
  dh.append(el("summary", "Every hand, as dealt"), hands);
  dlg.append(dh);
  const tricks = el("details");
  tricks.append(el("summary", `The ${s.tricks.length} tricks`));
  s.tricks.forEach((tr, i) => {
    const p = el("div", null, "summary-trick");
    p.append(el("span", `${i + 1}: won by ${who(tr.winner)}`, "played-by"));
    const cs = el("span", null, "cards small");
    for (const [, c] of tr.cards) cs.append(cardFace(c));
    p.append(cs);
    tricks.append(p);
  });
  dlg.append(tricks);
  const me = mySeat();
  if (t.status === "playing") {
    const waiting = s.ready.includes(me);
    dlg.append(button(waiting ? "Waiting for the others…" : "Next hand", () => send({ type: "next" }), "primary"));
  } else if (t.status === "over") {
    const won = t.winners.map((i) => teamName(t.teams[i])).join(" and ");
    dlg.append(el("p", `The match is over: ${won} won.`, "outcome"));
    dlg.append(button("Close", () => dlg.close(), "action"));
  } else {
    dlg.append(button("Close", () => dlg.close(), "action"));
  }
  if (!dlg.open) dlg.showModal();
}

// --- the side panel (a drawer on a phone) ----------------------------------------------------------------
function openSide(section) {
  document.body.classList.add("side-open");
  $("more").setAttribute("aria-expanded", "true");
  if (section) $(section).scrollIntoView({ block: "start" });
}
function closeSide() {
  document.body.classList.remove("side-open");
  $("more").setAttribute("aria-expanded", "false");
}
$("more").addEventListener("click", () => (document.body.classList.contains("side-open") ? closeSide() : openSide()));
$("close-side").addEventListener("click", closeSide);

// --- typed input and chat ------------------------------------------------------------------------------
$("typed").addEventListener("submit", (ev) => {
  ev.preventDefault();
  let text = $("typed-input").value.trim();
  if (!text) return;
  if (isCard(text.toUpperCase().replace("10", "T")) || /^[0-9JQKAT]{1,2}[SHDC\u2660\u2665\u2666\u2663]$/i.test(text)) text = "play " + text;
  act(text);
  $("typed-input").value = "";
});

$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("chat-input").value.trim();
  if (text) send({ type: "chat", text });
  $("chat-input").value = "";
});

if (!token) setStatus("this link has no seat key: ask the host for your link");
else connect();
