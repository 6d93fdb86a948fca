// The start page: every game, live (server-sent events from /api/stream), filter, upload.
// Everything a client sent is put in as text (textContent), never as markup.
"use strict";

// The name a client sent, else the seat once (server/web/book.py shown_name).
const shownName = p => p.shown || String(p.seat).toUpperCase();

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function resultText(result) {
  if (!result) return "";
  return result.map(r => `${r.rank ?? "-"}. ${shownName(r)}: ${r.cause}${r.score.length ? " " + r.score.join("/") : ""}${r.reason ? " (" + r.reason + ")" : ""}`).join("; ");
}

function startLogin() {
  const params = new URLSearchParams(location.search);
  const next = document.getElementById("next");
  if (next) next.value = params.get("next") || "/";
  if (params.get("failed")) document.getElementById("failed").hidden = false;
}

function startList() {
  const filter = document.getElementById("filter");
  const tbody = document.querySelector("#games tbody");
  const known = new Set();
  const params = new URLSearchParams(location.search);
  let source = null;

  // One row per game, kept across events: a cell is written only when its text changed and a
  // row moves only when the order did, so a link never vanishes under the pointer.
  const rows = new Map();

  function setCell(cell, value, cls) {
    if (cell.textContent !== value) cell.textContent = value;
    if (cls !== undefined && cell.className !== cls) cell.className = cls;
  }

  function rowOf(g) {
    let row = rows.get(g.id);
    if (!row) {
      row = el("tr");
      row.dataset.id = g.id;
      const link = el("a");
      link.href = "/game/" + encodeURIComponent(g.id);
      const first = el("td");
      first.appendChild(link);
      row.appendChild(first);
      for (const cls of ["players", "progress", "state", "result", "source"]) row.appendChild(el("td", "", cls));
      rows.set(g.id, row);
    }
    if (row.dataset.status !== g.status) row.dataset.status = g.status;
    if (row.dataset.game !== g.game) row.dataset.game = g.game;
    const cells = row.cells;
    setCell(cells[0].firstChild, g.title);
    setCell(cells[1], g.players.map(shownName).join(" vs "));
    setCell(cells[2], g.progress);
    setCell(cells[3], g.status, "state " + g.status);
    setCell(cells[4], resultText(g.result));
    setCell(cells[5], g.source);
    return row;
  }

  function render(games) {
    for (const g of games) {
      if (!known.has(g.game)) {
        known.add(g.game);
        const option = el("option", g.title);
        option.value = g.game;
        filter.appendChild(option);
      }
    }
    filter.value = params.get("game") || "";
    const wanted = new Set(games.map(g => g.id));
    for (const [id, row] of rows) if (!wanted.has(id)) { row.remove(); rows.delete(id); }
    let before = tbody.firstChild;
    for (const g of games) {
      const row = rowOf(g);
      if (row !== before) tbody.insertBefore(row, before); else before = before.nextSibling;
    }
    document.getElementById("empty").hidden = games.length > 0 || tournamentsShown;
  }

  function connect() {
    if (source) source.close();
    for (const row of rows.values()) row.remove();
    rows.clear();
    const game = params.get("game");
    source = new EventSource("/api/stream" + (game ? "?game=" + encodeURIComponent(game) : ""));
    let last = null;
    source.onmessage = event => { if (event.data !== last) { last = event.data; render(JSON.parse(event.data).games); } };
  }

  filter.addEventListener("change", () => {
    if (filter.value) params.set("game", filter.value); else params.delete("game");
    history.replaceState(null, "", "/" + (params.toString() ? "?" + params : ""));
    connect();
  });

  const status = document.getElementById("upload-status");
  async function upload(files) {
    for (const file of files) {
      status.textContent = "opening " + file.name + " ...";
      const response = await fetch("/api/upload", {method: "POST", body: file, headers: {"X-File-Name": encodeURIComponent(file.name)}});
      const data = await response.json();
      if (!response.ok) { status.textContent = data.error; return; }
      status.textContent = "";
      if (files.length === 1) location.href = "/game/" + encodeURIComponent(data.id);
    }
  }
  document.getElementById("upload").addEventListener("change", event => upload(event.target.files));
  document.addEventListener("dragover", event => event.preventDefault());
  document.addEventListener("drop", event => { event.preventDefault(); upload(event.dataTransfer.files); });
  connect();
}

// The tournaments `swc view course.db` opened: their run pages, above the games.
let tournamentsShown = false;
async function showTournaments() {
  const box = document.getElementById("tournaments");
  if (!box) return;
  const response = await fetch("/api/tournaments");
  if (!response.ok) return;
  const found = (await response.json()).tournaments || [];
  const list = document.getElementById("tournament-list");
  list.replaceChildren(...found.map(t => {
    const item = el("li");
    const link = el("a", t.title);
    link.href = "/tournament/" + encodeURIComponent(t.id);
    item.appendChild(link);
    return item;
  }));
  box.hidden = found.length === 0;
  tournamentsShown = found.length > 0;
  if (tournamentsShown) document.getElementById("empty").hidden = true;
}

if (document.getElementById("games")) { startList(); showTournaments(); } else startLogin();

