// What both seat pages (seat.js: the XML games; seat_family.js: ReversiXT and Robo Rally) share:
// the seat's API address, the element and text helpers, and the result table. Loaded before the
// page's own script; `seat` is that script's (the pages' scripts share one global scope).
"use strict";

const seatId = decodeURIComponent(location.pathname.split("/").pop());
const api = "/api/seats/" + encodeURIComponent(seatId);
const $ = id => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function text(id, value) { $(id).textContent = value ?? ""; }

function showResult() {
  const rows = seat.result_rows;
  $("result-box").hidden = !(seat.over && rows);
  const body = $("result").querySelector("tbody");
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
