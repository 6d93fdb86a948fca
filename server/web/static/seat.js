// A person's seat: the board of the game's own view, only the legal moves offered, the server's
// answers shown. Everything goes through the documented API (/api/seats/ID), so a script can do
// the same. Every legal move comes with its steps (board cells and choices beside the board): the
// page offers the steps that lead to a legal move and sends it; the full list stays one click away.
"use strict";

let seat = null, picked = [], version = -1, sending = false, turnShownAt = 0;

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
  // the room's status as the game page shows it: a paused room is "paused" on both pages
  const paused = !data.over && data.status === "paused";
  const ended = (data.result_rows || []).some(r => r.cause === "CANCELLED") ? "cancelled" : "finished";
  text("status", data.over ? ended : paused ? "paused" : (data.your_turn ? "your turn" : "waiting"));
  $("status").className = "status " + (data.over ? ended : paused ? "paused" : "running");
  $("paused-note").hidden = !paused || data.your_turn;
  const players = $("players");
  players.replaceChildren();
  for (const p of data.players || []) {
    const item = document.createElement("li");
    item.textContent = playerName(p);
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
  showMoves();
  showResult();
  $("closed").hidden = !data.closed || !!data.result;
  text("closed", data.closed ? "This seat is closed: " + data.closed : "");
  showClock();
}

// The list of legal moves (every game; folded away where the board can be pointed at).
function showMoves() {
  const moves = seat.your_turn ? seat.moves || [] : [];
  const pointed = moves.some(m => m.steps && m.steps.length);
  $("moves-box").hidden = moves.length === 0;
  $("moves-box").open = !pointed;
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
  picked = [];
  drawTargets(moves);
}

// Pointing: each legal move is a list of steps ({cell} on the board, {choice} a button); the page
// offers the next steps of the moves that agree with the clicks so far (`picked`), and sends the
// move the clicks name. A cell step with a `preview` shows the cells the move covers on hover.
const stepKey = s => s.cell !== undefined ? "cell:" + s.cell : "choice:" + s.choice;

function matching(moves) {
  return moves.filter(m => m.steps && m.steps.length >= picked.length
                      && picked.every((key, i) => stepKey(m.steps[i]) === key));
}

function cellBox(svg, cell) {
  if (seat.cells && seat.cells[cell]) return seat.cells[cell];
  const shape = svg.querySelector('[data-cell="' + CSS.escape(cell) + '"]');
  if (!shape) return null;
  const b = shape.getBBox();
  return [b.x, b.y, b.width, b.height];
}

function frame(svg, layer, cell, cls) {
  const box = cellBox(svg, cell);
  if (!box) return null;
  const [x, y, width, height] = box;
  const rect = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({x, y, width, height})) rect.setAttribute(k, v);
  rect.setAttribute("class", cls);
  rect.dataset.cell = cell;
  layer.appendChild(rect);
  return rect;
}

function drawTargets(moves) {
  const svg = $("board").querySelector("svg");
  const old = svg && svg.querySelector("g.seat-targets");
  if (old) old.remove();
  const choices = $("choices");
  choices.replaceChildren();
  $("chosen").textContent = picked.length ? "chosen: " + picked.map(k => k.slice(k.indexOf(":") + 1)).join(" \u2192 ") : "";
  const candidates = matching(moves);
  const pointed = moves.filter(m => m.steps && m.steps.length);
  $("choices-box").hidden = pointed.length === 0;
  if (pointed.length === 0) { text("hint", moves.length ? "Pick a move from the list." : ""); return; }
  const next = new Map();
  for (const m of candidates) {
    if (m.steps.length > picked.length) {
      const step = m.steps[picked.length];
      if (!next.has(stepKey(step))) next.set(stepKey(step), {step, moves: []});
      next.get(stepKey(step)).moves.push(m);
    }
  }
  const layer = svg ? document.createElementNS(SVG, "g") : null;
  if (layer) layer.setAttribute("class", "seat-targets");
  for (const key of picked) {  // the cells clicked so far: a click goes back to choose again
    if (layer && key.startsWith("cell:")) {
      const mark = frame(svg, layer, key.slice(5), "seat-target seat-picked");
      if (mark) mark.addEventListener("click", () => back(moves));
    }
  }
  let cellsShown = 0, choicesShown = 0;
  for (const {step, moves: these} of next.values()) {
    if (step.cell !== undefined) {
      if (!layer) continue;
      const rect = frame(svg, layer, step.cell, "seat-target " + (picked.length === 0 ? "seat-from" : "seat-to"));
      if (!rect) continue;
      cellsShown++;
      rect.addEventListener("click", () => choose(moves, stepKey(step)));
      if (step.preview && these.length === 1) {
        rect.addEventListener("mouseenter", () => showPreview(svg, layer, step.preview));
        rect.addEventListener("mouseleave", () => showPreview(svg, layer, []));
      }
    } else {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      button.dataset.choice = step.choice;
      button.textContent = step.choice;
      if (step.shape) button.prepend(shapeIcon(step.shape));
      button.addEventListener("click", () => choose(moves, stepKey(step)));
      choices.appendChild(button);
      choicesShown++;
    }
  }
  const complete = candidates.find(m => m.steps.length === picked.length);
  if (complete) {  // a move that ends here while longer ones go on (Mississippi Queen)
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice send";
    button.textContent = "send: " + complete.text;
    button.addEventListener("click", () => send(complete.index));
    choices.appendChild(button);
  }
  if (picked.length) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice back";
    button.textContent = "\u21a9 back";
    button.addEventListener("click", () => back(moves));
    choices.appendChild(button);
  }
  const chosen = picked.length && candidates.length ? candidates[0].steps[picked.length - 1] : null;
  if (layer && chosen && chosen.ship) drawShip(svg, layer, chosen.ship);
  if (layer) svg.appendChild(layer);
  $("board").dataset.step = picked.length;
  const where = [cellsShown ? "a framed field" : "", choicesShown ? "a choice beside the board" : ""].filter(Boolean);
  $("hint").className = "";
  text("hint", where.length ? "Click " + where.join(" or ") + (picked.length ? " (or back)." : ".")
                            : complete ? "Send the move, or go back." : "");
}