// "Play": a table of an XML game (POST /api/tables). The game's page is linked at once; the
// other seats' links and reservation codes stay shown, each with a Copy button, until every one
// was copied (then your own seat opens) or you follow "your seat"; a table with nothing to
// share opens your seat at once.
const KIND_NAMES = {you: "you", person: "a second person (a link)", bot: "the reference bot",
                    command: "a bot command", open: "an open seat (reservation code)"};

// A link or code to pass on: the text, selectable, and a Copy button (the clipboard where the
// page may write it, else the text is selected for Ctrl+C). Returns {copied, onCopied}.
function shareField(line, value, cls) {
  const share = {copied: false, onCopied: null};
  const shown = el(cls.startsWith("seat-link") ? "a" : "code", value, cls);
  if (shown.tagName === "A") shown.href = value;
  const copy = el("button", "Copy", "copy");
  copy.type = "button";
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(value);
      copy.textContent = "copied \u2713";
      share.copied = true;
      if (share.onCopied) share.onCopied();
    } catch (error) {  // no clipboard here (a page off loopback without https): select it for Ctrl+C
      const range = document.createRange();
      range.selectNodeContents(shown);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      copy.textContent = "selected: press Ctrl+C";
    }
  });
  line.append(shown, " ", copy);
  return share;
}

async function startTables() {
  const form = document.getElementById("table-form");
  if (!form) return;
  const response = await fetch("/api/tables");
  const data = await response.json();
  if (!data.available) { document.getElementById("play-table").hidden = true; return; }
  // no family with a menu of games here (a server without its XML door): only the other tables
  if (!data.games.length) { form.hidden = true; document.getElementById("join-form").hidden = true; return; }
  const games = document.getElementById("table-game");
  for (const g of data.games) { const o = el("option", g.title); o.value = g.game; games.appendChild(o); }
  const rungs = Object.fromEntries(data.games.map(g => [g.game, g.rungs || g.strengths || []]));
  // a bot seat offers the game's rungs, weakest first (default: the first); one rung needs no choice
  const showStrength = i => {
    const kind = document.getElementById("seat-" + i).value, offered = rungs[games.value] || [];
    const select = document.getElementById("strength-" + i);
    select.replaceChildren(...offered.map(name => { const o = el("option", name); o.value = name; return o; }));
    select.hidden = kind !== "bot" || offered.length < 2;
  };
  for (const [i, preset] of [[0, "you"], [1, "bot"]]) {
    const select = document.getElementById("seat-" + i);
    for (const kind of data.kinds) { const o = el("option", KIND_NAMES[kind] || kind); o.value = kind; select.appendChild(o); }
    select.value = preset;
    select.addEventListener("change", () => {
      document.getElementById("command-" + i).hidden = select.value !== "command";
      showStrength(i);
    });
    showStrength(i);
  }
  games.addEventListener("change", () => { showStrength(0); showStrength(1); });
  form.addEventListener("submit", async event => {
    event.preventDefault();
    const seats = [0, 1].map(i => {
      const kind = document.getElementById("seat-" + i).value, strength = document.getElementById("strength-" + i);
      if (kind === "bot" && !strength.hidden && strength.value) return {kind, rung: strength.value};
      return kind === "command" ? {kind, command: document.getElementById("command-" + i).value} : kind;
    });
    const pace = document.getElementById("table-pace").value;
    const start = pace === "now" || pace === "paused" ? pace : Number(pace);
    const answer = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({game: games.value, seats, start, timeout: document.getElementById("table-timeout").checked})});
    const table = await answer.json();
    const result = document.getElementById("table-result");
    if (!answer.ok) { result.textContent = table.error; return; }
    result.replaceChildren();
    let mine = null;
    const shares = [];
    if (table.game_id) {
      const line = el("div", "The game: ");
      const watch = el("a", "watch it", "game-link");
      watch.href = "/game/" + encodeURIComponent(table.game_id);
      line.appendChild(watch);
      result.appendChild(line);
    }
    for (const s of table.seats) {
      const line = el("div", s.color + ": " + (KIND_NAMES[s.kind] || s.kind) + " ");
      if (s.url && s.kind === "you") {
        const link = el("a", "your seat", "seat-link you");
        link.href = s.url;
        line.appendChild(link);
        if (mine === null) mine = s.url;
      } else if (s.url) {
        shares.push(shareField(line, location.origin + s.url, "seat-link " + s.kind));
      }
      if (s.reservation) shares.push(shareField(line, s.reservation, "reservation"));
      result.appendChild(line);
    }
    if (mine && shares.length === 0) { location.href = mine; return; }
    if (mine) {
      const hint = el("p", "Send the other player the link or code above (Copy), then take your seat: ", "share-hint");
      const go = el("a", "go to your seat →", "seat-link you go");
      go.href = mine;
      hint.appendChild(go);
      result.appendChild(hint);
      for (const share of shares) share.onCopied = () => {
        if (shares.every(s => s.copied)) setTimeout(() => { location.href = mine; }, 800);
      };
    }
  });
  document.getElementById("join-form").addEventListener("submit", async event => {
    event.preventDefault();
    const answer = await fetch("/api/seats", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({reservation: document.getElementById("join-code").value.trim()})});
    const joined = await answer.json();
    if (!answer.ok) { document.getElementById("table-result").textContent = joined.error; return; }
    location.href = joined.seats[0].url;
  });
}

startTables();
