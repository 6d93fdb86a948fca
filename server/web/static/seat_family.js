// A person's seat of ReversiXT or Robo Rally: the board of the game's own view, only the legal
// moves offered, the server's answers shown; everything through the documented API
// (/api/seats/ID), so a script can do the same.
// ReversiXT: click a framed square; on a choice or bonus square, then pick the choice.
// Robo Rally: click a framed start point; click cards of the hand to fill the registers in
// order (a filled register, clicked, gives its card back), with the timer shown; damage piles
// and the reboot direction are buttons.
"use strict";

let seat = null, version = -1, sending = false, shownAt = 0, picked = null;
const QUESTION = /: pick /, NOTES_SHOWN = 6;

function button(label, className, onClick, data = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.textContent = label;
  for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
  b.addEventListener("click", onClick);
  return b;
}

function showClock() {
  if (!seat) return;
  const clock = seat.clock || {};
  const deadline = clock.deadline_ms ? " (deadline " + (clock.deadline_ms / 1000) + " s)" : " (no deadline)";
  const since = Date.now() - shownAt;
  if (seat.your_turn && clock.waiting_ms !== null && clock.waiting_ms !== undefined)
    text("clock", "your turn for " + ((clock.waiting_ms + since) / 1000).toFixed(1) + " s" + deadline);
  else text("clock", (seat.over ? "game over" : "waiting for the others") + deadline);
  if (seat.game === "roborally") {
    if (clock.timer_ms_left !== null && clock.timer_ms_left !== undefined)
      text("timer", "Timer: " + (Math.max(0, clock.timer_ms_left - since) / 1000).toFixed(1) + " s left");
    else text("timer", seat.phase === 2 ? "Timer: " + clock.timer_s + " s, starts when the first robot is programmed" : "");
  }
}

function show(data) {
  seat = data;
  version = data.version;
  shownAt = Date.now();
  text("title", data.title + " \u2014 seat " + data.color);
  document.title = data.title + " \u2014 your seat";
  text("color", data.game === "roborally" ? "robot " + data.color : "player " + data.color);
  $("watch").href = data.game_id ? "/game/" + encodeURIComponent(data.game_id) : "/";
  text("status", data.over ? "finished" : (data.your_turn ? "your turn" : "waiting"));
  $("status").className = "status " + (data.over ? "finished" : "running");
  const players = $("players");
  players.replaceChildren();
  for (const p of data.players || []) {
    const item = document.createElement("li");
    item.textContent = playerName(p);
    players.appendChild(item);
  }
  text("to-move", data.over ? "\u2014" : (data.to_move ? "you" : "\u2014"));
  text("last-move", data.last_move || "\u2014");
  $("error").hidden = !data.error;
  text("error", data.error ? "The server says: " + data.error : "");
  if (data.svg) $("board").innerHTML = data.svg;
  $("board").dataset.version = data.version;
  $("board").dataset.yourTurn = data.your_turn ? "1" : "0";
  $("board").dataset.step = data.asked || (data.your_turn ? "move" : "");
  picked = null;
  $("choice-box").hidden = true;
  if (data.game === "roborally") showRobo(); else showReversi();
  // what happened, newest last; a question ("...: pick its direction") only while it is asked
  // (the hint shows the current one), so old prompts never pile up
  const notes = $("notes");
  const told = (data.notes || []).filter(n => !QUESTION.test(n)).slice(-NOTES_SHOWN);
  notes.replaceChildren(...told.map(n => { const li = document.createElement("li"); li.textContent = n; return li; }));
  showResult();
  $("closed").hidden = !data.closed || !!data.result;
  text("closed", data.closed ? "This seat is closed: " + data.closed : "");
  showClock();
}

function movesList(moves) {
  $("moves-box").hidden = moves.length === 0;
  $("moves").replaceChildren(...moves.map(m => {
    const item = document.createElement("li");
    item.appendChild(button(m.text, "move", () => send(m.index), {index: m.index}));
    return item;
  }));
}

