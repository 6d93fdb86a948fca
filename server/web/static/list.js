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
    tbody.replaceChildren();
    for (const g of games) {
      const row = el("tr");
      row.dataset.id = g.id;
      row.dataset.status = g.status;
      row.dataset.game = g.game;
      const link = el("a", g.title);
      link.href = "/game/" + encodeURIComponent(g.id);
      const first = el("td");
      first.appendChild(link);
      row.appendChild(first);
      row.appendChild(el("td", g.players.map(shownName).join(" vs "), "players"));
      row.appendChild(el("td", g.progress, "progress"));
      row.appendChild(el("td", g.status, "state " + g.status));
      row.appendChild(el("td", resultText(g.result), "result"));
      row.appendChild(el("td", g.source, "source"));
      tbody.appendChild(row);
    }
    document.getElementById("empty").hidden = games.length > 0;
  }

  function connect() {
    if (source) source.close();
    const game = params.get("game");
    source = new EventSource("/api/stream" + (game ? "?game=" + encodeURIComponent(game) : ""));
    source.onmessage = event => render(JSON.parse(event.data).games);
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

if (document.getElementById("games")) startList(); else startLogin();

// "Play": a table of an XML game (POST /api/tables); a person's seat opens its page, the other
// seats' links and reservation codes are shown.
const KIND_NAMES = {you: "you", person: "a second person (a link)", bot: "the reference bot",
                    command: "a bot command", open: "an open seat (reservation code)"};

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
  const strengths = Object.fromEntries(data.games.map(g => [g.game, g.strengths || []]));
  // a bot seat of a game whose reference bot has strengths offers them (default: the first)
  const showStrength = i => {
    const kind = document.getElementById("seat-" + i).value, offered = strengths[games.value] || [];
    const select = document.getElementById("strength-" + i);
    select.replaceChildren(...offered.map(name => { const o = el("option", name); o.value = name; return o; }));
    select.hidden = kind !== "bot" || offered.length === 0;
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
      if (kind === "bot" && !strength.hidden && strength.value) return {kind, strength: strength.value};
      return kind === "command" ? {kind, command: document.getElementById("command-" + i).value} : kind;
    });
    const answer = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({game: games.value, seats, timeout: document.getElementById("table-timeout").checked})});
    const table = await answer.json();
    const result = document.getElementById("table-result");
    if (!answer.ok) { result.textContent = table.error; return; }
    result.replaceChildren();
    let mine = null;
    for (const s of table.seats) {
      const line = el("div", s.color + ": " + (KIND_NAMES[s.kind] || s.kind) + " ");
      if (s.url) {
        const link = el("a", s.kind === "you" ? "your seat" : location.origin + s.url);
        link.href = s.url;
        link.className = "seat-link " + s.kind;
        line.appendChild(link);
        if (s.kind === "you" && mine === null) mine = s.url;
      }
      if (s.reservation) line.appendChild(el("code", s.reservation, "reservation"));
      result.appendChild(line);
    }
    if (mine) location.href = mine;
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
