// A phone as one seat's private handheld: hold to see the clan, let go and it is gone.
// The clan arrives over the live channel only while the button is held, and is removed
// from the page on release (nothing of it stays for a screenshot or the app switcher).
"use strict";
const token = location.pathname.split("/")[2] || "";
const $ = (id) => document.getElementById(id);
let ws = null;
let holding = false;
let mayHint = false; // the player to move, hints on: the hint button shows
let hinting = false; // the hint button is held
let hintUrl = null; // the hint's picture while it is shown
let wait = 500;
let state = "connecting";
// The words until the server's hello brings them in the players' language (kept from the
// last hello, so "Connecting…" is in it after a reload too).
let texts = {
  connecting: "Connecting…",
  hold: "Hold to see your clan", seen: "I have seen my clan",
  only_you: "Only you look at this phone.", over: "The game is over.",
  waiting: "This seat has a phone already: confirm on the table's screen.",
  replaced: "This seat is on another phone now.",
  won: "You won!", place: "Place {place} of {players}",
  hint: "Press and hold to see your hint", hint_wait: "Looking for your hint…",
  no_hint: "No hint this time",
};
try {
  texts = { ...texts, ...JSON.parse(localStorage.getItem("clans-texts") || "{}") };
} catch (e) { /* private browsing: English until the hello */ }

// The page's states: what the window says and what the hold button does in each (the hint
// button shows with the hold button, when the table says this seat may hint).
const STATES = {
  connecting: { status: "connecting", hold: "off" },
  ready: { status: "only_you", hold: "on" },
  waiting: { status: "waiting", hold: "off" },
  replaced: { status: "replaced", hold: "gone" },
  over: { status: "over", hold: "gone" },
  ended: { status: "over", hold: "gone" }, // this link's game is over: no more tries
};

function enter(next) {
  state = next;
  const how = STATES[next];
  document.body.className = next;
  $("status").textContent = texts[how.status];
  $("hold").textContent = texts.hold;
  $("seen").textContent = texts.seen;
  $("hint").textContent = texts.hint;
  $("hold").disabled = how.hold !== "on";
  $("hold").hidden = how.hold === "gone";
  if (how.hold !== "on") $("seen").hidden = true;
  showHintButton();
}

function showHintButton() {
  const on = mayHint && STATES[state].hold === "on";
  $("hint").hidden = !on;
  if (!on) hideHint();
}

function hide() {
  holding = false;
  document.body.classList.remove("held");
  $("secret").replaceChildren();
}

function swatch(msg) {
  const box = document.createElement("div");
  box.className = "swatch clan-" + msg.clan + (msg.mark ? " mark-" + msg.mark : "");
  const name = document.createElement("p");
  name.textContent = msg.label;
  box.append(name);
  return box;
}

function show(msg) {
  if (!holding) return; // let go before it came: show nothing
  $("secret").replaceChildren(swatch(msg));
  $("seen").hidden = false;
}

// The hint (the player to move, hints on): the board with the suggested move, a picture
// that comes over the live channel while the button is held and is dropped on release.
function hideHint() {
  hinting = false;
  document.body.classList.remove("hinting");
  if (hintUrl) URL.revokeObjectURL(hintUrl);
  hintUrl = null;
  $("hintbox").replaceChildren();
}

function hintWord(text) {
  const word = document.createElement("p");
  word.textContent = text;
  $("hintbox").replaceChildren(word);
}

function showHint(blob) {
  if (!hinting) return; // let go before it came: show nothing
  if (hintUrl) URL.revokeObjectURL(hintUrl);
  hintUrl = URL.createObjectURL(blob);
  const picture = document.createElement("img");
  picture.src = hintUrl;
  picture.alt = texts.hint;
  $("hintbox").replaceChildren(picture);
}

function send(type) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type }));
}

// The seat's name, picture and words (also for a phone that waits to take the seat over).
function introduce(msg) {
  texts = { ...texts, ...(msg.texts || {}) };
  try { localStorage.setItem("clans-texts", JSON.stringify(texts)); } catch (e) { /* fine */ }
  if (msg.lang) document.documentElement.lang = msg.lang;
  document.title = msg.name;
  $("name").textContent = msg.name;
  const picture = $("picture");
  if (msg.picture) {
    picture.src = "/p/" + token + "/picture.png";
    picture.hidden = false;
  } else {
    picture.removeAttribute("src");
    picture.hidden = true;
  }
}

let resultClan = null; // the seat's clan once revealed: its chart is drawn in its colour

function result(msg) {
  // The game is over: the clans are revealed, so the result stays on the page.
  hide();
  resultClan = msg.clan;
  const how = document.createElement("p");
  how.className = "result";
  how.textContent = msg.won ? texts.won : texts.place
    .replace("{place}", msg.place).replace("{players}", msg.players);
  $("result").replaceChildren(swatch(msg), how);
  enter("over");
  $("status").hidden = true;
}

// After the game: how sure the others were of this seat's clan after each move (its own
// numbers only; a line under the title says that it is the computers' reading), the blind
// guess dashed, the moves that gave it away marked and listed, numbered as on the table's
// screen (1: the move that told the table most). Room is left round the plot for the labels
// and for a point at 99 % with its dot.
const CHART = { w: 300, h: 150, left: 48, right: 12, top: 14, bottom: 30 };