// Frames over the cells of the legal moves; a click calls onCell(cell).
function frames(moves, onCell) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const old = svg.querySelector("g.seat-targets");
  if (old) old.remove();
  const boxes = seat.cells;
  if (!boxes || moves.length === 0) return;
  const layer = document.createElementNS(SVG, "g");
  layer.setAttribute("class", "seat-targets");
  for (const cell of [...new Set(moves.flatMap(m => m.cells || []))]) {
    if (!boxes[cell]) continue;
    const [x, y, w, h] = boxes[cell];
    const frame = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({x, y, width: w, height: h})) frame.setAttribute(k, v);
    frame.setAttribute("class", "seat-target" + (cell === picked ? " seat-picked" : ""));
    frame.dataset.cell = cell;
    frame.addEventListener("click", () => onCell(cell));
    layer.appendChild(frame);
  }
  svg.appendChild(layer);
}

function choices(moves, label) {
  $("choice-box").hidden = moves.length === 0;
  $("choices").replaceChildren(...moves.map(m => button(label(m), "choice", () => send(m.index), {index: m.index})));
}

// -- ReversiXT ------------------------------------------------------------------------------------

function showReversi() {
  $("program-box").hidden = true;
  const stock = seat.stock;
  text("stock", stock ? "Phase " + seat.phase + " \u00b7 overwrite stones " + stock.overwrites + " \u00b7 bombs " + stock.bombs : "");
  const moves = seat.your_turn ? seat.moves || [] : [];
  movesList(moves);
  drawReversi(moves);
}

function drawReversi(moves) {
  frames(moves, cell => {
    const here = moves.filter(m => m.cells[0] === cell);
    if (here.length === 1) { send(here[0].index); return; }
    picked = cell;
    drawReversi(moves);
    choices(here, m => m.choice);
    text("hint", "Square " + cell + ": pick what it does.");
  });
  if (picked === null) text("hint", moves.length ? (seat.phase === 2 ? "Click a square to bomb." : "Click a framed square.") : "");
}

// -- Robo Rally -----------------------------------------------------------------------------------

function showRobo() {
  const robot = seat.robot;
  text("stock", (robot ? "Your robot: (" + robot.x + ", " + robot.y + ") facing " + robot.facing + " \u00b7 " : "")
       + "checkpoints " + (seat.checkpoints || 0) + " \u00b7 course " + seat.course);
  const moves = seat.your_turn ? seat.moves || [] : [];
  const step = seat.asked;
  movesList(step === "start" ? moves : []);
  frames(step === "start" ? moves : [], cell => {
    const move = moves.find(m => m.cells[0] === cell);
    if (move) send(move.index);
  });
  if (step === "damage") choices(moves, m => m.text);
  else if (step === "reboot") choices(moves, m => m.text);
  showProgram(step === "program" ? moves : []);
  text("hint", {start: "Click a framed start point.", program: "Click cards to fill the registers 1 to 5.",
                damage: "Pick the damage cards.", reboot: "Your robot reboots: pick its direction."}[step] || "");
}

function showProgram(moves) {
  const shown = seat.phase === 2 || (seat.registers || []).some(c => c !== null);
  $("program-box").hidden = !shown;
  if (!shown) return;
  const registers = $("registers");
  registers.replaceChildren(...(seat.registers || []).map((card, i) => {
    const item = document.createElement("li");
    const out = moves.find(m => m.card === null && m.register === i + 1);
    const b = button((i + 1) + ": " + (card || "\u2014"), "register" + (card ? " filled" : ""),
                     () => { if (out) send(out.index); }, {register: i + 1});
    b.disabled = !out;
    item.appendChild(b);
    return item;
  }));
  const hand = $("hand");
  hand.replaceChildren(...(seat.hand || []).map(card => {
    const fill = moves.filter(m => m.card === card).sort((a, b) => a.register - b.register)[0];
    const b = button(card, "card", () => { if (fill) send(fill.index); }, {card});
    b.disabled = !fill;
    return b;
  }));
}

// -- the API --------------------------------------------------------------------------------------

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
      if (data.version !== version || !seat || data.status !== seat.status) show(data);
      if (seat.over && seat.result_rows && seat.status === "finished") return;
    } catch (error) { await new Promise(done => setTimeout(done, 1000)); }
  }
}

setInterval(showClock, 200);
fetch(api).then(r => r.json()).then(data => { if (data.seat) show(data); follow(); });
