// The run page of a tournament: reads /api/tournaments/ID and draws it. Every name goes into the
// page as text (textContent), never as markup. window.swcTournament keeps the newest data.
"use strict";
(function () {
  const id = decodeURIComponent(location.pathname.split("/").pop());
  const SVG = "http://www.w3.org/2000/svg";
  let timer = null;

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function row(cells, numeric) {
    const tr = el("tr");
    cells.forEach((cell, i) => {
      const td = cell instanceof Node ? el("td") : el("td", cell);
      if (cell instanceof Node) td.appendChild(cell);
      if (numeric && numeric.includes(i)) td.className = "num";
      tr.appendChild(td);
    });
    return tr;
  }
  function fill(table, head, rows, numeric) {
    const thead = table.querySelector("thead"), tbody = table.querySelector("tbody");
    if (head) { thead.replaceChildren(row(head)); thead.querySelectorAll("td").forEach(td => { const th = el("th", td.textContent); td.replaceWith(th); }); }
    tbody.replaceChildren(...rows.map(cells => row(cells, numeric)));
  }
  function ms(value) { return value === null || value === undefined ? "-" : Math.round(value); }
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  // A line chart over the pairs: ``series`` (y per point, null: none), an optional band and lines.
  function chart(target, points, band, lines, label) {
    target.replaceChildren();
    const width = +target.getAttribute("width"), height = +target.getAttribute("height");
    const left = 48, right = 10, top = 10, bottom = 28;
    const values = points.filter(p => p.y !== null).map(p => p.y)
      .concat(lines.map(l => l.y), band.flatMap(b => [b.low, b.high]).filter(v => v !== null), [0]);
    let low = Math.min(...values), high = Math.max(...values);
    if (high - low < 1e-9) { high += 1; low -= 1; }
    const pad = (high - low) * 0.05; low -= pad; high += pad;
    const count = Math.max(1, ...points.map(p => p.x));
    const x = v => left + (width - left - right) * (v / count);
    const y = v => top + (height - top - bottom) * (1 - (v - low) / (high - low));
    target.appendChild(svg("line", {class: "zero", x1: left, x2: width - right, y1: y(0), y2: y(0)}));
    if (band.length) {
      const upper = band.filter(b => b.high !== null && b.low !== null);
      const polygon = upper.map(b => `${x(b.x)},${y(b.high)}`).concat(upper.slice().reverse().map(b => `${x(b.x)},${y(b.low)}`));
      if (polygon.length) target.appendChild(svg("polygon", {class: "band", points: polygon.join(" ")}));
    }
    for (const line of lines) {
      target.appendChild(svg("line", {class: "bound", x1: left, x2: width - right, y1: y(line.y), y2: y(line.y), "data-value": line.y}));
      const text = svg("text", {x: left + 4, y: y(line.y) - 3}); text.textContent = `${line.name} ${line.y.toFixed(2)}`;
      target.appendChild(text);
    }
    const shown = points.filter(p => p.y !== null);
    target.appendChild(svg("polyline", {class: label, points: [{x: 0, y: 0}].concat(shown).map(p => `${x(p.x)},${y(p.y)}`).join(" "),
                                        "data-points": shown.length}));
    for (const [v, anchor] of [[high, top + 10], [low, height - bottom]]) {
      const text = svg("text", {x: 2, y: anchor}); text.textContent = v.toFixed(label === "llr" ? 2 : 0); target.appendChild(text);
    }
    const axis = svg("text", {x: width - right - 60, y: height - 8}); axis.textContent = `${count} pairs`; target.appendChild(axis);
  }

  // The contest's formats: each stage's standings, its match days with their encounters (each
  // game a link to its replay) and the Final Eight's bracket.
  function gameLinks(encounter, games, viewer) {
    const span = el("span", null, "games");
    encounter.games.forEach((key, i) => {
      const game = games[key];
      let link;
      if (viewer[key]) { link = el("a", String(i + 1)); link.href = `/game/${encodeURIComponent(viewer[key])}`; }
      else link = el("span", String(i + 1));
      link.dataset.key = key;
      if (game && !game.error) {
        const home = game.seats.find(s => s.bot === encounter.home), away = game.seats.find(s => s.bot === encounter.away);
        if (home && away) link.className = home.rank < away.rank ? "won-home" : home.rank > away.rank ? "won-away" : "drawn";
        link.title = game.seats.map(s => `${s.bot} (${s.seat}): ${s.rank === 1 ? "1st" : "2nd"}, ${s.cause}`).join("; ");
      } else if (game) link.title = `no result: ${game.error}`;
      else link.title = "not played yet";
      span.appendChild(link);
      span.appendChild(document.createTextNode(" "));
    });
    return span;
  }
  function leagueStandings(stage) {
    const table = el("table", null, "league-standings");
    table.appendChild(el("thead")); table.appendChild(el("tbody"));
    fill(table, ["#", "team", "points", "victory points", "won", "drawn", "lost", "games", "sat out"],
      stage.standings.map(r => [r.rank + (r.lot ? "*" : ""), r.team, r.points, r.victory_points, r.won, r.drawn, r.lost,
        r.games, r.sat_out]), [0, 2, 3, 4, 5, 6, 7, 8]);
    return table;
  }
  function matchDays(stage, games, viewer) {
    const box = el("details", null, "days");
    box.appendChild(el("summary", `Match days (${stage.days.length})`));
    for (const day of stage.days) {
      const section = el("div", null, "day");
      section.dataset.day = day.day;
      section.appendChild(el("h3", `Match day ${day.day}`));
      if (day.sits_out) section.appendChild(el("p", `${day.sits_out} sits out`, "bye"));
      const table = el("table", null, "encounters");
      table.appendChild(el("thead")); table.appendChild(el("tbody"));
      fill(table, ["home", "away", "games won", "points", "games"], day.encounters.map(e => {
        const home = el("span", e.home), away = el("span", e.away);
        if (e.winner === e.home) home.className = "winner"; if (e.winner === e.away) away.className = "winner";
        return [home, away, e.wins.join(":"), e.points ? e.points.join(":") : `${e.played}/${e.games.length} played`,
                gameLinks(e, games, viewer)];
      }), [2, 3]);
      table.querySelectorAll("tbody tr").forEach((tr, i) => { tr.dataset.encounter = day.encounters[i].key; });
      section.appendChild(table);
      box.appendChild(section);
    }
    return box;
  }
  function bracket(stage, games, viewer) {
    const box = el("div", null, "bracket");
    const names = stage.teams.length === 8 ? ["Quarter-finals", "Semi-finals", "Finals"] : ["Semi-finals", "Finals"];
    stage.days.forEach((day, i) => {
      const round = el("div", null, "round");
      round.appendChild(el("h3", names[i]));
      for (const e of day.encounters) {
        const match = el("div", null, "match");
        match.dataset.encounter = e.key;
        match.appendChild(el("div", e.title, "title"));
        [[e.home, 0], [e.away, 1]].forEach(([team, side]) => {
          const line = el("div", null, "line" + (e.winner === team ? " winner" : ""));
          line.appendChild(el("span", team)); line.appendChild(el("span", e.wins[side]));
          match.appendChild(line);
        });
        if (e.decided_by && e.decided_by !== "wins") {
          match.appendChild(el("div", e.decided_by === "lot" ? "equal wins and points: decided by lot"
            : `equal wins: decided by the points at the end (${e.game_points.join(":")})`, "decided"));
        }
        match.appendChild(gameLinks(e, games, viewer));
        round.appendChild(match);
      }
      box.appendChild(round);
    });
    return box;
  }
  function drawLeague(league, gameList, viewer) {
    const target = document.getElementById("league");
    target.hidden = false;
    const games = Object.fromEntries(gameList.map(g => [g.key, g]));
    const parts = [];
    for (const stage of league.stages) {
      const section = el("section", null, "stage");
      section.dataset.stage = stage.key;
      section.appendChild(el("h2", stage.title + (stage.complete ? "" : " (in play)")));
      if (stage.kind === "league") {
        section.appendChild(leagueStandings(stage));
        if (stage.standings.some(r => r.lot)) section.appendChild(el("p", "* equal in points and victory points: the place was drawn by lot", "small"));
        section.appendChild(matchDays(stage, games, viewer));
      } else {
        section.appendChild(bracket(stage, games, viewer));
        if (stage.places.length) {
          const list = el("ul", null, "places");
          for (const p of stage.places) { const item = el("li", `${p.place}. ${p.team}`); item.dataset.place = p.place; list.appendChild(item); }
          section.appendChild(list);
        }
      }
      parts.push(section);
    }
    target.replaceChildren(...parts);
  }

  function draw(data) {
    const report = data.report, viewer = data.viewer || {};
    window.swcTournament = data;
    const settings = report.settings;
    document.getElementById("title").textContent = `${settings.game}: ${settings.bots.map(b => b[0]).join(", ")}`;
    document.title = `tournament ${settings.bots.map(b => b[0]).join(" vs ")}`;
    const running = !data.finished;  // or interrupted: the page cannot tell, it keeps looking
    const status = document.getElementById("status");
    const known = report.league && !report.league.complete ? " known so far" : "";
    status.textContent = `${report.games} of ${report.scheduled} games${known}` + (running ? " (not finished: running, or interrupted)" : " (finished)");
    status.className = running ? "running" : "finished";
    document.getElementById("verdict").textContent = report.verdict || report.stopped || "";
    document.getElementById("notes").replaceChildren(...report.notes.map(n => el("li", n)));

    fill(document.getElementById("standings"),
      ["#", "bot", "games", "W", "D", "L", "no result", "points", "score", "Elo ± 95 %", "ms/move avg", "ms/move max", "rating μ ± σ", "not regular"],
      report.standings.map(r => [r.rank, r.bot, r.games, r.wins, r.draws, r.losses, r.no_result, r.points,
        (100 * r.score).toFixed(1) + "%", r.elo_text || "-", ms(r.think_avg_ms), ms(r.think_max_ms),
        `${r.rating_mu.toFixed(1)} ± ${r.rating_sigma.toFixed(1)}`,
        Object.entries(r.causes).map(([c, n]) => `${c} ${n}`).join(", ") || "-"]), [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const small = report.standings.some(r => r.small_sample) || report.head_to_head.some(h => h.small_sample);
    document.getElementById("standings-note").textContent = small ? "* from fewer than 30 game pairs: a rough guide, not a measurement" : "";

    fill(document.getElementById("heads"), ["pairing", "pairs", "pentanomial LL..WW", "games L/D/W", "Elo ± 95 %", "LOS", "mirrors"],
      report.head_to_head.map(h => [`${h.first} vs ${h.second}`, h.pentanomial.reduce((a, b) => a + b, 0), h.pentanomial.join(" "),
        h.trinomial.join("/"), h.elo_text || "-", h.los === null ? "-" : (100 * h.los).toFixed(1) + "%", h.mirrors]), [1, 4, 5, 6]);

    const names = settings.bots.map(b => b[0]);
    const league = report.league;
    document.getElementById("heads-section").hidden = Boolean(league);
    document.getElementById("crosstable-section").hidden = Boolean(league);
    document.getElementById("games-standings-title").textContent = league ? "Every game, per team" : "Standings";
    if (league) {
      const open = new Set([...document.querySelectorAll("#league details[open]")].map(d => d.closest(".stage").dataset.stage));
      drawLeague(league, report.game_list, viewer);
      document.querySelectorAll("#league details").forEach(d => { if (open.has(d.closest(".stage").dataset.stage)) d.open = true; });
    }
    fill(document.getElementById("crosstable"), ["bot", ...names],
      names.map(a => [a, ...names.map(b => {
        if (a === b) return "";
        const cell = (report.crosstable[a] || {})[b];
        return cell && cell[1] ? `${cell[0]}/${cell[1]}` : "-";
      })]), names.map((_, i) => i + 1));

    const history = report.history;
    document.getElementById("sprt-section").hidden = !history.length;
    if (history.length) {
      document.getElementById("pairs-title").textContent = `After every game pair of ${names[0]} vs ${names[1]}`;
      document.getElementById("llr-box").hidden = !report.sprt;
      const lines = report.sprt ? [{name: "H1", y: report.sprt.upper_bound}, {name: "H0", y: report.sprt.lower_bound}] : [];
      chart(document.getElementById("llr-chart"), history.map(h => ({x: h.pair, y: h.llr})), [], lines, "llr");
      chart(document.getElementById("elo-chart"), history.map(h => ({x: h.pair, y: h.elo})),
            history.map(h => ({x: h.pair, low: h.elo_low, high: h.elo_high})), [], "elo");
    }

    const irregular = [];
    for (const game of report.game_list) {
      for (const seat of game.seats) {
        if (seat.cause !== "REGULAR") irregular.push([game.key, seat.bot, seat.cause, seat.reason || ""]);
      }
      if (game.error) irregular.push([game.key, "-", "NO_RESULT", game.error]);
    }
    fill(document.getElementById("irregular"), null, irregular);
    document.getElementById("no-irregular").hidden = irregular.length > 0;
    document.getElementById("irregular").hidden = irregular.length === 0;

    fill(document.getElementById("game-list"), null, report.game_list.map(g => {
      let link = "-";
      if (viewer[g.key]) { link = el("a", "open"); link.href = `/game/${encodeURIComponent(viewer[g.key])}`; }
      return [g.position + 1, g.key, g.opening || "-", g.seats.map(s => `${s.bot} (${s.rank})`).join(", "),
              g.seats.map(s => s.cause).join(", "), g.worker || "-", g.retries, link];
    }), [0, 6]);
    document.body.dataset.games = report.games;
    if (!running && timer !== null) { clearInterval(timer); timer = null; }
  }

  async function load() {
    try {
      const response = await fetch(`/api/tournaments/${encodeURIComponent(id)}`);
      const data = await response.json();
      if (!response.ok) { document.getElementById("status").textContent = data.error || response.statusText; return; }
      draw(data);
    } catch (error) {
      document.getElementById("status").textContent = `cannot load the tournament: ${error}`;
    }
  }
  load();
  timer = setInterval(load, 2000);
})();
