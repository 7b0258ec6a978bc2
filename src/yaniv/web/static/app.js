// The Yaniv browser app: make or join a table, then play over a websocket (docs/protocol.md).
import { LANGUAGES, engineText, language, presetChanges, presetName, restError, rulesLines, serverError, setLanguage, t } from "./i18n.js";
import { cardBack, cardElement, cardText } from "./cards.js";

const S = {
  tableId: null, seat: null, token: null, ws: null, version: 0, table: null, view: null,
  log: [], selected: new Set(), pending: new Map(), presets: [], online: false, retry: 0,
  error: null, page: "home", resuming: false,
  form: {}, // what was typed in a form: kept through an error and a re-render
  deadlines: [], // turn clocks: {seat, decision, until} (until: performance.now() time)
  tableAt: 0, // when the table info arrived (its starts_in counts from then)
  lobbyList: null, bye: null,
  check: null, // the engine's answer on the selected cards: {key, ok, reason}
  hint: null, // the hint for this version: {version, action, odds}
  dismissed: null, // the round-end reveal closed by the player: "round/version"
  sound: localStorage.getItem("yaniv.sound") === "1", // a sound when the turn comes
  wasMyTurn: false,
  hist: null, step: 0, // a finished game's history and the step shown
};
window.yanivState = S; // read by the browser tests

const app = document.getElementById("app");
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
};
const name = (p) => (S.table && S.table.seats[p] && S.table.seats[p].name) || `P${p}`;
const stored = (id) => JSON.parse(localStorage.getItem(`yaniv.seat.${id}`) || "null");
const forget = (id) => localStorage.removeItem(`yaniv.seat.${id}`);
const store = (id, seat, token) => localStorage.setItem(`yaniv.seat.${id}`, JSON.stringify({ seat, token }));
const uid = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

// ------------------------------------------------------------------ connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${S.tableId}`);
  S.ws = ws;
  ws.onopen = () => {
    S.online = true;
    S.retry = 0;
    const hello = { type: "hello" };
    if (S.token) hello.token = S.token;
    S.resuming = S.version > 0 && S.log.length > 0;
    if (S.resuming) hello.since = S.version;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (m) => receive(JSON.parse(m.data));
  ws.onclose = () => {
    if (S.ws !== ws || S.bye) return;
    S.online = false;
    render();
    // soon at first (a server that died: the balancer sends it to another, which has the
    // table within a lease's two seconds), then backing off to 3-10 s; each page at its own
    // moment (0.5-1.5 times the step), so that the hundreds of a dead server's do not all
    // come back at once
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 200 * 2 ** (S.retry - 1) * (0.5 + Math.random()));
  };
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}

// One move at a time: while one is on its way every control is off (a double-click sends once).
const busy = () => S.pending.size > 0;

function act(action) {
  if (busy()) return;
  const id = uid();
  const msg = { type: "action", id, version: S.version, action };
  S.pending.set(id, msg);
  S.selected.clear();
  S.check = null;
  send(msg);
  render();
}

function trimLog() {
  const last = S.log.findLastIndex((e) => e.type === "deal");
  if (last > 0) S.log = S.log.slice(last);
}

function clocks(list) {
  const now = performance.now();
  S.deadlines = (list || []).map((d) => ({ ...d, until: now + d.seconds * 1000 }));
}

function receive(m) {
  switch (m.type) {
    case "welcome":
      S.seat = m.seat;
      S.table = m.table;
      S.tableAt = performance.now();
      clocks(m.deadlines);
      if (S.resuming) S.log.push(...m.events);
      else S.log = m.events.slice();
      S.resuming = false;
      trimLog();
      S.view = m.view;
      S.version = m.version;
      for (const msg of S.pending.values()) send(msg); // resent with the same id: idempotent
      break;
    case "update":
      clocks(m.deadlines);
      S.log.push(...m.events);
      trimLog();
      S.view = m.view;
      S.version = m.version;
      if (S.view && S.view.phase !== "turn_start") S.selected.clear();
      if (S.hint && S.hint.version !== S.version) S.hint = null;
      break;
    case "table":
      S.table = m.table;
      S.tableAt = performance.now();
      break;
    case "bye":
      S.bye = m.reason;
      forget(S.tableId);
      S.token = null;
      S.page = "bye";
      break;
    case "ack":
      S.pending.delete(m.id);
      break;
    case "check":
      if (S.check && S.check.key === cardsKey(m.action.cards || [])) {
        S.check.ok = m.ok;
        S.check.reason = m.reason;
      }
      break;
    case "hint":
      if (m.version === S.version) {
        S.hint = m;
        const cards = m.action && (m.action.cards || m.action.discard);
        if (cards && S.view) { // the hint's discard selected, as in the terminal game
          S.selected.clear();
          const used = new Set();
          for (const c of cards) {
            const i = S.view.hand.findIndex((h, k) => h === c && !used.has(k));
            if (i >= 0) { used.add(i); S.selected.add(i); }
          }
        }
      }
      break;
    case "rematch":
      if (S.token) store(m.table, S.seat, S.token);
      location.assign(`/t/${m.table}`);
      return;
    case "error":
      if (m.id) S.pending.delete(m.id);
      if (m.code === "stale") send({ type: "sync", since: S.version });
      if (m.code === "bad_token") {
        localStorage.removeItem(`yaniv.seat.${S.tableId}`);
        S.token = null;
      }
      showError(serverError(m));
      return;
    default:
      return;
  }
  render();
}

// ------------------------------------------------------------------ pages

async function route() {
  const past = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)\/history$/);
  if (past) {
    S.tableId = past[1];
    S.page = "history";
    const [info, hist] = await Promise.all([fetch(`/api/tables/${S.tableId}`), fetch(`/api/tables/${S.tableId}/history`)]);
    if (info.ok) S.table = await info.json();
    if (hist.ok) S.hist = await hist.json();
    else S.hist = { error: hist.status };
    render();
    return;
  }
  if (location.pathname === "/lobby") {
    S.page = "lobbyList";
    render();
    refreshLobby();
    return;
  }
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  const resume = location.hash.match(/^#seat=([A-Za-z0-9_-]+)$/);
  if (match && resume) {
    // a personal resume link: keep the seat's token here, and out of the address bar
    store(match[1], null, resume[1]);
    history.replaceState(null, "", location.pathname);
  }
  if (!match) {
    S.page = "home";
    const r = await fetch("/api/presets");
    S.presets = await r.json();
    render();
    return;
  }
  S.tableId = match[1];
  const mine = stored(S.tableId);
  if (mine) {
    S.token = mine.token;
    S.page = "table";
    connect();
    render();
    return;
  }
  const r = await fetch(`/api/tables/${S.tableId}`);
  if (!r.ok) {
    S.page = "missing";
    render();
    return;
  }
  S.table = await r.json();
  const free = S.table.status === "lobby" && S.table.seats.some((s) => s.kind === "empty");
  S.page = free ? "join" : "table";
  if (!free) connect();
  render();
}

