// A person's seat: the board of the game's own view, only the legal moves offered, the server's
// answers shown. Everything goes through the documented API (/api/seats/ID), so a script can do
// the same. Where the game has pointing cells (Piranhas), a click on a piece then on its target
// sends the move; every game also lists its legal moves to click.
"use strict";

const seatId = decodeURIComponent(location.pathname.split("/").pop());
const api = "/api/seats/" + encodeURIComponent(seatId);
const $ = id => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let seat = null, picked = null, version = -1, sending = false, turnShownAt = 0;

function text(id, value) { $(id).textContent = value ?? ""; }

function showClock() {
  if (!seat) return;
  const clock = seat.clock || {};
  const deadline = clock.deadline_ms ? " (deadline " + (clock.deadline_ms / 1000) + " s)" : " (no deadline)";
  if (seat.your_turn && clock.waiting_ms !== null) {
    const waited = clock.waiting_ms + (Date.now() - turnShownAt);
    text("clock", "your turn for " + (waited / 1000).toFixed(1) + " s" + deadline);
  } else text("clock", (seat.over ? "game over" : "waiting for the other side") + deadline);
}

function show(data) {
  seat = data;
  version = data.version;
  turnShownAt = Date.now();
  text("title", data.title + " \u2014 seat " + data.color);
  document.title = data.title + " \u2014 your seat";
  text("color", data.color);
  $("watch").href = data.game_id ? "/game/" + encodeURIComponent(data.game_id) : "/";
  text("status", data.over ? "finished" : (data.your_turn ? "your turn" : "waiting"));
  $("status").className = "status " + (data.over ? "finished" : "running");
  const players = $("players");
  players.replaceChildren();
  for (const p of data.players || []) {
    const item = document.createElement("li");
    item.textContent = String(p.seat).toUpperCase() + " (" + p.name + ")";
    players.appendChild(item);
  }
  text("to-move", data.over ? "\u2014" : (data.to_move || "\u2014"));
  text("turn", data.turn === null ? "" : "turn " + data.turn);
  text("last-move", data.last_move || "\u2014");
  $("error").hidden = !data.error;
  text("error", data.error ? "The server says: " + data.error : "");
  if (data.svg) $("board").innerHTML = data.svg;
  $("board").dataset.version = data.version;
  $("board").dataset.yourTurn = data.your_turn ? "1" : "0";
  picked = null;
  showMoves();
  showResult();
  $("closed").hidden = !data.closed || !!data.result;
  text("closed", data.closed ? "This seat is closed: " + data.closed : "");
  showClock();
}

function showResult() {
  const rows = seat.result_rows;
  $("result-box").hidden = !(seat.over && rows);
  const body = $("result").querySelector("tbody");
  body.replaceChildren();
  for (const r of rows || []) {
    const row = document.createElement("tr");
    for (const cell of [r.rank ?? "-", String(r.seat).toUpperCase(), r.name, r.cause, r.score.join(" / "), r.reason || ""]) {
      const td = document.createElement("td");
      td.textContent = cell;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

// The list of legal moves (every game), and on a board with cells the frames to click.
function showMoves() {
  const moves = seat.your_turn ? seat.moves || [] : [];
  $("moves-box").hidden = moves.length === 0;
  const list = $("moves");
  list.replaceChildren();
  for (const m of moves) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.index = m.index;
    button.textContent = m.text;
    button.addEventListener("click", () => send(m.index));
    item.appendChild(button);
    list.appendChild(item);
  }
  drawTargets(moves);
}

function drawTargets(moves) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const old = svg.querySelector("g.seat-targets");
  if (old) old.remove();
  const boxes = seat.cells;
  const pointed = moves.filter(m => m.cells && m.cells.length >= 2);
  if (!boxes || pointed.length === 0) { text("hint", moves.length ? "Pick a move from the list." : ""); return; }
  const layer = document.createElementNS(SVG, "g");
  layer.setAttribute("class", "seat-targets");
  let cells;
  if (picked === null) cells = [...new Set(pointed.map(m => m.cells[0]))];
  else cells = pointed.filter(m => m.cells[0] === picked).map(m => m.cells[1]);
  for (const cell of cells) {
    const [x, y, w, h] = boxes[cell];
    const frame = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({x, y, width: w, height: h}))
      frame.setAttribute(k, v);
    frame.setAttribute("class", picked === null ? "seat-target seat-from" : "seat-target seat-to");
    frame.dataset.cell = cell;
    frame.addEventListener("click", () => point(cell));
    layer.appendChild(frame);
  }
  if (picked !== null) {
    const [x, y, w, h] = boxes[picked];
    const mark = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({x, y, width: w, height: h})) mark.setAttribute(k, v);
    mark.setAttribute("class", "seat-target seat-picked");
    mark.dataset.cell = picked;
    mark.addEventListener("click", () => { picked = null; drawTargets(moves); });
    layer.appendChild(mark);
  }
  svg.appendChild(layer);
  text("hint", picked === null ? "Click a piece to move (framed), or pick a move from the list."
                               : "Click its target (framed), or the piece again to choose another.");
}

function point(cell) {
  const moves = seat.moves || [];
  if (picked === null) { picked = cell; drawTargets(moves); return; }
  const move = moves.find(m => m.cells && m.cells[0] === picked && m.cells[1] === cell);
  if (move) send(move.index);
}

async function send(index) {
  if (sending) return;
  sending = true;
  try {
    const response = await fetch(api + "/move", {method: "POST", headers: {"Content-Type": "application/json"},
                                                 body: JSON.stringify({index})});
    const data = await response.json();
    if (response.ok) show(data); else { $("error").hidden = false; text("error", data.error); }
  } finally { sending = false; }
}

async function follow() {
  for (;;) {
    try {
      const response = await fetch(api + "?after=" + version);
      if (response.status === 404) { text("closed", "No such seat here."); $("closed").hidden = false; return; }
      const data = await response.json();
      if (data.version !== version || !seat) show(data);
      if (seat.over && seat.result_rows) return;
    } catch (error) { await new Promise(done => setTimeout(done, 1000)); }
  }
}

setInterval(showClock, 200);
fetch(api).then(r => r.json()).then(data => { if (data.seat) show(data); follow(); });
