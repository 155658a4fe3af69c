// The history page: every game in the journal, with the downloads the command
// line makes (JSON record, CSV scores, PNG sheet). Text via textContent only.
"use strict";
(function () {
  const base = "/" + location.pathname.split("/")[1] + "/";
  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  fetch(base + "history.json", { cache: "no-store" }).then((r) => {
    if (!r.ok) throw new Error(r.status + " " + r.statusText);
    return r.json();
  }).then((h) => {
    const l = h.labels || {};
    document.documentElement.lang = h.lang || "en";
    $("title").textContent = l.history || "History";
    document.title = l.history || "History";
    $("back").textContent = l.scoreboard || "Scoreboard";
    const ol = $("games");
    h.games.forEach((g) => {
      const li = el("li", "game");
      li.appendChild(el("b", "", `${g.title} #${g.number}`));
      li.appendChild(el("span", "date", g.date));
      li.appendChild(el("span", "players", g.players.join(", ")));
      li.appendChild(el("span", "result", g.result));
      const dl = el("span", "downloads");
      ["json", "csv", "png"].forEach((f) => {
        if (f === "json" && g.hidden) return;  // V-1: an unfinished game's secret colors
        const a = el("a", "", f.toUpperCase());
        a.href = `${base}export/${g.id}.${f}`;
        a.setAttribute("download", "");
        dl.appendChild(a);
      });
      li.appendChild(dl);
      ol.appendChild(li);
    });
  }).catch((e) => {
    $("error").hidden = false;
    $("error").textContent = String(e);
  });
})();