function header() {
  const select = el("select", { id: "lang", "aria-label": t("language"), onchange: (e) => { setLanguage(e.target.value); render(); } },
    Object.entries(LANGUAGES).map(([code, label]) => el("option", { value: code, selected: code === language() }, label)));
  return el("header", {},
    el("a", { href: "/", class: "brand" }, t("title")),
    el("a", { href: "/lobby", id: "lobby-link" }, t("openTables")),
    S.tableId ? el("span", { class: "table-id" }, t("lobby", { id: S.tableId })) : null,
    el("span", { class: "grow" }),
    S.page === "table" && !S.online ? el("span", { class: "offline", role: "status" }, t("disconnected")) : null,
    S.page === "table" ? el("button", { type: "button", id: "sound-btn", class: "small-btn", "aria-pressed": S.sound ? "true" : "false", title: t("soundHint"), "aria-label": t("soundHint"),
      onclick: () => { S.sound = !S.sound; localStorage.setItem("yaniv.sound", S.sound ? "1" : "0"); if (S.sound) beep(); render(); } }, el("span", { class: S.sound ? "note" : "note muted", "aria-hidden": "true" }, "♪"), el("span", { class: "sound-label" }, ` ${S.sound ? t("soundOn") : t("soundOff")}`)) : null,
    el("label", { class: "lang" }, select));
}

// A form field whose value survives a re-render (an error toast redraws the page).
function keep(id, fallback) {
  return S.form[id] !== undefined ? S.form[id] : fallback;
}
function remember(e) {
  const f = e.target;
  if (f.id) S.form[f.id] = f.type === "checkbox" ? f.checked : f.value;
}

function homePage() {
  const presets = S.presets;
  const field = (label, input, extra = null) => el("label", { class: "field" }, el("span", {}, label), input, extra);
  const num = (id, value, min, max, placeholder) => el("input", { id, type: "number", value: keep(id, value), min, max, placeholder });
  const opts = (id, values, chosen) => el("select", { id },
    values.map(([v, label]) => el("option", { value: v, selected: String(v) === String(keep(id, chosen)) }, label)));
  const preset = presets.find((p) => p.name === keep("preset", "standard")) || presets[0];
  const standard = presets.find((p) => p.name === "standard");
  const knobs = preset ? preset.knobs : {};
  // only the seat counts these rules allow, and computers for all but one of them
  const lo = preset ? preset.min_players : 2;
  const hi = preset ? preset.max_players : 8;
  const players = Math.min(hi, Math.max(lo, Number(keep("players", 3))));
  S.form.players = players;
  const computers = Math.min(players - 1, Number(keep("computers", 1)));
  S.form.computers = computers;
  const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const named = { off: t("off"), same_rank: t("sameRank"), fits_meld: t("fitsMeld"), as_draw: t("asDraw"), as_turn: t("asTurn"), true: "✓", false: t("off") };
  const own = (value) => ["", t("presetDefaults", { n: named[String(value)] || String(value) })];
  const changes = preset && standard ? presetChanges(knobs, standard.knobs) : [];
  const form = el("form", { id: "create", class: "panel", onsubmit: createTable, oninput: remember, onchange: (e) => { remember(e); if (["preset", "players"].includes(e.target.id)) render(); } },
    el("h1", {}, t("newTable")),
    field(t("yourName"), el("input", { id: "name", required: true, maxlength: 24, value: keep("name", localStorage.getItem("yaniv.name") || ""), autocomplete: "nickname" })),
    field(t("rules"), opts("preset", presets.map((p) => [p.name, presetName(p.name)]), "standard")),
    preset ? el("div", { class: "preset-info", id: "preset-info" },
      el("p", {}, changes.length ? t("presetChanges") : t("presetSame")),
      changes.length ? el("ul", { id: "preset-changes" }, changes.map((line) => el("li", {}, line))) : null) : null,
    field(t("seats"), opts("players", range(lo, hi).map((n) => [n, String(n)]), players), el("small", { class: "hint-text" }, t("seatsAllowed", { min: lo, max: hi }))),
    field(t("computers"), opts("computers", range(0, players - 1).map((n) => [n, String(n)]), computers)),
    field(t("level"), opts("level", LEVELS.map((l) => [l, t(l)]), "medium")),
    field(t("clock"), el("input", { id: "turn", type: "number", min: 0, max: 3600, step: 1, value: keep("turn", ""), placeholder: t("clockHint") })),
    el("label", { class: "field check" }, el("span", {}, t("publicTable")), el("input", { id: "public", type: "checkbox", checked: keep("public", false) })),
    field(t("threshold"), num("threshold", "", 0, 50, knobs.yaniv_threshold)),
    field(t("scoreLimit"), num("limit", "", 1, 1000, knobs.score_limit)),
    field(t("slap"), opts("quick", [own(knobs.quick_discard), ["off", t("off")], ["same_rank", t("sameRank")], ["fits_meld", t("fitsMeld")]], "")),
    field(t("jokerSwap"), opts("swap", [own(knobs.joker_swap), ["off", t("off")], ["as_draw", t("asDraw")], ["as_turn", t("asTurn")]], "")),
    field(t("asef"), opts("asef", [own(knobs.asef), ["true", "✓"], ["false", t("off")]], "")),
    el("button", { type: "submit", id: "create-btn", class: "primary" }, t("create")),
    el("p", {}, el("a", { href: "/lobby", id: "to-lobby" }, t("orJoinOpen"))));
  return el("main", { class: "home" }, form);
}

const LEVELS = ["beginner", "easy", "medium", "hard", "expert"];

