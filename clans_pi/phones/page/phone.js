// A phone as one seat's private handheld: hold to see the clan, let go and it is gone.
// The clan arrives over the live channel only while the button is held, and is removed
// from the page on release (nothing of it stays for a screenshot or the app switcher).
"use strict";
const token = location.pathname.split("/")[2] || "";
const $ = (id) => document.getElementById(id);
let ws = null;
let holding = false;
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
};
try {
  texts = { ...texts, ...JSON.parse(localStorage.getItem("clans-texts") || "{}") };
} catch (e) { /* private browsing: English until the hello */ }

// The page's states: what the window says and what the hold button does in each.
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
  $("hold").disabled = how.hold !== "on";
  $("hold").hidden = how.hold === "gone";
  if (how.hold !== "on") $("seen").hidden = true;
}

function hide() {
  holding = false;
  document.body.classList.remove("held");
  $("secret").replaceChildren();
}

function swatch(msg) {
  const box = document.createElement("div");
  box.className = "swatch clan-" + msg.clan + " mark-" + msg.mark;
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

function result(msg) {
  // The game is over: the clans are revealed, so the result stays on the page.
  hide();
  const how = document.createElement("p");
  how.className = "result";
  how.textContent = msg.won ? texts.won : texts.place
    .replace("{place}", msg.place).replace("{players}", msg.players);
  $("result").replaceChildren(swatch(msg), how);
  enter("over");
  $("status").hidden = true;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/p/" + token + "/live");
  ws.onopen = () => { wait = 500; };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") { introduce(msg); enter(msg.over ? "over" : "ready"); }
    else if (msg.type === "clan") show(msg);
    else if (msg.type === "hidden") hide();
    else if (msg.type === "result") result(msg);
    else if (msg.type === "waiting") { introduce(msg); enter("waiting"); }
    else if (msg.type === "replaced") { hide(); enter("replaced"); }
  };
  ws.onclose = () => {
    hide();
    if (state === "replaced" || state === "ended") return;
    if (!$("result").hasChildNodes()) enter("connecting"); // a result stays while it tries
    setTimeout(retry, wait);
    wait = Math.min(wait * 2, 8000);
  };
}

function retry() {
  // An old game's link (a new game made new ones) says so instead of trying for ever.
  fetch(location.pathname, { cache: "no-store" })
    .then((r) => { if (r.status === 410) enter("ended"); else connect(); })
    .catch(connect);
}

function release() {
  if (holding) send("release");
  hide();
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
document.addEventListener("contextmenu", (event) => event.preventDefault());
document.addEventListener("selectstart", (event) => event.preventDefault());
document.addEventListener("visibilitychange", release);
window.addEventListener("blur", release);
$("seen").addEventListener("click", () => { send("seen"); $("seen").hidden = true; });
enter("connecting");
connect();
