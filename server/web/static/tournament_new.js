// Starting a league from the viewer: reads /api/tournaments/options, posts the form to
// /api/tournaments and opens the new run page. Every value goes into the page as text.
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const HINTS = {
    "league": "groups of about the size below, in match days; on each day every team plays one encounter, an odd team sits out",
    "champions": "the groups, then the Champions League of the best of each group",
    "final-eight": "a knockout of 8 (or 4) teams in the order given: quarter-finals, semi-finals, third place, final",
    "contest": "the whole contest: groups, Champions League, Final Eight of its best eight",
  };
  function option(value) { const node = document.createElement("option"); node.value = value; node.textContent = value; return node; }

  async function load() {
    const response = await fetch("/api/tournaments/options");
    const data = await response.json();
    if (!response.ok) { $("error").textContent = data.error || response.statusText; return; }
    $("game").replaceChildren(...data.games.map(option));
    $("format").replaceChildren(...data.formats.map(option));
    $("format").value = data.defaults.format;
    $("games").value = data.defaults.games_per_encounter;
    $("group-size").value = data.defaults.group_size;
    $("advance").value = data.defaults.advance;
    $("passphrase-box").hidden = !data.needs_passphrase;
    $("format-hint").textContent = HINTS[$("format").value] || "";
    document.body.dataset.ready = "1";
  }
  $("format").addEventListener("change", () => { $("format-hint").textContent = HINTS[$("format").value] || ""; });

  $("start-form").addEventListener("submit", async event => {
    event.preventDefault();
    $("error").textContent = "";
    $("start").disabled = true;
    const body = {
      game: $("game").value, format: $("format").value, games_per_encounter: Number($("games").value),
      group_size: Number($("group-size").value), advance: Number($("advance").value),
      seed: $("seed").value === "" ? null : Number($("seed").value),
      teams: $("teams").value.split("\n").map(line => line.trim()).filter(line => line),
      passphrase: $("passphrase").value || null,
    };
    try {
      const response = await fetch("/api/tournaments", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      const data = await response.json();
      if (!response.ok) { $("error").textContent = data.error || response.statusText; return; }
      location.href = data.url;
    } catch (error) {
      $("error").textContent = `cannot start: ${error}`;
    } finally {
      $("start").disabled = false;
    }
  });
  load();
})();