function overridesOf(v) {
  const overrides = {};
  if (v("threshold") !== "") overrides.yaniv_threshold = Number(v("threshold"));
  if (v("limit") !== "") overrides.score_limit = Number(v("limit"));
  if (v("quick")) overrides.quick_discard = v("quick");
  if (v("swap")) overrides.joker_swap = v("swap");
  if (v("asef")) overrides.asef = v("asef") === "true";
  return overrides;
}

async function failure(r) {
  let data = null;
  try { data = await r.json(); } catch { /* not JSON: the status says enough */ }
  return restError(r.status, data);
}

async function createTable(e) {
  e.preventDefault();
  const v = (id) => document.getElementById(id).value;
  localStorage.setItem("yaniv.name", v("name"));
  const body = { name: v("name"), rules: v("preset"), overrides: overridesOf(v), players: Number(v("players")), computers: Number(v("computers")), level: v("level"), public: document.getElementById("public").checked };
  if (v("turn") !== "") body.turn_seconds = Number(v("turn"));
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) {
    showError(await failure(r));
    return;
  }
  const data = await r.json();
  store(data.table, data.seat, data.token);
  location.assign(data.invite);
}

function showError(message) {
  S.error = message;
  render();
  setTimeout(() => { if (S.error === message) { S.error = null; render(); } }, 5000);
}

// ------------------------------------------------------------------ the open tables (lobby list)

async function refreshLobby() {
  if (S.page !== "lobbyList") return;
  try {
    const r = await fetch("/api/lobby");
    S.lobbyList = await r.json();
    if (!S.presets.length) S.presets = await (await fetch("/api/presets")).json();
  } catch {
    S.lobbyList = S.lobbyList || [];
  }
  render();
  setTimeout(refreshLobby, 3000);
}

async function sitAt(tableId) {
  const who = (document.getElementById("lobby-name") || {}).value || "";
  if (!who.trim()) { showError(t("nameFirst")); return; }
  localStorage.setItem("yaniv.name", who);
  const r = await fetch(`/api/tables/${tableId}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: who }) });
  if (!r.ok) { showError(await failure(r)); return; }
  const data = await r.json();
  store(data.table, data.seat, data.token);
  location.assign(data.invite);
}

async function quickMatch(e) {
  e.preventDefault();
  const who = document.getElementById("lobby-name").value;
  if (!who.trim()) { showError(t("nameFirst")); return; }
  localStorage.setItem("yaniv.name", who);
  const body = { name: who, rules: document.getElementById("quick-rules").value, players: Number(document.getElementById("quick-players").value) };
  const r = await fetch("/api/quick", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) { showError(await failure(r)); return; }
  const data = await r.json();
  store(data.table, data.seat, data.token);
  location.assign(data.invite);
}

const seatCounts = (p) => Array.from({ length: p.max_players - p.min_players + 1 }, (_, i) => p.min_players + i);

function lobbyListPage() {
  const list = S.lobbyList;
  const name = el("input", { id: "lobby-name", required: true, maxlength: 24, value: keep("lobby-name", localStorage.getItem("yaniv.name") || ""), oninput: remember, autocomplete: "nickname" });
  const rows = list === null ? [el("li", {}, "…")]
    : !list.length ? [el("li", { id: "no-tables" }, t("noOpenTables"))]
      : list.map((tb) => el("li", { class: "open-table", "data-table": tb.id },
        el("div", { class: "who" }, el("strong", {}, rulesName(tb.rules)), ` · ${t("hostedBy", { name: tb.host || "?" })}`),
        el("div", {}, t("freeSeats", { free: tb.free, seats: tb.players }), " · ",
          tb.turn_seconds ? t("clockOf", { n: tb.turn_seconds }) : t("noClock")),
        el("details", {}, el("summary", {}, t("rulesOf")), el("ul", {}, rulesText(tb.knobs, tb.description).map((line) => el("li", {}, line)))),
        el("button", { type: "button", class: "primary sit-btn", "data-table": tb.id, onclick: () => sitAt(tb.id) }, t("join"))));
  // quick match offers only the seat counts the chosen rules allow
  const quickPreset = S.presets.find((p) => p.name === keep("quick-rules", "standard")) || S.presets[0] || { name: "standard", min_players: 2, max_players: 5 };
  const counts = seatCounts(quickPreset);
  const quickPlayers = Math.min(counts[counts.length - 1], Math.max(counts[0], Number(keep("quick-players", 4))));
  const quick = el("form", { id: "quick", class: "row", onsubmit: quickMatch },
    el("select", { id: "quick-rules", "aria-label": t("rules"), onchange: (e) => { remember(e); render(); } },
      S.presets.map((p) => el("option", { value: p.name, selected: p.name === quickPreset.name }, presetName(p.name)))),
    el("select", { id: "quick-players", "aria-label": t("seats"), onchange: remember },
      seatCounts(quickPreset).map((n) => el("option", { value: n, selected: n === quickPlayers }, String(n)))),
    el("button", { type: "submit", id: "quick-btn" }, t("quickMatch")));
  return el("main", { class: "home" }, el("section", { class: "panel", id: "open-tables" },
    el("h1", {}, t("openTables")),
    el("label", { class: "field" }, el("span", {}, t("yourName")), name),
    el("p", {}, t("quickHint")), quick,
    el("ul", { class: "tables" }, rows),
    el("p", {}, el("a", { href: "/" }, t("newTable")))));
}

function joinPage() {
  const form = el("form", { id: "join", class: "panel", onsubmit: joinTable },
    el("h1", {}, t("lobby", { id: S.tableId })),
    el("p", {}, `${t("rulesOf")}: ${rulesName(S.table.rules)}`),
    seatList(),
    el("label", { class: "field" }, el("span", {}, t("yourName")),
      el("input", { id: "name", required: true, maxlength: 24, value: localStorage.getItem("yaniv.name") || "" })),
    el("div", { class: "row" },
      el("button", { type: "submit", id: "join-btn", class: "primary" }, t("join")),
      el("button", { type: "button", id: "watch-btn", onclick: () => { S.page = "table"; connect(); render(); } }, t("watch"))));
  return el("main", { class: "home" }, form);
}

async function joinTable(e) {
  e.preventDefault();
  const who = document.getElementById("name").value;
  localStorage.setItem("yaniv.name", who);
  const r = await fetch(`/api/tables/${S.tableId}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: who }) });
  if (!r.ok) {
    showError(await failure(r));
    return;
  }
  const data = await r.json();
  store(data.table, data.seat, data.token);
  S.token = data.token;
  S.page = "table";
  connect();
  render();
}

