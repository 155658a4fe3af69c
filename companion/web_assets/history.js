// The history page: every game in the journal with its scores and the downloads
// the command line makes (the record as JSON lines, the scores as CSV, the score
// sheet as PNG). It reads the history again every few seconds, so a game that
// goes on or ends shows it. Text via textContent only.
"use strict";
(function () {
  const base = "/" + location.pathname.split("/")[1] + "/";
  const $ = (id) => document.getElementById(id);
  const EVERY_MS = 5000;
  let shown = "";
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function draw(h) {
    const l = h.labels || {};
    document.documentElement.lang = h.lang || "en";
    $("title").textContent = l.history || "History";
    document.title = l.history || "History";
    $("back").textContent = l.scoreboard || "Scoreboard";
    const ol = $("games");
    ol.replaceChildren();
    h.games.forEach((g) => {
      const li = el("li", "game");
      // "<title> #3", "<title> n°3" in French: as the device numbers a game
      li.appendChild(el("h2", "", (l.numbered || "{game} #{n}").replace("{game}", g.title).replace("{n}", g.number)));
      li.appendChild(el("span", "date", g.date));
      const players = el("span", "players");
      players.textContent = g.players.map((p, i) => (g.scores && g.scores[i] !== undefined ? `${p} ${g.scores[i]}` : p)).join(" · ");
      li.appendChild(players);
      li.appendChild(el("span", "result", g.result));
      const dl = el("span", "downloads");
      ["json", "csv", "png"].forEach((f) => {
        if (f === "json" && g.hidden) return;  // V-1: an unfinished game's secret colors
        const a = el("a", "", l[f] || f.toUpperCase());
        const file = (g.files || {})[f] || `${g.id}.${f}`;
        a.href = `${base}export/${g.id}.${f}`;
        a.setAttribute("download", file);
        a.setAttribute("aria-label", `${l[f] || f} ${file}`);
        dl.appendChild(a);
      });
      li.appendChild(dl);
      const after = window.afterGameLine && window.afterGameLine(g, base, l);  // issue 50 (after.js)
      if (after) li.appendChild(after);
      ol.appendChild(li);
    });
    document.body.dataset.games = h.games.length;
  }
  function load() {
    fetch(base + "history.json", { cache: "no-store" }).then((r) => {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.text();
    }).then((text) => {
      $("error").hidden = true;
      if (text !== shown) { shown = text; draw(JSON.parse(text)); }
    }).catch((e) => {
      $("error").hidden = false;
      $("error").textContent = String(e);
    }).finally(() => setTimeout(load, EVERY_MS));
  }
  load();
})();
