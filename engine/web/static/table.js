// The table page: one WebSocket to the server, which sends this seat's state after every change. The page only
// shows what it is sent and sends actions in notation; the seat is the link's (the token), never the page's say.

import { SUITS, actionShort, actionWords, cardFace, cardName, cardShort, isCard, suitWords } from "./cards.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();
const token = params.get("seat") || params.get("watch") || params.get("host") || "";
const hostToken = params.get("host");
history.replaceState(null, "", location.pathname + location.hash);

let ws = null;
let last = null;          // number of the last state received
let state = null;
let retry = 500;
let announced = new Set(); // announcements already read out (hand number, index)
let picked = { value: null, key: "" };   // the bid value chosen in the number picker

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
    render();
    window.jacknineLast = msg.n;   // the number of the state on screen (tests wait for it)
  } else if (msg.type === "refused" || msg.type === "error") {
    $("refusal").textContent = msg.reason;
    if (msg.type === "error" && !state) setStatus(msg.reason);
  } else if (msg.type === "resumed") {
    last = msg.n;
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

// --- rendering -----------------------------------------------------------------------------------------
function render() {
  const t = state.table;
  $("title").textContent = `${t.game} · hand ${t.hand || "–"}`;
  document.title = `${t.game}: hand ${t.hand || "–"}`;
  const me = mySeat();
  setStatus(me === null ? "watching" : `you are seat ${me}` + (t.status === "waiting" ? " · waiting for the host to start" : ""));
  const watching = me === null;
  $("typed").closest("section").hidden = watching;           // spectators only watch
  $("chat-form").hidden = watching && !hostToken;
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
  return "Opponents";
}

function renderScore() {
  const t = state.table;
  const box = $("score");
  box.replaceChildren();
  const row = el("div", null, "score-row");
  t.teams.forEach((team, i) => {
    const cell = el("div", null, "score-cell");
    cell.append(el("span", teamName(team), "score-team"), el("strong", String(t.scores[i]), "score-value"));
    cell.setAttribute("aria-label", `${teamName(team)}: ${t.scores[i]} points in the match`);
    row.append(cell);
  });
  box.append(row);
  if (state.hand) {
    const v = state.hand.view;
    const won = v.teams.map(() => 0);
    for (const tr of v.tricks) v.teams.forEach((team, i) => { if (team.includes(tr.winner)) won[i]++; });
    const parts = v.teams.map((team, i) => `${teamName(team)}: ${won[i]} tricks, ${v.card_points[i]} points`);
    box.append(el("p", "This hand: " + parts.join(" · "), "muted"));
  }
}

function renderSeats() {
  const box = $("seats");
  box.replaceChildren();
  const list = el("ul", null, "seat-row");
  const v = state.hand && state.hand.view;
  for (const s of state.table.seats) {
    const li = el("li", null, "seat-chip");
    if (v && v.to_act === s.seat && !v.status.startsWith("c")) li.classList.add("to-act");
    if (s.relation === "you") li.classList.add("me");
    const name = el("span", s.label, "seat-label");
    li.append(name);
    const bits = [];
    if (s.kind === "bot") bits.push(`bot: ${s.bot}`);
    else if (s.away) bits.push("away (a bot plays)");
    else bits.push(s.connected ? "here" : "not here");
    if (v) bits.push(`${v.hand_sizes[s.seat]} cards`);
    if (v && v.dealer === s.seat) bits.push("dealer");
    if (v && v.to_act === s.seat && v.status === "in_progress") bits.push("to play");
    li.append(el("span", bits.join(" · "), "muted"));
    list.append(li);
  }
  box.append(list);
  for (const n of state.notices.slice(-2)) box.append(el("p", n, "notice"));
}

function renderContract() {
  const box = $("contract");
  box.replaceChildren();
  const v = state.hand && state.hand.view;
  if (!v) {
    const t = state.table;
    const why = t.status === "waiting" ? "The host has not started the match yet." :
      t.status === "playing" ? "The hand is over: the next one is dealt when everyone has read the summary." :
        t.status === "over" ? "The match is over." : "The host stopped the match.";
    box.append(el("p", why, "muted"));
    return;
  }
  let contract = "No contract yet";
  if (v.bidder !== null) {
    contract = v.special ? `${v.special} by ${who(v.bidder)}` : `${who(v.bidder)} bid ${v.bid} (target ${v.target})`;
    if (v.multiplier !== 1) contract += `, ×${v.multiplier}`;
  }
  let trump;
  if (v.trump_concealed) trump = v.trump ? `concealed (only you know it: ${suitWords(v.trump)})` : "concealed";
  else if (v.trump === null) trump = v.bidder === null ? "none yet" : "not chosen yet";
  else trump = suitWords(v.trump) + (v.exposed_in_trick ? ` (exposed in trick ${v.exposed_in_trick})` : "");
  box.append(el("p", "Contract: " + contract), el("p", "Trump: " + trump));
  const spoken = v.history.filter((h) => h.split(" ")[1] !== "play").slice(-v.players);
  if (v.phase === "auction" && spoken.length) {
    const words = spoken.map((h) => { const [s, ...r] = h.split(" "); return `${who(Number(s))}: ${actionShort(r.join(" "))}`; });
    box.append(el("p", "Latest: " + words.join(" · "), "muted"));
  }
  if (v.indicator) {
    const p = el("p", "Your face-down trump card: ");
    p.append(cardFace(v.indicator));
    box.append(p);
  }
}

function trickList(cards, winning) {
  const ol = el("ol", null, "trick-cards");
  for (const [seat, code] of cards) {
    const li = el("li", null, "played" + (seat === winning ? " winning" : ""));
    li.append(el("span", who(seat), "played-by"), cardFace(code));
    if (seat === winning) li.append(el("span", "winning", "badge"));
    ol.append(li);
  }
  return ol;
}

function renderTrick() {
  const box = $("trick");
  box.replaceChildren();
  const h = state.hand;
  if (!h || (h.view.phase !== "play" && !h.view.tricks.length)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const v = h.view;
  const number = v.tricks.length + 1;
  box.append(el("h2", `Trick ${number}`));
  if (v.trick.cards.length) {
    box.append(trickList(v.trick.cards, h.winning));
  } else if (v.trick.leader >= 0) {
    box.append(el("p", `${who(v.trick.leader)} to lead`, "muted"));
  }
  if (v.tricks.length) {
    const lastTrick = v.tricks[v.tricks.length - 1];
    const d = el("details", null, "last-trick");
    d.append(el("summary", `Last trick: won by ${who(lastTrick.winner)} (${lastTrick.points} points)`));
    d.append(trickList(lastTrick.cards, lastTrick.winner));
    box.append(d);
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
  if (d.cards.length && d.card_verb === "trump") box.append(el("p", "Tap a card of your hand below.", "muted"));
  if (d.cards.length && d.card_verb === "play") box.append(el("p", "Tap a highlighted card below.", "muted"));
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
  row.append(button("−", () => step(-1), "step", `lower ${p.verb}`), shown,
    button("+", () => step(1), "step", `higher ${p.verb}`), button("+5", () => step(5), "step", `${p.verb} 5 higher`));
  wrap.append(el("span", p.verb === "raise" ? "Raise to" : "Amount", "picker-label"), row);
  let suitRow = null;
  const refreshSuits = () => {
    suitRow.replaceChildren();
    for (const s of p.suits[String(picked.value)] || []) {
      const label = s === "NT" ? "NT" : SUITS[s] ? SUITS[s].symbol : s;
      const b = button(label, () => act(`${p.verb} ${picked.value} ${s}`), "suit " + (SUITS[s] ? SUITS[s].colour : ""),
        `${p.verb} ${picked.value} ${s === "NT" ? "no trumps" : SUITS[s] ? SUITS[s].name : s}`);
      suitRow.append(b);
    }
  };
  if (Object.keys(p.suits).length) {
    suitRow = el("div", null, "suit-row");
    wrap.append(el("span", "then the suit:", "picker-label"), suitRow);
    refreshSuits();
  } else {
    wrap.append(button(p.verb === "raise" ? "Raise" : "Bid", () => act(`${p.verb} ${picked.value}`), "primary",
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
  box.append(el("h2", "Your hand"));
  const choosingCard = Boolean(d && d.cards.length);
  const playable = new Set(choosingCard ? d.cards : []);
  const verb = d ? d.card_verb : "";
  const groups = {};
  for (const code of v.hand) (groups[code.slice(-1)] ||= []).push(code);
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
      b.addEventListener("click", () => { $("refusal").textContent = why ? `${cardShort(code)}: ${why}` : "not now"; });
    } else {
      b.classList.add("idle");   // no card is chosen now: shown plainly, not as refused
      b.addEventListener("click", () => { $("refusal").textContent = d ? "choose above: " + d.heading : "not your turn"; });
    }
    if (isNew) b.classList.add("new");
    b.setAttribute("aria-label", label);
    return b;
  };
  for (const [suit, codes] of Object.entries(groups)) {
    const g = el("div", null, "suit-group");
    const info = SUITS[suit];
    g.append(el("span", info ? `${info.symbol} ${info.name}` : suit, "suit-name " + (info ? info.colour : "")));
    const row = el("div", null, "cards");
    for (const code of codes) row.append(cardButton(code, ""));
    g.append(row);
    box.append(g);
  }
  // the card laid face down as trump is still the seat's: when the rules let it be played (the last card left,
  // say) it must be tappable here, not only named in the contract panel
  if (v.indicator) {
    const g = el("div", null, "suit-group");
    g.append(el("span", "Face down: your trump card", "suit-name"));
    const row = el("div", null, "cards");
    row.append(cardButton(v.indicator, ", your face-down trump card"));
    g.append(row);
    box.append(g);
  }
  // hands lying face up (a dummy, an exposed partner, a hand shown); a dummy's cards are played by its declarer
  for (const e of v.exposed || []) {
    const dummy = (v.dummies || []).includes(e.seat);
    const g = el("div", null, "suit-group");
    g.append(el("span", `Face up: ${who(e.seat)}${dummy ? " (dummy)" : ""}`, "suit-name"));
    const row = el("div", null, "cards");
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
      row.append(b);
    }
    g.append(row);
    box.append(g);
  }
}

function renderAnnouncements() {
  const list = $("announcements");
  list.replaceChildren();
  const h = state.hand;
  const events = h ? h.events : state.summary ? state.summary.events : [];
  const hand = state.table.hand;
  for (const e of events) {
    list.append(el("li", e.text));
    const key = `${hand}:${e.i}`;
    if (!announced.has(key)) {
      announced.add(key);
      const p = el("p", e.text);
      $("live").append(p);
      while ($("live").childNodes.length > 5) $("live").firstChild.remove();
    }
  }
  if (!events.length) list.append(el("li", "Nothing announced yet this hand.", "muted"));
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

function renderHost() {
  const box = $("host");
  if (!hostToken) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(el("h2", "Host"));
  const t = state.table;
  const row = el("div", null, "actions");
  if (t.status === "waiting") row.append(button("Start the match", () => send({ type: "host", do: "start" }), "primary"));
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
  const seats = el("ul", null, "host-seats");
  for (const s of t.seats) {
    const li = el("li", `${s.label}: ${s.kind === "bot" ? "bot " + s.bot : "person"}`);
    if (s.kind === "person") li.append(button("Replace by a bot", () => send({ type: "host", do: "seat", seat: s.seat, bot: "heuristic" }), "small"));
    else li.append(button("Seat a person here", () => send({ type: "host", do: "seat", seat: s.seat }), "small"));
    seats.append(li);
  }
  box.append(seats);
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
  if (!["twenty-eight"].includes(t.ruleset) && t.ruleset.endsWith(".yaml")) {
    row.append(button(`Rule file ${t.ruleset}`, () => download(t.ruleset), "small"));
  }
  box.append(row);
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
  if (s.status === "annulled") dlg.append(el("p", `Annulled: ${s.annulled_because}; the same dealer deals again.`));
  else {
    if (s.bidder !== null) {
      const what = s.special ? `${s.special} by ${who(s.bidder)}` : `${who(s.bidder)} bid ${s.bid}`;
      dlg.append(el("p", `${what}: ${s.made ? "made" : "failed"}.`, "outcome"));
    }
    dlg.append(el("p", "Trump: " + (s.trump ? suitWords(s.trump) : "none")));
    dlg.append(el("p", "Card points: " + s.teams.map((team, i) => `${teamName(team)} ${s.card_points[i]}`).join(" · ")));
  }
  dlg.append(el("p", "Score change: " + t.teams.map((team, i) => `${teamName(team)} ${s.score_change[i] > 0 ? "+" : ""}${s.score_change[i]}`).join(" · ")));
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
  dh.open = true;
  dh.append(el("summary", "Every hand, as dealt"), hands);
  dlg.append(dh);
  const tricks = el("details");
  tricks.append(el("summary", `The ${s.tricks.length} tricks`));
  s.tricks.forEach((tr, i) => {
    const p = el("div", `${i + 1}: `, "summary-trick");
    p.append(trickList(tr.cards, tr.winner));
    tricks.append(p);
  });
  dlg.append(tricks);
  for (const e of s.events) dlg.append(el("p", e.text, "muted"));
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