function badges(s, p) {
  const out = [];
  if (p === S.seat) out.push(t("you"));
  if (s.host) out.push(t("host"));
  if (s.kind === "bot") out.push(`${t("computer")} · ${t(s.level)}`);
  if (s.stand_in) out.push(t("standIn"));
  else if (s.kind === "human" && !s.connected) out.push(t("away"));
  return out.length ? el("span", { class: "badges" }, ` (${out.join(", ")})`) : null;
}

function seatList(controls = false) {
  return el("ol", { class: "seats" }, S.table.seats.map((s, p) => {
    const label = s.kind === "empty" ? el("em", {}, t("empty")) : el("span", {}, s.name || t("computer"));
    let tools = null;
    if (controls && p !== S.seat) {
      if (s.kind === "human") tools = el("button", { type: "button", class: "small-btn", "data-kick": p, onclick: () => send({ type: "kick", seat: p }) }, t("sendAway"));
      else if (s.kind === "bot") tools = el("button", { type: "button", class: "small-btn", "data-remove-bot": p, onclick: () => send({ type: "remove_bot", seat: p }) }, t("removeBot"));
      else {
        const pick = el("select", { class: "small-select", "aria-label": t("level"), "data-level-for": p }, LEVELS.map((l) => el("option", { value: l, selected: l === S.table.level }, t(l))));
        tools = el("span", { class: "tools" }, pick, el("button", { type: "button", class: "small-btn", "data-add-bot": p, onclick: () => send({ type: "add_bot", seat: p, level: pick.value }) }, t("addBot")));
      }
    }
    return el("li", { class: s.kind }, label, s.kind === "empty" ? null : badges(s, p), tools ? " " : null, tools);
  }));
}

// A countdown: the ticker below rewrites its text every quarter second from its end time.
function countdown(until, key) {
  const e = el("span", { class: "countdown", "data-until": String(until), "data-text": key });
  tickOne(e, performance.now());
  return e;
}

function tickOne(e, now) {
  const left = Math.max(0, Math.ceil((Number(e.dataset.until) - now) / 1000));
  e.textContent = t(e.dataset.text, { n: left });
  e.classList.toggle("urgent", left <= 10);
}

setInterval(() => {
  const now = performance.now();
  for (const e of document.querySelectorAll(".countdown[data-until]")) tickOne(e, now);
}, 250);

function clockOf(p) {
  const d = S.deadlines.find((x) => x.seat === p);
  return d ? countdown(d.until, "secondsLeft") : null;
}

function settingsBox() {
  const tb = S.table;
  const v = (id) => document.getElementById(id).value;
  const apply = (e) => {
    e.preventDefault();
    const msg = { type: "settings", players: Number(v("set-players")), turn_seconds: Number(v("set-turn") || 0), public: document.getElementById("set-public").checked };
    if (v("set-rules") !== tb.rules) msg.rules = v("set-rules");
    send(msg);
  };
  const presets = S.presets.length ? S.presets.map((p) => p.name) : [];
  if (!presets.includes(tb.rules)) presets.unshift(tb.rules);
  return el("form", { id: "settings", class: "settings", onsubmit: apply },
    el("h2", {}, t("tableSettings")),
    el("label", { class: "field" }, el("span", {}, t("rules")), el("select", { id: "set-rules" }, presets.map((n) => el("option", { value: n, selected: n === tb.rules }, rulesName(n))))),
    el("label", { class: "field" }, el("span", {}, t("seats")), el("input", { id: "set-players", type: "number", min: 2, max: 8, value: tb.players })),
    el("label", { class: "field" }, el("span", {}, t("clock")), el("input", { id: "set-turn", type: "number", min: 0, max: 3600, value: tb.turn_seconds || 0 })),
    el("label", { class: "field check" }, el("span", {}, t("publicTable")), el("input", { id: "set-public", type: "checkbox", checked: tb.public })),
    el("button", { type: "submit", id: "apply-btn" }, t("apply")));
}

function leaveButton() {
  if (S.seat === null) return null;
  return el("button", { type: "button", id: "leave-btn", class: "small-btn", onclick: () => { if (confirm(t("leaveSure"))) send({ type: "leave" }); } }, t("leave"));
}

function resumeBox() {
  if (S.seat === null || !S.token) return null;
  const link = `${location.origin}/t/${S.tableId}#seat=${S.token}`;
  return el("details", { class: "resume" }, el("summary", {}, t("resumeTitle")),
    el("p", {}, t("resumeHint")),
    el("input", { id: "resume", readonly: true, value: link, onfocus: (e) => e.target.select() }));
}

function lobbyPage() {
  const link = `${location.origin}/t/${S.tableId}`;
  const me = S.seat !== null ? S.table.seats[S.seat] : null;
  const host = me && me.host;
  const starts = S.table.starts_in === null || S.table.starts_in === undefined ? null : S.tableAt + S.table.starts_in * 1000;
  if (host && !S.presets.length) fetch("/api/presets").then((r) => r.json()).then((p) => { S.presets = p; render(); });
  return el("main", { class: "home" }, el("section", { class: "panel", id: "lobby" },
    el("h1", {}, t("lobby", { id: S.tableId })),
    el("p", {}, t("invite")),
    el("div", { class: "row" },
      el("input", { id: "invite", readonly: true, value: link, onfocus: (e) => e.target.select() }),
      el("button", { type: "button", onclick: async (e) => { try { await navigator.clipboard.writeText(link); e.target.textContent = t("copied"); } catch { document.getElementById("invite").select(); } } }, t("copy"))),
    S.table.full ? el("p", { class: "full", id: "full" }, t("tableFull")) : null,
    starts !== null ? el("p", { class: "starts", id: "starts-in" }, countdown(starts, "startsIn")) : null,
    seatList(host),
    host ? el("button", { type: "button", id: "start-btn", class: "primary", onclick: () => send({ type: "start" }) }, t("start"))
      : el("p", {}, t("waitingHost")),
    el("p", { class: "clock-info" }, S.table.turn_seconds ? t("clockOf", { n: S.table.turn_seconds }) : t("noClock"), S.table.public ? ` · ${t("listed")}` : ""),
    host ? settingsBox() : null,
    rulesBox(t("rulesLocked"), true),
    resumeBox(),
    el("p", {}, leaveButton())));
}

