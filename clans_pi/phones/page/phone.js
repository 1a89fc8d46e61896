// A phone as one seat's private handheld: hold to see the clan, let go and it is gone.
// The clan arrives over the live channel only while the button is held, and is removed
// from the page on release (nothing of it stays for a screenshot or the app switcher).
"use strict";
const token = location.pathname.split("/")[2] || "";
const $ = (id) => document.getElementById(id);
let ws = null;
let holding = false;
let wait = 500;
// The words until the server's hello brings them in the players' language.
let texts = {
  hold: "Hold to see your clan", seen: "I have seen my clan",
  only_you: "Only you look at this phone.", over: "The game is over.",
  waiting: "This seat has a phone already: confirm on the table's screen.",
  replaced: "This seat is on another phone now.",
  won: "You won!", place: "Place {place} of {players}",
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

function send(type) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/p/" + token + "/live");
  ws.onopen = () => { wait = 500; };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") {
      texts = msg.texts || texts;
      $("name").textContent = msg.name;
      $("hold").textContent = texts.hold;
      $("seen").textContent = texts.seen;
      $("status").textContent = msg.over ? texts.over : texts.only_you;
      $("hold").disabled = false;
    } else if (msg.type === "clan") {
      show(msg.clan, msg.label);
    } else if (msg.type === "hidden") {
      hide();
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
    $("hold").disabled = true;
    $("status").textContent = "Connecting…";
    setTimeout(connect, wait);
    wait = Math.min(wait * 2, 8000);
  };
}

function release() {
  if (holding) send("release");
  hide();
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
$("seen").addEventListener("click", () => { send("seen"); $("seen").hidden = true; });
connect();
