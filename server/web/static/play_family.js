// "Play" for ReversiXT and Robo Rally (POST /api/tables): a bundled or uploaded map and its
// number of seats, or a course and the number of robots; then who sits where. The table's door
// is its own, so an open seat names a port, not a reservation code.
"use strict";

const FAMILY_KINDS = {you: "you", person: "a second person (a link)", bot: "the reference bot",
                      command: "a bot command", open: "an open seat (host and port)"};

async function startFamilyTables() {
  const form = document.getElementById("family-form");
  if (!form) return;
  const data = await (await fetch("/api/tables")).json();
  if (!data.available || !data.families) return;
  const $ = id => document.getElementById(id);
  const option = (label, value) => { const o = document.createElement("option"); o.textContent = label; o.value = value; return o; };
  const games = Object.fromEntries(data.families.map(g => [g.game, g]));
  $("family-game").replaceChildren(...data.families.map(g => option(g.title, g.game)));
  const reversi = games.reversixt, robo = games.roborally;
  $("family-map").replaceChildren(...reversi.maps.map(m => option(m.name + " (" + m.players + " players)", m.name)));
  $("family-course").replaceChildren(...robo.courses.map(c => option(c, c)));
  let uploaded = null;

  function seatCount() {
    if ($("family-game").value === "roborally") return Number($("family-robots").value) || 2;
    if (uploaded) return uploaded.players;
    return reversi.maps.find(m => m.name === $("family-map").value).players;
  }
  function drawSeats() {
    const isRobo = $("family-game").value === "roborally";
    for (const id of ["family-map-label", "family-upload-label"]) $(id).hidden = isRobo;
    for (const id of ["family-course-label", "family-robots-label"]) $(id).hidden = !isRobo;
    const box = $("family-seats");
    const old = [...box.querySelectorAll("select.seat-kind")].map(s => s.value);
    const oldRungs = [...box.querySelectorAll("select.seat-strength")].map(s => s.value);
    box.replaceChildren();
    for (let i = 0; i < seatCount(); i++) {
      const label = document.createElement("label");
      label.textContent = (isRobo ? "Robot " : "Player ") + (i + 1) + " ";
      const select = document.createElement("select");
      select.id = "family-seat-" + i;
      select.className = "seat-kind";
      const kinds = Object.entries(FAMILY_KINDS).filter(([k]) => data.kinds.includes(k));
      select.replaceChildren(...kinds.map(([k, v]) => option(v, k)));
      const fallback = i === 0 ? "you" : (data.kinds.includes("bot") ? "bot" : "open");
      select.value = kinds.some(([k]) => k === old[i]) ? old[i] : fallback;
      const command = document.createElement("input");
      command.id = "family-command-" + i;
      command.placeholder = "bot command with {host} {port}";
      // a bot seat offers the game's rungs, weakest first (the reference bot's own rung preselected)
      const rung = document.createElement("select");
      rung.id = "family-rung-" + i;
      rung.className = "seat-strength";
      rung.setAttribute("aria-label", "the bot's rung");
      const offered = games[$("family-game").value].rungs || [];
      rung.replaceChildren(...offered.map(name => option(name, name)));
      if (oldRungs[i] && offered.includes(oldRungs[i])) rung.value = oldRungs[i];
      else if (offered.includes("greedy")) rung.value = "greedy";
      const show = () => { command.hidden = select.value !== "command"; rung.hidden = select.value !== "bot" || offered.length < 2; };
      show();
      select.addEventListener("change", show);
      label.appendChild(select);
      box.append(label, rung, command);
    }
  }
  for (const id of ["family-game", "family-map", "family-robots"]) $(id).addEventListener("change", () => {
    if (id === "family-map") { uploaded = null; $("family-map-file").value = ""; }
    drawSeats();
  });
  $("family-map-file").addEventListener("change", async () => {
    const file = $("family-map-file").files[0];
    if (!file) { uploaded = null; drawSeats(); return; }
    const text = await file.text();
    const players = parseInt(text.trim().split(/\s+/)[0], 10);
    uploaded = {text, players: players >= 2 && players <= 8 ? players : 2};
    drawSeats();
  });
  form.hidden = false;
  drawSeats();

  form.addEventListener("submit", async event => {
    event.preventDefault();
    const game = $("family-game").value;
    const seats = [...Array(seatCount()).keys()].map(i => {
      const kind = $("family-seat-" + i).value, rung = $("family-rung-" + i);
      if (kind === "bot" && !rung.hidden && rung.value) return {kind, rung: rung.value};
      return kind === "command" ? {kind, command: $("family-command-" + i).value} : kind;
    });
    const body = {game, seats, timeout: $("family-timeout").checked};
    if (game === "roborally") Object.assign(body, {course: $("family-course").value, robots: seats.length});
    else if (uploaded) body.map_text = uploaded.text;
    else body.map = $("family-map").value;
    const answer = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                               body: JSON.stringify(body)});
    const table = await answer.json();
    const result = $("family-result");
    if (!answer.ok) { result.textContent = table.error; return; }
    result.replaceChildren();
    let mine = null;
    for (const s of table.seats) {
      const line = document.createElement("div");
      line.textContent = s.color + ": " + (FAMILY_KINDS[s.kind] || s.kind) + " ";
      if (s.url) {
        const link = document.createElement("a");
        link.textContent = s.kind === "you" ? "your seat" : location.origin + s.url;
        link.href = s.url;
        link.className = "seat-link " + s.kind;
        line.appendChild(link);
        if (s.kind === "you" && mine === null) mine = s.url;
      }
      if (s.port) { const code = document.createElement("code"); code.textContent = s.host + " " + s.port; code.className = "open-port"; line.appendChild(code); }
      result.appendChild(line);
    }
    // a second person's link or an open seat's port is to be passed on: stay and show them
    if (mine && !table.seats.some(s => s.kind === "person" || s.kind === "open")) location.href = mine;
  });
}

startFamilyTables();