// The rules in words: in English the engine's full description, else a sentence per knob
// in the player's language (the knobs are the server's, the words the page's).
function rulesText(knobs, description) {
  return language() === "en" && description ? description : rulesLines(knobs);
}

// A rules string ("standard(yaniv_threshold=5)") named in words: its preset, and whether knobs
// were changed (the sentences below say how); knob names are never shown.
function rulesName(rules) {
  const m = /^([\w-]+)(\((.*)\))?$/.exec(rules || "");
  if (!m) return t("customRules");
  const base = presetName(m[1]);
  if (base === m[1]) return t("customRules"); // not a preset
  return m[2] ? t("presetChanged", { name: base }) : base;
}

function rulesBox(title, open = false) {
  return el("details", { class: "rules", open }, el("summary", {}, `${title}: ${rulesName(S.table.rules)}`),
    el("ul", {}, rulesText(S.table.knobs, S.table.description).map((line) => el("li", {}, line))));
}

// ------------------------------------------------------------------ the table

const legal = () => (S.view && S.view.legal) || [];
const legalOf = (type) => legal().filter((a) => a.type === type);

// The selected cards as a discard, in the order they were picked (the server lays them:
// a set in that order, so the last card picked ends on top; a run ascending), or null
// while they are not, as cards, one of the legal discards.
const cardsKey = (cards) => [...cards].sort().join(" ");

function selectedDiscard() {
  if (!S.view || !S.selected.size) return null;
  const cards = [...S.selected].map((i) => S.view.hand[i]);
  const chosen = cardsKey(cards);
  const legalNow = legalOf("discard").some((a) => cardsKey(a.cards) === chosen);
  return legalNow ? { type: "discard", cards } : null;
}

// Cards picked that are not a legal discard: ask the server, whose engine says why in its
// own words (one source of truth for the rules), and show the answer under the buttons.
function checkSelection() {
  const v = S.view;
  if (!v || !S.selected.size || selectedDiscard() || !legalOf("discard").length) { S.check = null; return; }
  const cards = [...S.selected].map((i) => v.hand[i]);
  const key = cardsKey(cards);
  if (S.check && S.check.key === key) return;
  S.check = { key, ok: null, reason: null };
  send({ type: "check", action: { type: "discard", cards } });
}

// The last turn of each seat in this round (its discard, then its draw or take), from the log.
function lastTurns() {
  const out = {};
  let latest = null;
  for (const e of S.log) {
    if (e.type === "deal") { for (const k of Object.keys(out)) delete out[k]; latest = null; continue; }
    if (e.seat === undefined || !["discard", "draw", "take", "swap", "slap", "timeout"].includes(e.type)) continue;
    const cur = out[e.seat];
    if (e.type === "timeout") out[e.seat] = [e];
    else if (e.type === "discard") out[e.seat] = cur && cur.length === 1 && cur[0].type === "timeout" ? [...cur, e] : [e];
    else (out[e.seat] = cur || []).push(e);
    latest = e.seat;
  }
  return { turns: out, latest };
}

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.35);
    osc.onended = () => ctx.close();
  } catch { /* no sound here: the title still says it */ }
}

// The hint in words (the terminal game's hint, made by the server's expert bot).
function hintWords(a) {
  if (!a) return t("hintPass");
  const cards = (list) => list.map(cardText).join(" ");
  switch (a.type) {
    case "yaniv": return t("hintYaniv");
    case "asef": return t("hintAsef");
    case "draw": return t("hintDraw");
    case "discard": return t("hintDiscard", { cards: cards(a.cards) });
    case "turn": // a whole turn: {discard: cards, take: "stock" or a card}
      return `${t("hintDiscard", { cards: cards(a.discard) })}, ${a.take && a.take !== "stock" ? t("hintTake", { card: cardText(a.take) }) : t("hintDraw")}`;
    case "take": return t("hintTake", { card: cardText(a.card) });
    case "swap": return t("hintSwap", { card: cardText(a.card) });
    default: return t("hintSlap", { card: cardText(a.card) });
  }
}

function scoreSheet() {
  const v = S.view;
  const sheet = (v && v.sheet) || [];
  const seats = S.table.seats;
  return el("details", { class: "sheet", id: "sheet", open: sheet.length > 0 },
    el("summary", {}, t("scoreSheet")),
    sheet.length ? el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "#"), seats.map((s, p) => el("th", {}, s.name || `P${p}`)))),
      el("tbody", {}, sheet.map((r) => el("tr", {}, el("th", {}, String(r.round)),
        r.scores.map((sc, p) => el("td", { title: t("totalAfter", { n: r.totals[p] }) },
          el("span", { class: "score" }, sc > 0 ? `+${sc}` : String(sc)), " ", el("span", { class: "run-total" }, String(r.totals[p]))))))))
      : el("p", {}, t("noRoundsYet")));
}

function narrate(e) {
  const who = e.seat !== undefined ? name(e.seat) : "";
  const cards = (list) => list.map(cardText).join(" ");
  switch (e.type) {
    case "deal": return t("evDeal", { n: e.round, dealer: name(e.dealer), starter: name(e.starter) }) + (e.tiebreak ? ` (${t("tieBreak")})` : "");
    case "discard": return t("evDiscard", { who, cards: cards(e.cards) });
    case "draw": return e.card ? t("evDraw", { who, card: cardText(e.card) }) : t("evDrawHidden", { who });
    case "take": return t("evTake", { who, card: cardText(e.card) });
    case "swap": return t("evSwap", { who, card: cardText(e.card) });
    case "slap": return t("evSlap", { who, card: cardText(e.card) });
    case "reshuffle": return t("evReshuffle", { n: e.count ?? (e.stock ? e.stock.length : 0) });
    case "yaniv": return t("evYaniv", { who });
    case "false_yaniv": return t("evFalse", { who });
    case "asef": return t("evAsef", { who, card: cardText(e.card) });
    case "showdown": return `${t("evShowdown")}: ` + e.hands.map((h, p) => (h ? `${name(p)} ${cards(h) || "–"}` : null)).filter(Boolean).join("; ");
    case "round_end": return `${resultHead(e)}. ${t("evRoundEnd", { totals: e.totals.map((v, p) => `${name(p)} ${v}`).join(", ") })}`;
    case "game_end": return t("evGameEnd", { names: e.winners.map(name).join(", ") });
    case "timeout": return t("evTimeout", { who, level: t(e.stand_in) });
    default: return e.type;
  }
}

