// A phone as one seat's private handheld: hold to see the clan, let go and it is gone.
// The clan arrives over the live channel only while the button is held, and is removed
// from the page on release (nothing of it stays for a screenshot or the app switcher).
"use strict";
const token = location.pathname.split("/")[2] || "";
const $ = (id) => document.getElementById(id);
let ws = null;
let holding = false;
let hinting = false; // the hint button is held
let hintUrl = null; // the hint's picture while it is shown
let wait = 500;
// The words until the server's hello brings them in the players' language.
let texts = {
  hold: "Hold to see your clan", seen: "I have seen my clan",
  only_you: "Only you look at this phone.", over: "The game is over.",
  waiting: "This seat has a phone already: confirm on the table's screen.",
  replaced: "This seat is on another phone now.",
  won: "You won!", place: "Place {place} of {players}",
  hint: "Press and hold to see your hint", hint_wait: "Looking for your hint…",
  no_hint: "No hint this time",
};

function hide() {
  holding = false;
  $("secret").replaceChildren();
}

function show(clan, label) {
  if (!holding) return; // let go before it came: show nothing
  const swatch = document.createElement("div");
  swatch.className = "swatch clan-" + clan;
  const name = document.createElement("p");
  name.textContent = label;
  $("secret").replaceChildren(swatch, name);
  $("seen").hidden = false;
}

// The hint (the player to move, hints on): the board with the suggested move, a picture
// that comes over the live channel while the button is held and is dropped on release.
function hideHint() {
  hinting = false;
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

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/p/" + token + "/live");
  ws.binaryType = "blob";
  ws.onopen = () => { wait = 500; };
  ws.onmessage = (event) => {
    if (event.data instanceof Blob) { showHint(event.data); return; }
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") {
      texts = msg.texts || texts;
      $("name").textContent = msg.name;
      $("hold").textContent = texts.hold;
      $("seen").textContent = texts.seen;
      $("hint").textContent = texts.hint;
      $("hint").hidden = !msg.hint; // the player to move, hints on
      $("status").textContent = msg.over ? texts.over : texts.only_you;
      $("hold").disabled = false;
    } else if (msg.type === "clan") {
      show(msg.clan, msg.label);
    } else if (msg.type === "hidden") {
      hide();
    } else if (msg.type === "turn") {
      $("hint").hidden = !msg.hint;
      if (!msg.hint) hideHint();
    } else if (msg.type === "hint") {
      if (!hinting) return;
      if (msg.state === "thinking") hintWord(texts.hint_wait);
      else if (msg.state === "none") hintWord(texts.no_hint);
    } else if (msg.type === "result") {
      // The game is over: the clans are revealed, so the result stays on the page.
      const swatch = document.createElement("div");
      swatch.className = "swatch clan-" + msg.clan;
      const name = document.createElement("p");
      name.textContent = msg.label;
      const how = document.createElement("p");
      how.className = "result";
      how.textContent = msg.won ? texts.won : texts.place
        .replace("{place}", msg.place).replace("{players}", msg.players);
      $("result").replaceChildren(swatch, name, how);
      $("status").textContent = texts.over;
      $("hold").hidden = true;
      $("seen").hidden = true;
      $("hint").hidden = true;
      hideHint();
    } else if (msg.type === "waiting") {
      $("status").textContent = texts.waiting;
    } else if (msg.type === "replaced") {
      $("status").textContent = texts.replaced;
      $("hold").disabled = true;
      hide();
    }
  };
  ws.onclose = () => {
    hide();
    hideHint();
    $("hint").hidden = true;
    $("hold").disabled = true;
    $("status").textContent = "Connecting…";
    setTimeout(connect, wait);
    wait = Math.min(wait * 2, 8000);
  };
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
  send("hold");
});
for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
  hold.addEventListener(name, release);
}
hold.addEventListener("contextmenu", (event) => event.preventDefault());
document.addEventListener("visibilitychange", release);
window.addEventListener("blur", release);
const hint = $("hint");
hint.addEventListener("pointerdown", (event) => {
  event.preventDefault();
  hinting = true;
  hintWord(texts.hint_wait);
  send("hint");
});
for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
  hint.addEventListener(name, () => { if (hinting) send("hint_off"); hideHint(); });
}
hint.addEventListener("contextmenu", (event) => event.preventDefault());
$("seen").addEventListener("click", () => { send("seen"); $("seen").hidden = true; });
connect();