// A piece's cells as a small picture on its button (Blokus: the piece, then its orientation).
function shapeIcon(cells) {
  const unit = 6, w = Math.max(...cells.map(c => c[0])) + 1, h = Math.max(...cells.map(c => c[1])) + 1;
  const icon = document.createElementNS(SVG, "svg");
  icon.setAttribute("viewBox", `0 0 ${w * unit} ${h * unit}`);
  icon.setAttribute("width", w * unit);
  icon.setAttribute("height", h * unit);
  icon.setAttribute("class", "shape");
  for (const [x, y] of cells) {
    const rect = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({x: x * unit, y: y * unit, width: unit - 1, height: unit - 1})) rect.setAttribute(k, v);
    icon.appendChild(rect);
  }
  return icon;
}

// The ship where the actions chosen so far take it (Mississippi Queen): a ring on its field and
// a bar towards its heading, drawn over the board while the move is built.
const HEADINGS = {RIGHT: 0, DOWN_RIGHT: 60, DOWN_LEFT: 120, LEFT: 180, UP_LEFT: 240, UP_RIGHT: 300};

function drawShip(svg, layer, ship) {
  const box = cellBox(svg, ship.cell);
  if (!box) return;
  const [x, y, w, h] = box, cx = x + w / 2, cy = y + h / 2, r = Math.min(w, h) * 0.42;
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("class", "seat-ship");
  group.dataset.cell = ship.cell;
  group.dataset.heading = ship.heading;
  group.style.pointerEvents = "none";
  const ring = document.createElementNS(SVG, "circle");
  for (const [k, v] of Object.entries({cx, cy, r})) ring.setAttribute(k, v);
  const angle = (HEADINGS[ship.heading] || 0) * Math.PI / 180;
  const bar = document.createElementNS(SVG, "line");
  for (const [k, v] of Object.entries({x1: cx, y1: cy, x2: cx + Math.cos(angle) * r * 1.5, y2: cy + Math.sin(angle) * r * 1.5}))
    bar.setAttribute(k, v);
  group.append(ring, bar);
  layer.appendChild(group);
}

function showPreview(svg, layer, cells) {
  for (const old of layer.querySelectorAll(".seat-preview")) old.remove();
  for (const cell of cells) {
    const rect = frame(svg, layer, cell, "seat-preview");
    if (rect) rect.style.pointerEvents = "none";
  }
}

function choose(moves, key) {
  picked.push(key);
  const candidates = matching(moves);
  if (candidates.length === 1 && candidates[0].steps.length === picked.length) { send(candidates[0].index); return; }
  drawTargets(moves);
}

function back(moves) { picked.pop(); drawTargets(moves); }

async function send(index) {
  if (sending) return;
  sending = true;
  $("choices").replaceChildren();  // nothing more to click until the server answered
  const old = $("board").querySelector("g.seat-targets");
  if (old) old.remove();
  try {
    const response = await fetch(api + "/move", {method: "POST", headers: {"Content-Type": "application/json"},
                                                 body: JSON.stringify({index})});
    const data = await response.json();
    if (response.ok) show(data);
    else {
      $("error").hidden = false;
      text("error", data.error);
      picked = [];
      drawTargets(seat.your_turn ? seat.moves || [] : []);
    }
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

// A click on the board that is no step of a legal move says why nothing happened and what is
// offered instead (a framed field, or first a choice beside the board).
function hintOffBoardStep(event) {
  if (!seat || event.target.closest("g.seat-targets")) return;
  const hint = $("hint");
  if (!seat.your_turn || seat.over) {
    if (!seat.over) { text("hint", seat.status === "paused" ? "The game is paused." : "Not your turn: wait for the other side."); hint.className = "refused"; }
    return;
  }
  const cell = event.target.closest("[data-cell]");
  const where = cell ? "Field " + cell.dataset.cell + " is no legal step now" : "That is no legal step now";
  const framed = $("board").querySelectorAll("g.seat-targets rect.seat-from, g.seat-targets rect.seat-to").length;
  const choices = $("choices").querySelectorAll("button.choice:not(.back)").length;
  const offer = framed ? "click one of the " + framed + " framed fields" : choices ? "pick a choice beside the board first" : "pick a move from the list";
  text("hint", where + ": " + offer + ".");
  hint.className = "refused";
}
$("board").addEventListener("click", hintOffBoardStep);

setInterval(showClock, 200);
fetch(api).then(r => r.json()).then(data => { if (data.seat) show(data); follow(); });