function resultHead(r) {
  if (r.kind === "false_yaniv") return t("falseYaniv", { caller: name(r.caller) });
  if (r.assaf) return t("assaf", { caller: name(r.caller), by: r.assafers.map(name).join(", ") });
  return t("wins", { caller: name(r.caller) });
}

// A seat's total: after a round's end the new one (the round's result), before it the one it started with.
const totalOf = (p) => (S.view.result ? S.view.result.totals[p] : S.view.totals[p]);

function opponent(p, last) {
  const v = S.view;
  const s = S.table.seats[p];
  const out = v.eliminated.includes(p);
  const me = S.seat !== null ? S.table.seats[S.seat] : null;
  const backs = el("div", { class: "backs" });
  const shown = v.hands_shown ? v.hands_shown[p] : null;
  if (shown) for (const c of shown) backs.append(cardElement(c, { small: true }));
  else for (let i = 0; i < v.hand_counts[p]; i++) backs.append(cardBack({ small: true }));
  const seen = v.seen[p].length ? el("div", { class: "seen" }, el("span", { class: "label" }, `${t("seen")}:`), v.seen[p].map((c) => cardElement(c, { small: true }))) : null;
  const canReplace = me && me.host && s.kind === "human" && !s.connected && !s.stand_in && p !== S.seat;
  const turn = last.turns[p];
  const laid = v.last_discards && v.last_discards[p];
  const lastMove = turn && turn.length ? el("div", { class: "last-move", "data-last": p },
    el("span", { class: "label" }, `${t("lastMove")}:`), " ",
    laid ? el("span", { class: "last-cards" }, laid.map((c) => cardElement(c, { small: true }))) : null,
    el("span", { class: "last-words" }, turn.map(narrate).join("; "))) : null;
  const cls = `player${v.current === p && v.phase !== "round_over" ? " current" : ""}${out ? " out" : ""}${last.latest === p ? " last-mover" : ""}`;
  return el("div", { class: cls, "data-seat": p },
    el("div", { class: "who" }, el("strong", {}, s.name || `P${p}`), badges(s, p), " ", clockOf(p)),
    el("div", { class: "total" }, t("total", { n: totalOf(p) }), out ? ` · ${t("out")}` : "", ` · ${t("cards", { n: v.hand_counts[p] })}`),
    backs, seen, lastMove,
    canReplace ? el("button", { type: "button", class: "small-btn", "data-replace": p, onclick: () => send({ type: "replace", seat: p }) }, t("handToBot")) : null);
}

