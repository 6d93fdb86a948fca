// The result table of the game page (viewer.js) and of both seat pages (seat_common.js): one row
// per seat, the columns `swc replay` prints. Loaded before the page's own scripts.
"use strict";

function fillResultTable(rows) {
  const body = document.getElementById("result").querySelector("tbody");
  body.replaceChildren();
  for (const r of rows || []) {
    const row = document.createElement("tr");
    for (const cell of [r.rank ?? "-", String(r.seat).toUpperCase(), r.name, r.cause, r.score.join(" / "), r.reason || ""]) {
      const td = document.createElement("td");
      td.textContent = cell;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
}
