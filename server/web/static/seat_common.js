// What both seat pages (seat.js: the XML games; seat_family.js: ReversiXT and Robo Rally) share:
// the seat's API address, the element and text helpers, and showing the result. Loaded before the
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
  fillResultTable(rows);
}
