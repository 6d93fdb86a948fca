// The start page: every game, live (server-sent events from /api/stream), filter, upload.
// Everything a client sent is put in as text (textContent), never as markup.
"use strict";

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function resultText(result) {
  if (!result) return "";
  return result.map(r => `${r.rank ?? "-"}. ${String(r.seat).toUpperCase()} (${r.name}): ${r.cause}${r.score.length ? " " + r.score.join("/") : ""}${r.reason ? " (" + r.reason + ")" : ""}`).join("; ");
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
      row.appendChild(el("td", g.players.map(p => String(p.seat).toUpperCase() + " (" + p.name + ")").join(" vs "), "players"));
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
