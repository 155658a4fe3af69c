// The Players page (issue 50): each roster name's plays, wins, win share, best
// score and last play per game, over the whole journal or the last evening, as
// the device counts them (companion/stats.py). Text via textContent only.
"use strict";
(function () {
  const base = "/" + location.pathname.split("/")[1] + "/";
  const $ = (id) => document.getElementById(id);
  const EVERY_MS = 5000;
  let scope = location.hash === "#evening" ? "evening" : "all";
  let shown = "";
  let timer = 0;
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function draw(v) {
    const h = v.headings || {};
    const l = v.labels || {};
    document.documentElement.lang = v.lang || "en";
    $("title").textContent = `${v.title} · ${v.scope_words}`;
    document.title = v.title;
    $("scope").textContent = v.other_words;
    $("back").textContent = l.scoreboard || "Scoreboard";
    $("history").textContent = l.history || "History";
    const box = $("players");
    box.replaceChildren();
    v.players.forEach((p) => {
      const sec = el("section", "player");
      sec.appendChild(el("h2", "", p.name));
      const t = el("table", "player-table");
      t.appendChild(el("caption", "sr-only", `${p.name}: ${v.scope_words}`));
      const head = el("tr");
      ["game", "plays", "wins", "share", "best", "last"].forEach((k) => {
        const th = el("th", "", h[k] || k);
        th.setAttribute("scope", "col");
        head.appendChild(th);
      });
      const thead = el("thead");
      thead.appendChild(head);
      t.appendChild(thead);
      const body = el("tbody");
      p.games.forEach((g) => {
        const tr = el("tr");
        tr.dataset.game = g.game;
        const th = el("th", "", g.title);
        th.setAttribute("scope", "row");
        tr.appendChild(th);
        [g.plays, g.wins, `${g.share} %`, g.best, g.last].forEach((x) => tr.appendChild(el("td", "", x)));
        body.appendChild(tr);
      });
      t.appendChild(body);
      sec.appendChild(t);
      box.appendChild(sec);
    });
    document.body.dataset.players = String(v.players.length);
    document.body.dataset.scope = v.scope;
  }
  function load() {
    clearTimeout(timer);
    fetch(base + (scope === "evening" ? "players-evening.json" : "players.json"), { cache: "no-store" }).then((r) => {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.text();
    }).then((text) => {
      $("error").hidden = true;
      if (text !== shown) { shown = text; draw(JSON.parse(text)); }
    }).catch((e) => {
      $("error").hidden = false;
      $("error").textContent = String(e);
    }).finally(() => { timer = setTimeout(load, EVERY_MS); });
  }
  $("scope").addEventListener("click", (e) => {
    e.preventDefault();
    scope = scope === "evening" ? "all" : "evening";
    history.replaceState(null, "", scope === "evening" ? "#evening" : "#");
    load();
  });
  load();
})();
