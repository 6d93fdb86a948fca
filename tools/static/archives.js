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
    buttons.append(save, test);
    cell(row, item.check ? (item.check.passed ? "passed" : "failed") + ` (${item.check.game})` : "-", "last");
    body.appendChild(row);
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
load().catch((error) => say(error.message, true));
