// The game page: one game's steps, live or from a file. The URL names the step (?step=N), so a
// position can be sent as a link; without one a live game follows its newest state.
"use strict";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const api = "/api/games/" + encodeURIComponent(gameId);
const $ = id => document.getElementById(id);
let needPassphrase = false;  // off loopback the room's buttons send the admin passphrase
let count = 0, index = 0, follow = true, playing = null, summary = null, loading = 0, shown = -1, source = null, streamed = null;

function text(id, value) { $(id).textContent = value ?? ""; }


// The result belongs to the last step: earlier steps show the game as it was then.
function showResult() { $("result-box").hidden = !(summary && summary.result) || index !== count - 1; }

function showCounter() { text("counter", "\u00b7 step " + (index + 1) + " of " + count); }

const PAUSE_ICON = '<svg class="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="M3 2h3.5v12H3zM9.5 2H13v12H9.5z"/></svg>';

function showSummary(data) {
  if (data.step && follow) { loading++; drawStep(data.step); }
  summary = data;
  text("title", data.title + (data.source !== "live" ? " \u2014 " + data.source : ""));
  document.title = data.title + " \u2014 swc-local";
  // a game an admin cancelled says so (its result rows: CANCELLED), not just "finished"
  const cancelled = data.status === "finished" && (data.result || []).some(r => r.cause === "CANCELLED");
  text("status", cancelled ? "cancelled" : data.status);
  $("status").className = "status " + (cancelled ? "cancelled" : data.status);
  const players = $("players");
  players.replaceChildren();
  for (const p of data.players) {
    const item = document.createElement("li");
    item.textContent = playerName(p);
    players.appendChild(item);
  }
  fillResultTable(data.result);
  $("play-from").hidden = !data.can_play_from;
  showControls(data.controls || []);
  count = data.count;
  $("scrub").max = Math.max(0, count - 1);
  if (follow) go(count - 1, false); else showCounter();
  showResult();
}

async function showStep(wanted) {
  const ticket = ++loading;
  const response = await fetch(api + "/steps/" + wanted);
  if (!response.ok || ticket !== loading) return;
  drawStep(await response.json());
}

function drawStep(step) {
  shown = step.index;
  const board = $("board");
  if (step.svg) board.innerHTML = step.svg;
  else {  // no picture of this game (yet): its text board instead
    const pre = document.createElement("pre");
    pre.className = "text-board";
    pre.textContent = step.text;
    board.replaceChildren(pre);
  }
  board.dataset.step = step.index;
  text("step-label", step.label);
  text("to-move", step.to_move || "\u2014");
  text("last-move", step.note || "\u2014");
  text("text", step.text);
}

function go(target, byUser = true) {
  if (count === 0) return;
  index = Math.max(0, Math.min(count - 1, target));
  if (byUser) {
    const was = follow;
    follow = index === count - 1 && summary && summary.status !== "finished";
    if (was !== follow) listen();
  }
  $("scrub").value = index;
  showCounter();
  showResult();
  const params = new URLSearchParams(location.search);
  if (byUser) { params.set("step", index); history.replaceState(null, "", "?" + params); }
  if (index !== shown) showStep(index);
}

function togglePlay() {
  if (playing) { clearInterval(playing); playing = null; $("play").textContent = "\u25B6"; return; }
  if (index >= count - 1) go(0);
  $("play").innerHTML = PAUSE_ICON;
  playing = setInterval(() => {
    if (index >= count - 1) { if (summary.status === "finished") togglePlay(); return; }
    go(index + 1);
  }, Number($("speed").value));
}

// An admin's buttons for a live room: only the actions possible now are shown.
function showControls(controls) {
  $("room-controls").hidden = controls.length === 0;
  if (!controls.includes("cancel")) $("cancel-confirm").hidden = true;
  for (const button of $("control-form").querySelectorAll("button"))
    button.hidden = !controls.includes(button.dataset.action);
}

async function control(action) {
  const body = {action};
  if (needPassphrase) body.passphrase = $("control-passphrase").value;
  const response = await fetch(api + "/control", {method: "POST", headers: {"Content-Type": "application/json"},
                                                  body: JSON.stringify(body)});
  const data = await response.json();
  text("control-result", response.ok ? action + ": done" : data.error);
  if (response.ok) showControls(data.controls);
}

function bind() {
  // Cancel ends the game for good: it asks first, in the page (Yes / No)
  for (const button of $("control-form").querySelectorAll("button"))
    button.addEventListener("click", () => {
      if (button.dataset.action === "cancel") { $("cancel-confirm").hidden = false; return; }
      control(button.dataset.action);
    });
  $("cancel-yes").addEventListener("click", () => { $("cancel-confirm").hidden = true; control("cancel"); });
  $("cancel-no").addEventListener("click", () => { $("cancel-confirm").hidden = true; });
  const moves = {first: () => 0, back100: () => index - 100, back10: () => index - 10, back: () => index - 1,
                 forward: () => index + 1, forward10: () => index + 10, forward100: () => index + 100, last: () => count - 1};
  for (const [id, where] of Object.entries(moves)) $(id).addEventListener("click", () => go(where()));
  $("play").addEventListener("click", togglePlay);
  $("speed").addEventListener("change", () => { if (playing) { togglePlay(); togglePlay(); } });
  $("scrub").addEventListener("input", event => go(Number(event.target.value)));
  document.addEventListener("keydown", event => {
    if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
    const step = event.ctrlKey || event.metaKey ? 100 : (event.shiftKey ? 10 : 1);
    if (event.key === "ArrowLeft") go(index - step);
    else if (event.key === "ArrowRight") go(index + step);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(count - 1);
    else if (event.key === " ") togglePlay();
    else return;
    event.preventDefault();
  });
  $("play-form").addEventListener("submit", async event => {
    event.preventDefault();
    const response = await fetch(api + "/play-from/" + index, {method: "POST", headers: {"Content-Type": "application/json"},
                                                               body: JSON.stringify({passphrase: $("passphrase").value})});
    const data = await response.json();
    text("play-result", response.ok
      ? `room ${data.room} (${data.game}, turn ${data.turn})\nreservation codes:\n${data.reservations.join("\n")}`
      : data.error);
  });
}

async function start() {
  bind();
  const wanted = new URLSearchParams(location.search).get("step");
  const response = await fetch(api);
  const data = await response.json();
  needPassphrase = Boolean(data.controls_need_passphrase);
  $("control-passphrase").hidden = !needPassphrase;
  $("passphrase").hidden = data.play_from_needs_passphrase === false;  // loopback, no passphrase of its own
  if (wanted !== null && /^-?\d+$/.test(wanted)) { follow = false; index = Number(wanted); if (index < 0) index += data.count; }
  showSummary(data);
  if (!follow) go(index, false);
  listen();
}

// A live game's events; while the page follows the newest state, they carry it already drawn.
function listen() {
  if (!summary || summary.status === "finished") { if (source) source.close(); source = null; return; }
  if (source && streamed === follow) return;
  if (source) source.close();
  streamed = follow;
  source = new EventSource(api + "/stream" + (follow ? "?step=1" : ""));
  source.onmessage = event => { showSummary(JSON.parse(event.data)); if (summary.status === "finished") listen(); };
}

start();
