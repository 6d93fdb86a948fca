// The result table of the game page (viewer.js) and of both seat pages (seat_common.js): one row
// per seat, the columns `swc replay` prints. Loaded before the page's own scripts.
"use strict";

function fillResultTable(rows) {
  const body = document.getElementById("result").querySelector("tbody");
  body.replaceChildren();
  for (const r of rows || []) {
    const row = document.createElement("tr");
    // the name column holds only a name a client sent: the seat column already names the seat
    const name = r.named === false ? "" : r.name;
    const cells = [[r.rank ?? "-", true], [String(r.seat).toUpperCase(), true], [name, false], [r.cause, true],
                   [r.score.join(" / "), true], [r.reason || "", false]];
    for (const [cell, short] of cells) {
      const td = document.createElement("td");
      td.textContent = cell;
      if (short) td.className = "nowrap";
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}

// "alice", or the seat once where no client sent a name ("RED", not "RED (Unknown)" or "ONE (ONE)"):
// the server's `shown` (server/web/book.py shown_name), the seat before a server that sends none.
function playerName(p) { return p.shown || String(p.seat).toUpperCase(); }