function hiding(msg) {
  const svgNS = "http://www.w3.org/2000/svg";
  const { w, h, left, right, top, bottom } = CHART;
  const curve = msg.curve || [], labels = msg.labels || {}, giveaways = msg.giveaways || [];
  const n = Math.max(1, curve.length - 1);
  const clamp = (p) => Math.max(0, Math.min(1, p));
  const at = (k, p) => [(left + (w - left - right) * k / n).toFixed(1),
    (h - bottom - (h - top - bottom) * clamp(p)).toFixed(1)];
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  svg.setAttribute("class", "chart");
  const add = (parent, tag, attrs, text) => {
    const el = document.createElementNS(svgNS, tag);
    for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
    if (text !== undefined) el.textContent = text;
    parent.appendChild(el);
    return el;
  };
  const line = (cls, pts) => add(svg, "polyline",
    { points: pts.map((p) => p.join(",")).join(" "), class: cls });
  for (const p of [0, 0.5, 1]) {
    const y = at(0, p)[1];
    line("grid", [at(0, p), at(n, p)]);
    add(svg, "text", { x: left - 8, y, class: "label percent" }, Math.round(100 * p) + " %");
  }
  line("blind", [at(0, msg.blind), at(n, msg.blind)]);
  if (labels.blind) {
    add(svg, "text", { x: w - right, y: +at(n, msg.blind)[1] - 7, class: "label blind-label" },
      labels.blind);
  }
  if (labels.first) add(svg, "text", { x: left, y: h - 11, class: "label first" }, labels.first);
  if (labels.last) add(svg, "text", { x: w - right, y: h - 11, class: "label last" }, labels.last);
  line("edge", curve.map((p, k) => at(k, p)));
  line("curve", curve.map((p, k) => at(k, p)));
  giveaways.forEach((g, i) => {
    const [x, y] = at(g.move, g.after);
    const dot = add(svg, "g", { class: "giveaway" });
    add(dot, "circle", { cx: x, cy: y, r: 9 });
    add(dot, "text", { x, y, class: "number" }, String(i + 1));
  });
  const title = document.createElement("h2");
  title.textContent = msg.title;
  // What the percentages are (the computers' reading: for people, an estimate).
  const note = document.createElement("p");
  note.className = "note";
  note.textContent = msg.note || "";
  const verdict = document.createElement("p");
  verdict.className = "verdict";
  verdict.textContent = msg.verdict;
  const list = document.createElement("ol");
  giveaways.forEach((g, i) => {
    const item = document.createElement("li");
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = String(i + 1);
    const words = document.createElement("span");
    words.textContent = g.line.replace(/ %/g, "\u00a0%"); // "74 %" kept on one line
    item.append(number, words);
    list.appendChild(item);
  });
  let box = $("result").querySelector(".hiding");
  if (!box) {
    box = document.createElement("div");
    box.className = "hiding";
  }
  box.className = "hiding" + (resultClan ? " clan-" + resultClan : "");
  box.replaceChildren(title, ...(msg.note ? [note] : []), svg, verdict,
    ...(giveaways.length ? [list] : []));
  $("result").appendChild(box); // under the result, which came first
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/p/" + token + "/live");
  ws.binaryType = "blob";
  ws.onopen = () => { wait = 500; };
  ws.onmessage = (event) => {
    if (event.data instanceof Blob) { showHint(event.data); return; }
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") {
      introduce(msg);
      mayHint = !!msg.hint;
      enter(msg.over ? "over" : "ready");
    } else if (msg.type === "turn") { mayHint = !!msg.hint; showHintButton(); }
    else if (msg.type === "hint") {
      if (!hinting) return;
      if (msg.state === "thinking") hintWord(texts.hint_wait);
      else if (msg.state === "none") hintWord(texts.no_hint);
    }
    else if (msg.type === "clan") show(msg);
    else if (msg.type === "hidden") hide();
    else if (msg.type === "result") result(msg);
    else if (msg.type === "hiding") hiding(msg);
    else if (msg.type === "waiting") { introduce(msg); enter("waiting"); }
    else if (msg.type === "replaced") { hide(); enter("replaced"); }
  };
  ws.onclose = () => {
    hide();
    mayHint = false;
    if (state === "replaced" || state === "ended") return;
    if (!$("result").hasChildNodes()) enter("connecting"); // a result stays while it tries
    setTimeout(retry, wait);
    wait = Math.min(wait * 2, 8000);
  };
}

function retry() {
  // An old game's link (a new game made new ones) says so instead of trying for ever; a
  // link the table refuses now gets the table's own page, which says why in the players'
  // language and tries again by itself, slowly (never a channel that counts as a wrong link).
  fetch(location.pathname, { cache: "no-store" })
    .then((r) => {
      if (r.status === 410) enter("ended");
      else if (r.status === 403 || r.status === 429) location.reload();
      else connect();
    })
    .catch(connect);
}

function release() {
  if (holding) send("release");
  hide();
  if (hinting) send("hint_off");
  hideHint();
}

const hold = $("hold");
hold.addEventListener("pointerdown", (event) => {
  event.preventDefault();
  holding = true;
  document.body.classList.add("held");
  send("hold");
});
for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
  hold.addEventListener(name, release);
}
const hint = $("hint");
hint.addEventListener("pointerdown", (event) => {
  event.preventDefault();
  hinting = true;
  document.body.classList.add("hinting");
  hintWord(texts.hint_wait);
  send("hint");
});
for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
  hint.addEventListener(name, () => { if (hinting) send("hint_off"); hideHint(); });
}
document.addEventListener("contextmenu", (event) => event.preventDefault());
document.addEventListener("selectstart", (event) => event.preventDefault());
document.addEventListener("visibilitychange", release);
window.addEventListener("blur", release);
$("seen").addEventListener("click", () => { send("seen"); $("seen").hidden = true; });
enter("connecting");
connect();
