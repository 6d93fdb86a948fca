// The archives page (tools/archive_page.py): every text a client sent goes in as text, never markup.
"use strict";

const $ = (id) => document.getElementById(id);

function say(text, error) {
  $("message").textContent = text;
  $("message").className = error ? "error" : "";
}

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

async function post(url, body, headers) {
  const response = await fetch(url, {method: "POST", body, headers});
  const data = await response.json().catch(() => ({error: `HTTP ${response.status}`}));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function mib(bytes) { return bytes ? `${(bytes / 1048576).toFixed(1)} MiB` : "-"; }

function showCheck(report) {
  const box = $("check");
  box.textContent = "";
  const head = document.createElement("p");
  head.id = "check-verdict";
  head.className = report.passed ? "passed" : "failed";
  head.textContent = `${report.archive} in ${report.game}: ${report.passed ? "PASSED" : "FAILED"}`;
  box.appendChild(head);
  const table = document.createElement("table");
  table.className = "check";
  const top = document.createElement("tr");
  for (const name of ["game", "seat", "joined", "moved legally", "kept its time", "ended regularly", "peak memory", "CPU", "cause"]) {
    const th = document.createElement("th");
    th.textContent = name;
    top.appendChild(th);
  }
  table.appendChild(top);
  for (const game of report.games) {
    const row = document.createElement("tr");
    cell(row, String(game.game));
    cell(row, game.seat);
    for (const key of ["joined", "moved_legally", "kept_time", "ended_regularly"]) {
      cell(row, game[key] ? "yes" : "NO", game[key] ? "yes" : "no");
    }
    cell(row, mib(game.peak_rss));
    cell(row, game.cpu_seconds == null ? "-" : `${game.cpu_seconds.toFixed(2)} s`);
    cell(row, game.cause + (game.passed || !game.reason ? "" : `: ${game.reason}`));
    table.appendChild(row);
  }
  box.appendChild(table);
}

// -- ratings (tools/archive_rating.py): started here, followed by asking for their state ---------

const RATING_POLL_MS = 1000;
let gamesNotRatable = {};
let followed = null;  // {id, timer}: the rating shown in #rating

function ratingSummary(state) {
  if (!state) return "-";
  const where = state.game_name ? ` (${state.game_name})` : "";
  switch (state.status) {
    case "queued": return `waiting for a free slot${where}`;
    case "running": return `game ${state.played} of ${state.games}` + (state.estimate ? `: Elo ${state.estimate}` : "") + where;
    case "done": return (state.estimate ? `Elo ${state.estimate}` : "no result") + where;
    case "stopped": return `stopped after ${state.played} of ${state.games} games` +
      (state.estimate ? `: Elo ${state.estimate}` : "") + where;
    default: return `failed${where}`;
  }
}

function paragraph(box, id, text, className) {
  const p = document.createElement("p");
  p.id = id;
  p.textContent = text;
  if (className) p.className = className;
  box.appendChild(p);
  return p;
}

function showRating(state) {
  const box = $("rating");
  box.textContent = "";
  const words = {queued: "waiting for a free slot", running: "playing", done: "done",
                 stopped: `stopped after ${state.played} of ${state.games} games; Resume goes on from there`,
                 failed: "FAILED"};
  paragraph(box, "rating-head", `${state.archive || "the archive"} in ${state.game_name || state.game || "?"}: ` +
            (words[state.status] || state.status), state.status === "failed" ? "failed" : "");
  if (state.status === "queued" || state.status === "running") {
    const now = state.current ? `, now game ${state.current.index + 1} against ${state.current.rung} ` +
      `(the archive ${state.current.seat === 0 ? "first" : "second"})` : "";
    paragraph(box, "rating-progress", `${state.played} of ${state.games} games played${now}; ` +
              `Elo so far: ${state.estimate || "no result yet"}`);
  }
  if (state.error) paragraph(box, "rating-error", state.error);
  const lines = (state.status === "queued" || state.status === "running") ? (state.lines || []).join("\n") : state.text;
  if (lines) {
    const pre = document.createElement("pre");
    pre.id = state.status === "queued" || state.status === "running" ? "rating-games" : "rating-report";
    pre.textContent = lines;
    box.appendChild(pre);
  }
}

function button(text, className, action) {
  const made = document.createElement("button");
  made.type = "button"; made.textContent = text; made.className = className;
  made.addEventListener("click", action);
  return made;
}

function fillRatingCell(td, id, state) {
  td.textContent = "";
  const words = document.createElement("span");
  words.textContent = ratingSummary(state);
  td.appendChild(words);
  if (!state) return;
  td.append(" ", button("Show", "show-rating", () => follow(id)));
  if (state.status === "queued" || state.status === "running") {
    td.append(" ", button("Stop", "stop-rating", (event) => stopRating(id, event.target)));
  } else if (state.status === "stopped") {
    td.append(" ", button("Resume", "resume-rating", (event) => resumeRating(id, event.target)));
  }
}

function setRowRating(id, state) {
  const row = document.querySelector(`#archives tbody tr[data-id="${CSS.escape(id)}"]`);
  if (row) fillRatingCell(row.querySelector("td.rating"), id, state);
}

function follow(id) {
  if (followed) clearTimeout(followed.timer);
  followed = {id, timer: null};
  const me = followed;
  const tick = async () => {
    try {
      const response = await fetch(`/api/archives/${encodeURIComponent(id)}/rating`);
      if (!response.ok) return;
      const state = await response.json();
      if (followed !== me) return;
      showRating(state);
      setRowRating(id, state);
      if (state.status === "queued" || state.status === "running") me.timer = setTimeout(tick, RATING_POLL_MS);
    } catch (error) {
      if (followed === me) me.timer = setTimeout(tick, RATING_POLL_MS * 3);
    }
  };
  tick();
}

async function rate(id) {
  say("starting the rating…");
  try {
    const state = await post(`/api/archives/${encodeURIComponent(id)}/rate`,
      JSON.stringify({passphrase: $("passphrase").value, game: $("game").value, games: Number($("rate-games").value)}),
      {"Content-Type": "application/json"});
    say("rating: it plays in the background; this page follows it.");
    showRating(state);
    setRowRating(id, state);
    follow(id);
  } catch (error) { say(error.message, true); }
}

async function stopRating(id, pressed) {
  pressed.disabled = true;
  say("stopping the rating…");
  try {
    const state = await post(`/api/archives/${encodeURIComponent(id)}/stop`,
      JSON.stringify({passphrase: $("passphrase").value}), {"Content-Type": "application/json"});
    say("rating stopped; Resume goes on with it.");
    if (followed && followed.id === id) clearTimeout(followed.timer);
    followed = {id, timer: null};
    showRating(state);
    setRowRating(id, state);
  } catch (error) { say(error.message, true); pressed.disabled = false; }
}

async function resumeRating(id, pressed) {
  pressed.disabled = true;
  say("resuming the rating…");
  try {
    const state = await post(`/api/archives/${encodeURIComponent(id)}/resume`,
      JSON.stringify({passphrase: $("passphrase").value}), {"Content-Type": "application/json"});
    say("rating resumed: it plays in the background; this page follows it.");
    showRating(state);
    setRowRating(id, state);
    follow(id);
  } catch (error) { say(error.message, true); pressed.disabled = false; }
}

function noteRatable() {
  $("rate-note").textContent = gamesNotRatable[$("game").value] || "";
}

async function load() {
  const data = await (await fetch("/api/archives")).json();
  const select = $("game");
  if (!select.options.length) {
    for (const game of data.games) {
      const option = document.createElement("option");
      option.value = game.type;
      option.textContent = game.name;
      select.appendChild(option);
    }
  }
  gamesNotRatable = Object.fromEntries(data.games.map((game) => [game.type, game.not_ratable]));
  noteRatable();
  if (!data.changes_allowed) say("Changes need a passphrase: start swc view with --password.", true);
  const body = $("archives").tBodies[0];
  body.textContent = "";
  for (const item of data.archives) {
    const row = document.createElement("tr");
    row.dataset.id = item.id;
    const name = document.createElement("input");
    name.type = "text"; name.value = item.name; name.className = "name"; name.maxLength = 200;
    cell(row, "").appendChild(name);
    cell(row, item.main);
    const params = document.createElement("input");
    params.type = "text"; params.value = item.params; params.className = "params"; params.maxLength = 200;
    cell(row, "").appendChild(params);
    const buttons = cell(row, "");
    const save = document.createElement("button");
    save.type = "button"; save.textContent = "Save"; save.className = "save";
    save.addEventListener("click", () => change(item.id, name.value, params.value));
    const test = document.createElement("button");
    test.type = "button"; test.textContent = "Test"; test.className = "test";
    test.addEventListener("click", () => check(item.id, test));
    const rating = document.createElement("button");
    rating.type = "button"; rating.textContent = "Rate"; rating.className = "rate";
    rating.addEventListener("click", () => rate(item.id));
    buttons.append(save, test, rating);
    cell(row, item.check ? (item.check.passed ? "passed" : "failed") + ` (${item.check.game})` : "-", "last");
    fillRatingCell(cell(row, "", "rating"), item.id, item.rating);
    body.appendChild(row);
  }
  if (!followed) {  // after a reload: follow a rating that is playing, else show nothing until asked
    const playing = data.archives.find((item) => item.rating && ["queued", "running"].includes(item.rating.status));
    if (playing) follow(playing.id);
  }
}

async function upload() {
  const file = $("file").files[0];
  if (!file) { say("Choose a ZIP first.", true); return; }
  say(`uploading ${file.name}…`);
  try {
    await post("/api/archives", file, {
      "X-Passphrase": $("passphrase").value, "X-File-Name": file.name,
      "X-Archive-Name": $("name").value || file.name.replace(/\.zip$/i, ""), "X-Archive-Params": $("params").value,
    });
    say(`${file.name} uploaded.`);
    await load();
  } catch (error) { say(error.message, true); }
}

async function change(id, name, params) {
  try {
    await post(`/api/archives/${encodeURIComponent(id)}`, JSON.stringify({passphrase: $("passphrase").value, name, params}),
               {"Content-Type": "application/json"});
    say("saved.");
    await load();
  } catch (error) { say(error.message, true); }
}

async function check(id, button) {
  button.disabled = true;
  say("testing: the archive plays against the reference bot…");
  try {
    const report = await post(`/api/archives/${encodeURIComponent(id)}/check`,
      JSON.stringify({passphrase: $("passphrase").value, game: $("game").value, games: 2}), {"Content-Type": "application/json"});
    showCheck(report);
    say("test done.");
    await load();
  } catch (error) { say(error.message, true); }
  button.disabled = false;
}

$("upload").addEventListener("click", upload);
$("game").addEventListener("change", noteRatable);
load().catch((error) => say(error.message, true));