function tablePage() {
  const v = S.view;
  if (!S.table) return el("main", { class: "table" }, el("p", {}, "…"));
  if (S.table.status === "lobby" || !v) return lobbyPage();
  const mine = S.seat !== null && v.seat === S.seat;
  const myTurn = mine && v.current === S.seat && v.phase !== "round_over";
  const others = [];
  for (let i = 1; i <= v.players; i++) {
    const p = ((S.seat ?? -1) + i + v.players) % v.players;
    if (p !== S.seat) others.push(p);
  }
  const last = lastTurns();
  const opps = el("section", { class: "opponents", "aria-label": t("players") }, others.map((p) => opponent(p, last)));

  // centre: stock and discard pile
  const draw = legalOf("draw")[0];
  const wait = busy();
  const stock = el("button", { type: "button", id: "stock", class: "card back stock", disabled: !draw || wait, "aria-label": `${t("stock")} (${v.stock_count})`, onclick: () => draw && act(draw) },
    el("span", {}, String(v.stock_count)));
  const takes = new Set(legalOf("take").map((a) => a.card));
  const prev = el("div", { class: "group previous", "aria-label": "discard" },
    (v.previous_group || []).map((c) => takes.has(c) && !wait
      ? cardElement(c, { button: true, extra: "takeable" })
      : cardElement(c)));
  for (const b of prev.querySelectorAll("button.card")) b.addEventListener("click", () => act({ type: "take", card: b.dataset.card }));
  const pile = v.discard_pile;
  const mineLaid = v.phase === "after_discard" && pile.length ? el("div", { class: "group laid" }, pile[pile.length - 1].map((c) => cardElement(c, { small: true }))) : null;
  const centre = el("section", { class: "centre" },
    el("div", { class: "stack" }, stock, el("span", { class: "label" }, t("stock"))),
    el("div", { class: "stack" }, prev, mineLaid));

  // status line
  let status;
  if (S.seat === null) status = t("spectating");
  else if (v.phase === "round_over") status = v.game_over ? t("gameOver") : t("roundOver", { n: v.round });
  else if (myTurn) status = `${t("yourTurn")}: ${v.phase === "after_discard" ? t("takeOrDraw") : t("pickCards")}`;
  else status = t("turnOf", { name: name(v.current) });

  // my hand and buttons
  let me = null;
  if (mine) {
    const hand = el("div", { class: "hand", role: "group", "aria-label": t("hand", { n: v.hand_value }) });
    v.hand.forEach((c, i) => {
      const b = cardElement(c, { button: true, selected: S.selected.has(i), extra: "mine" });
      b.dataset.key = `hand-${i}`;
      b.disabled = !myTurn || v.phase === "after_discard" || wait;
      b.addEventListener("click", () => { S.selected.has(i) ? S.selected.delete(i) : S.selected.add(i); S.hint = S.hint && { ...S.hint, shown: true }; checkSelection(); render(); });
      hand.append(b);
    });
    const discard = selectedDiscard();
    const decide = v.legal.length > 0 && v.phase !== "round_over";
    const buttons = el("div", { class: "actions" },
      el("button", { type: "button", id: "discard-btn", class: "primary", disabled: !discard || wait, onclick: () => discard && act(discard) }, t("discard")),
      legalOf("yaniv").length ? el("button", { type: "button", id: "yaniv-btn", class: "call", disabled: wait, onclick: () => act({ type: "yaniv" }) }, t("yaniv")) : null,
      legalOf("asef").length ? el("button", { type: "button", id: "asef-btn", class: "call", disabled: wait, onclick: () => act({ type: "asef" }) }, t("asefBtn")) : null,
      legalOf("slap").map((a) => el("button", { type: "button", class: "call", id: "slap-btn", disabled: wait, onclick: () => act(a) }, t("slapBtn", { card: cardText(a.card) }))),
      legalOf("swap").map((a) => el("button", { type: "button", class: "swap-btn", disabled: wait, onclick: () => act(a) }, t("swapBtn", { card: cardText(a.card) }))),
      decide ? el("button", { type: "button", id: "hint-btn", class: "small-btn", disabled: wait, onclick: () => send({ type: "hint" }) }, t("hintBtn")) : null);
    const why = S.check && S.check.ok === false && S.check.key === cardsKey([...S.selected].map((i) => v.hand[i]))
      ? el("p", { class: "why", id: "why", role: "status" }, engineText(S.check.reason)) : null;
    const hintBox = S.hint && S.hint.version === S.version ? el("p", { class: "hint", id: "hint", role: "status" },
      el("strong", {}, `${t("hintIs")}: `), hintWords(S.hint.action), ".",
      S.hint.odds !== null && S.hint.odds !== undefined ? el("span", { id: "odds" }, " ", t("odds", { p: Math.round(S.hint.odds * 100) })) : null) : null;
    me = el("section", { class: `me${myTurn ? " current" : ""}${wait ? " busy" : ""}`, "data-seat": S.seat, "aria-busy": wait ? "true" : null },
      el("div", { class: "who" }, el("strong", {}, name(S.seat)), ` · ${t("hand", { n: v.hand_value })} · ${t("total", { n: totalOf(S.seat) })} `, clockOf(S.seat)),
      hand, buttons, why, hintBox);
  }
  const logList = el("ol", { class: "log", id: "log", "aria-live": "polite" }, S.log.map((e) => el("li", { class: `ev-${e.type}` }, narrate(e))));
  const side = el("aside", { class: "side" }, el("h2", {}, t("log")), logList, scoreSheet(), rulesBox(t("rulesOf")),
    S.table.turn_seconds ? el("p", { class: "clock-info" }, t("clockOf", { n: S.table.turn_seconds })) : null,
    resumeBox(), el("p", { class: "keys" }, t("keys")), el("p", {}, leaveButton()));
  const overKey = `${v.round}/${v.game_over}`;
  const reveal = v.phase === "round_over" && S.dismissed !== overKey;
  const reopen = v.phase === "round_over" && !reveal
    ? el("button", { type: "button", id: "result-btn", class: "small-btn", onclick: () => { S.dismissed = null; render(); } }, t("showResult")) : null;
  const after = v.game_over ? afterGame() : null;
  const main = el("main", { class: "table" },
    el("div", { class: "board" }, opps, el("p", { class: "status", id: "status", role: "status" }, status, reopen ? " " : null, reopen), after, centre, me),
    side, reveal ? roundOverlay(overKey) : null);
  setTimeout(() => { const l = document.getElementById("log"); if (l) l.scrollTop = l.scrollHeight; });
  return main;
}

// After the game: the rematch (each person says yes; it starts when everyone here has),
// the history's replay and the record to download.
function afterGame() {
  const tb = S.table;
  const ready = tb.rematch_ready || [];
  const mine = S.seat !== null && ready.includes(S.seat);
  const people = tb.seats.map((s, p) => [s, p]).filter(([s]) => s.kind === "human");
  return el("section", { class: "after panel", id: "after" },
    el("h2", {}, t("gameOver")),
    el("p", { class: "winner" }, t("winner", { names: S.view.winners.map(name).join(", ") })),
    S.seat === null ? el("p", {}, t("rematchWatch"))
      : el("p", {}, el("button", { type: "button", id: "rematch-btn", class: mine ? "" : "primary", "aria-pressed": mine ? "true" : "false", onclick: () => send({ type: "rematch", ready: !mine }) }, mine ? t("rematchCancel") : t("rematch"))),
    el("p", { id: "rematch-ready" }, t("rematchReady", { names: people.map(([s, p]) => `${s.name} ${ready.includes(p) ? "✓" : "…"}`).join(", ") })),
    el("p", {}, el("a", { href: `/t/${S.tableId}/history`, id: "history-link" }, t("history")), " · ",
      el("a", { href: `/api/tables/${S.tableId}/record`, id: "record-link", download: `yaniv-${S.tableId}.jsonl` }, t("download"))));
}

function roundOverlay(overKey) {
  const v = S.view;
  const r = v.result;
  if (!r) return null;
  const rows = S.table.seats.map((s, p) => el("tr", { class: r.assafers.includes(p) || p === r.caller ? "hl" : "" },
    el("th", {}, s.name || `P${p}`),
    el("td", { class: "cards-cell" }, v.hands_shown && v.hands_shown[p] ? v.hands_shown[p].map((c) => cardElement(c, { small: true })) : "–"),
    el("td", {}, r.values[p] ?? "–"),
    el("td", {}, r.round_scores[p] >= 0 ? `+${r.round_scores[p]}` : String(r.round_scores[p])),
    el("td", {}, String(r.totals[p]) + (r.eliminated.includes(p) ? ` (${t("out")})` : ""))));
  const ready = S.table.ready.includes(S.seat);
  const extra = [];
  if (r.landed.length) extra.push(t("landed", { names: r.landed.map(name).join(", ") }));
  const box = el("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "round-title" },
    el("div", { class: "panel result" },
      el("h2", { id: "round-title" }, v.game_over ? t("gameOver") : t("roundOver", { n: v.round })),
      el("p", { class: "head" }, resultHead(r)),
      extra.map((x) => el("p", {}, x)),
      el("table", {}, el("thead", {}, el("tr", {}, el("th", {}), el("th", {}), el("th", {}, t("value")), el("th", {}, t("score")), el("th", {}, t("totalCol")))), el("tbody", {}, rows)),
      v.game_over ? el("p", { class: "winner", id: "winner" }, t("winner", { names: v.winners.map(name).join(", ") })) : null,
      el("div", { class: "row" },
        S.seat === null || v.game_over ? null
          : ready ? el("p", {}, t("readyWait"))
            : el("button", { type: "button", id: "next-btn", class: "primary", onclick: () => send({ type: "ready" }) }, t("nextRound")),
        el("button", { type: "button", id: "close-result", onclick: () => { S.dismissed = overKey; render(); } }, v.game_over ? t("seeTable") : t("closeResult")))));
  return box;
}

