// The lobby: choose a game (or upload house rules), who sits where, create the table, share one link per seat.

const $ = (id) => document.getElementById(id);
let options = { rulesets: [], bots: [] };
let uploaded = {};        // name -> text
let checkedOk = false;
const JSON_HEADERS = { "content-type": "application/json" };   // the server takes JSON only

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function players() {
  if (Object.keys(uploaded).length && checkedOk && window.uploadPlayers) return window.uploadPlayers;
  const g = options.rulesets.find((r) => r.name === $("ruleset").value);
  return g ? g.players : 4;
}

function renderSeats() {
  const list = $("seat-list");
  const old = [...list.querySelectorAll("li")].map((li) => ({
    kind: li.querySelector("select.kind").value, bot: li.querySelector("select.bot").value,
    name: li.querySelector("input").value,
  }));
  list.replaceChildren();
  for (let i = 0; i < players(); i++) {
    const li = el("li");
    const prev = old[i] || { kind: i === 0 ? "person" : "bot", bot: "heuristic", name: "" };
    const label = el("span", `Seat ${i}`, "seat-name");
    const kind = el("select"); kind.className = "kind"; kind.setAttribute("aria-label", `Seat ${i}: person or bot`);
    for (const k of ["person", "bot"]) { const o = el("option", k); o.value = k; kind.append(o); }
    kind.value = prev.kind;
    const bot = el("select"); bot.className = "bot"; bot.setAttribute("aria-label", `Seat ${i}: which bot`);
    for (const b of options.bots) { const o = el("option", b); o.value = b; bot.append(o); }
    bot.value = options.bots.includes(prev.bot) ? prev.bot : "heuristic";
    const name = el("input"); name.maxLength = 24; name.placeholder = "name (optional)";
    name.setAttribute("aria-label", `Seat ${i}: name`); name.value = prev.name;
    li.append(label, kind, bot, name);
    list.append(li);
  }
}

async function checkUpload() {
  const problems = $("problems");
  problems.replaceChildren();
  checkedOk = false;
  if (!Object.keys(uploaded).length) return;
  const body = { files: uploaded, main: $("main").value };
  const r = await fetch("/api/validate", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
  const data = await r.json();
  for (const p of data.problems) problems.append(el("li", p));
  if (!data.problems.length) {
    checkedOk = true;
    window.uploadPlayers = data.players;
    renderSeats();
    problems.append(el("li", `${body.main}: valid`, "ok"));
  }
}

$("upload").addEventListener("change", async (ev) => {
  uploaded = {};
  for (const f of ev.target.files) uploaded[f.name] = await f.text();
  const main = $("main");
  main.replaceChildren();
  for (const n of Object.keys(uploaded)) { const o = el("option", n); o.value = n; main.append(o); }
  main.value = Object.keys(uploaded).at(-1) || "";
  await checkUpload();
});
$("main").addEventListener("change", checkUpload);
$("ruleset").addEventListener("change", renderSeats);

$("new-table").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("create-error").textContent = "";
  const seats = [...$("seat-list").querySelectorAll("li")].map((li) => ({
    kind: li.querySelector("select.kind").value, bot: li.querySelector("select.bot").value,
    name: li.querySelector("input").value,
  }));
  const req = { seats, spectators: $("spectators").checked, max_hands: Number($("max-hands").value) || 500 };
  if (Object.keys(uploaded).length) req.upload = { files: uploaded, main: $("main").value };
  else req.ruleset = $("ruleset").value;
  const r = await fetch("/api/tables", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(req) });
  const data = await r.json();
  if (!r.ok) {
    $("create-error").textContent = data.problems.join("\n");
    return;
  }
  showLinks(data, seats);
});

function showLinks(data, seats) {
  const base = `${location.origin}/t/${data.table}`;
  const list = $("link-list");
  list.replaceChildren();
  const hostSeat = seats.findIndex((s) => s.kind === "person");
  seats.forEach((s, i) => {
    if (s.kind !== "person") return;
    const url = `${base}#seat=${data.seats[i]}` + (i === hostSeat ? `&host=${data.host}` : "");
    addLink(list, i === hostSeat ? `Seat ${i} (you, the host)` : `Seat ${i}${s.name ? " - " + s.name : ""}`, url);
  });
  addLink(list, "Host only (no seat)", `${base}#host=${data.host}`);
  if ($("spectators").checked) addLink(list, "Spectators", `${base}#watch=${data.watch}`);
  const commit = el("li", `Shuffle commitment (SHA-256 of the match seed): ${data.commitment}`, "muted");
  list.append(commit);
  $("links").hidden = false;
}

function addLink(list, label, url) {
  const li = el("li");
  const a = el("a", label); a.href = url;
  const copy = el("button", "Copy"); copy.type = "button";
  copy.addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(url));
  li.append(a, copy);
  list.append(li);
}

async function start() {
  options = await (await fetch("/api/options")).json();
  const sel = $("ruleset");
  for (const g of options.rulesets) {
    const o = el("option", `${g.name} (${g.players} players)`);
    o.value = g.name; o.title = g.description;
    sel.append(o);
  }
  sel.value = "twenty-eight";
  renderSeats();
}
start();