// ------------------------------------------------------------------ a finished game's replay

function stepTo(n) {
  if (!S.hist || !S.hist.steps) return;
  S.step = Math.max(0, Math.min(S.hist.steps.length - 1, n));
  render();
}

function historyPage() {
  const h = S.hist;
  if (!h) return el("main", { class: "home" }, el("p", { class: "panel" }, "…"));
  if (h.error) {
    return el("main", { class: "home" }, el("p", { class: "panel", id: "no-history" },
      t(h.error === 409 ? "historyLater" : "notFound"), " ", el("a", { href: `/t/${S.tableId}` }, t("backToTable"))));
  }
  const steps = h.steps;
  const st = steps[S.step];
  const rtl = document.documentElement.dir === "rtl";
  const who = (p) => (S.table && S.table.seats[p] && S.table.seats[p].name) || h.names[p] || `P${p}`;
  const btn = (id, label, to, off) => el("button", { type: "button", id, disabled: off, onclick: () => stepTo(to) }, label);
  const controls = el("div", { class: "row replay-controls" },
    // the arrows point the way the page reads (right to left in Hebrew)
    btn("step-first", rtl ? "⏭" : "⏮", 0, S.step === 0), btn("step-prev", `${rtl ? "▶" : "◀"} ${t("back")}`, S.step - 1, S.step === 0),
    el("span", { id: "step-no", class: "step-no" }, t("stepOf", { n: S.step + 1, of: steps.length })),
    btn("step-next", `${t("forward")} ${rtl ? "◀" : "▶"}`, S.step + 1, S.step === steps.length - 1),
    btn("step-last", rtl ? "⏮" : "⏭", steps.length - 1, S.step === steps.length - 1));
  const hands = el("div", { class: "opponents" }, st.hands.map((cards, p) => el("div", { class: `player${st.current === p ? " current" : ""}${st.event.seat === p ? " last-mover" : ""}`, "data-seat": p },
    el("div", { class: "who" }, el("strong", {}, who(p))),
    el("div", { class: "total" }, t("total", { n: st.totals[p] }), ` · ${t("hand", { n: st.values[p] })}`),
    el("div", { class: "backs" }, cards.map((c) => cardElement(c, { small: true }))))));
  return el("main", { class: "home" }, el("section", { class: "panel replay", id: "replay" },
    el("h1", {}, t("historyOf", { id: S.tableId })),
    el("p", {}, t("roundN", { n: st.round }), " · ", t("stock"), `: ${st.stock}`),
    el("p", { class: "narration", id: "narration", role: "status" }, narrate(st.event)),
    el("div", { class: "centre" }, el("div", { class: "group" }, st.top.map((c) => cardElement(c)))),
    hands, controls,
    el("p", { class: "keys" }, t("replayKeys")),
    el("p", {}, el("a", { href: `/api/tables/${S.tableId}/record`, id: "record-link", download: `yaniv-${S.tableId}.jsonl` }, t("download")), " · ",
      el("a", { href: `/t/${S.tableId}` }, t("backToTable")))));
}

// ------------------------------------------------------------------ render & keys

function render() {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key || document.activeElement.id : null;
  const v = S.view;
  const myTurn = S.page === "table" && v && S.seat !== null && v.current === S.seat && v.phase !== "round_over" && !v.game_over;
  document.title = myTurn ? `▶ ${t("yourTurn")} · ${t("title")}` : t("title");
  if (myTurn && !S.wasMyTurn && S.sound) beep();
  S.wasMyTurn = !!myTurn;
  let page;
  if (S.page === "home") page = homePage();
  else if (S.page === "join") page = joinPage();
  else if (S.page === "missing") page = el("main", { class: "home" }, el("p", { class: "panel" }, t("notFound"), " ", el("a", { href: "/" }, t("home"))));
  else if (S.page === "lobbyList") page = lobbyListPage();
  else if (S.page === "history") page = historyPage();
  else if (S.page === "bye") page = el("main", { class: "home" }, el("p", { class: "panel", id: "bye" }, t(S.bye === "kicked" ? "byeKicked" : "byeLeft"), " ", el("a", { href: "/" }, t("home")), " · ", el("a", { href: "/lobby" }, t("openTables"))));
  else page = tablePage();
  const toast = S.error ? el("div", { class: "toast", role: "alert", id: "error" }, S.error) : null;
  app.replaceChildren(header(), page, toast || "");
  if (focused) {
    const again = app.querySelector(`[data-key="${focused}"]`) || document.getElementById(focused);
    if (again && !again.disabled) again.focus();
  }
}

document.addEventListener("keydown", (e) => {
  if (S.page === "history" && !e.target.matches("input, select, textarea")) {
    const ahead = document.documentElement.dir === "rtl" ? -1 : 1; // right to left: ← goes on
    const go = { ArrowRight: ahead, ArrowLeft: -ahead, Home: -1e9, End: 1e9 }[e.key];
    if (go !== undefined) { stepTo(S.step + go); e.preventDefault(); }
    return;
  }
  if (S.page === "table" && e.key === "Escape") { const b = document.getElementById("close-result"); if (b) { b.click(); e.preventDefault(); } return; }
  if (S.page !== "table" || !S.view || e.target.matches("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const click = (id) => { const b = document.getElementById(id); if (b && !b.disabled) { b.click(); e.preventDefault(); } };
  const key = e.key.toLowerCase();
  if (key === "d") click("discard-btn");
  else if (key === "s") click("stock");
  else if (key === "y") click("yaniv-btn");
  else if (key === "n") click("next-btn");
  else if (key === "h") click("hint-btn");
  else if (/^[1-9]$/.test(key)) {
    const b = app.querySelector(`[data-key="hand-${Number(key) - 1}"]`);
    if (b && !b.disabled) { b.click(); e.preventDefault(); }
  }
});

route();
