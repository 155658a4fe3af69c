// The scoreboard page (issue 32). It draws the device's public projection
// (companion/public.py) as it comes, and computes no rule of its own: every
// word and number on it is in the projection. Text goes in with textContent
// only, so a player's name is never read as markup.
"use strict";
(function () {
  const base = "/" + location.pathname.split("/")[1] + "/";
  const tv = /\/tv$/.test(location.pathname);
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = { r: "red", y: "yellow", g: "green", b: "blue", k: "black", w: "white", c: "cyan", p: "purple", o: "orange" };
  const HEIGHT = { S: 0.55, M: 0.78, L: 1.0 };
  const CODE = Object.fromEntries(Object.entries(COLORS).map(([code, name]) => [name, code]));
  let labels = {};
  let es = null;

  if (tv) document.body.classList.add("tv");

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // A piece code ("yL": yellow large) as a small pyramid seen from the side.
  function piece(code, scale) {
    const s = scale || 1;
    const color = COLORS[code[0]] || "grey";
    const h = HEIGHT[code[1]] || 0.7;
    const w = 22 * s, H = 26 * s;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "piece " + color);
    svg.setAttribute("viewBox", `0 0 ${w} ${H}`);
    svg.setAttribute("width", w); svg.setAttribute("height", H);
    svg.setAttribute("role", "img");
    const title = document.createElementNS(SVG, "title");
    title.textContent = code;
    svg.appendChild(title);
    const p = document.createElementNS(SVG, "path");
    const pw = w * (0.45 + 0.55 * h), ph = H * h;
    p.setAttribute("d", `M${w / 2} ${H - ph} L${(w + pw) / 2} ${H} L${(w - pw) / 2} ${H} Z`);
    svg.appendChild(p);
    return svg;
  }

  function pieces(list, scale) {
    const span = el("span", "pieces");
    (list || []).forEach((c) => span.appendChild(piece(c, scale)));
    return span;
  }

  // A Bottoms Up stack: its pieces bottom to top, drawn upwards, the top on top.
  function stack(label, list, changed) {
    const box = el("figure", "stack" + (changed ? " changed" : ""));
    const col = el("div", "column");
    (list || []).forEach((c) => col.appendChild(piece(c, 1.3)));
    box.appendChild(col);
    box.appendChild(el("figcaption", "", label));
    return box;
  }

  function row(dl, term, value) {
    if (value === null || value === undefined || value === "") return;
    dl.appendChild(el("dt", "", term));
    const dd = el("dd");
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = String(value);
    dl.appendChild(dd);
  }

  function undercut(t, v) {
    const box = document.createDocumentFragment();
    const dl = el("dl", "facts");
    row(dl, labels.round, t.round);
    if (t.combo_values) {
      row(dl, labels.combos, Object.entries(t.combo_values).map(([k, n]) => `${k} ${n}`).join(" · "));
    }
    if (t.end_triggered) row(dl, labels.end, "✓");
    row(dl, labels.bag, t.bag_count);
    box.appendChild(dl);
    if (t.stacks && t.stacks.length) {
      box.appendChild(el("h2", "", labels.stacks));
      const ul = el("ul", "stacks");
      t.stacks.forEach((s) => {
        const li = el("li");
        li.appendChild(el("b", "", s.name));
        li.appendChild(pieces(s.pieces));
        if (s.bid) {
          const who = (v.players[s.bid.seat] || {}).name || "?";
          const bid = el("span", "bid", `${labels.bid}: ${who} `);
          bid.appendChild(pieces(s.bid.pieces, 0.8));
          li.appendChild(bid);
        }
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    if (t.hands) {
      box.appendChild(el("h2", "", labels.hands));
      const ul = el("ul", "hands");
      t.hands.forEach((h, i) => {
        const li = el("li");
        li.appendChild(el("b", "", (v.players[i] || {}).name || "?"));
        li.appendChild(pieces(h, 0.8));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    return box;
  }

  function bagOfIce(t) {
    const box = document.createDocumentFragment();
    const dl = el("dl", "facts");
    row(dl, labels.target, t.target);
    if (t.drawn && t.drawn.length) row(dl, labels.drawn, pieces(t.drawn));
    row(dl, labels.turn, t.turn_total);
    row(dl, labels.face, t.face);
    if (t.bust_percent !== undefined && t.bust_percent !== null) row(dl, labels.bust, t.bust_percent + " %");
    row(dl, labels.advice, t.advice);
    row(dl, labels.bag, t.bag_count);
    box.appendChild(dl);
    return box;
  }

  function bottomsUp(t) {
    const box = document.createDocumentFragment();
    box.appendChild(el("h2", "", labels.field));
    const field = el("div", "field");
    const changed = new Set(t.changed || []);
    (t.field || []).forEach((s) => field.appendChild(stack(s.label, s.pieces, changed.has(s.label))));
    box.appendChild(field);
    const dl = el("dl", "facts");
    row(dl, labels.stash, t.stash_count);
    box.appendChild(dl);
    if (!t.secret_colors) box.appendChild(el("p", "note", labels.secret));
    return box;
  }

  function render(v) {
    labels = v.labels || labels;
    document.documentElement.lang = v.lang || "en";
    $("l-scores").textContent = labels.scores;
    $("l-moves").textContent = labels.moves;
    $("history-link").textContent = labels.history;
    const s = v.session;
    // between games (V-4) the last game's final result may stay, marked as finished
    const finished = s && v.playing === false ? ` (${labels.finished || "finished"})` : "";
    const title = s ? `${s.title} #${s.number}${finished}` : "Pyramid Table Companion";
    $("title").textContent = title;
    document.title = title;
    document.body.classList.toggle("finished", !!finished);
    $("waiting").textContent = v.waiting;
    $("result").hidden = !v.result;
    $("result").textContent = v.result || "";
    const winners = new Set(v.winners || []);
    const ol = $("scores");
    ol.replaceChildren();
    v.players.forEach((p) => {
      const li = el("li", "player");
      if (p.seat === v.to_act) li.classList.add("to-act");
      if (winners.has(p.seat)) li.classList.add("winner");
      li.appendChild(el("span", "name", p.name));
      const secret = v.table && v.table.secret_colors && v.table.secret_colors[p.seat];
      if (secret) li.appendChild(piece((CODE[secret] || "?") + "M"));  // BU-3: shown once the game is over
      li.appendChild(el("span", "score", p.score));
      li.dataset.seat = p.seat;
      ol.appendChild(li);
    });
    const table = $("table");
    table.replaceChildren();
    if (s && v.table) {
      const draw = { undercut: undercut, bag_of_ice: bagOfIce, bottoms_up: bottomsUp }[s.game];
      if (draw) table.appendChild(draw(v.table, v));
    }
    const moves = $("moves");
    moves.replaceChildren();
    (v.moves || []).slice().reverse().forEach((m) => moves.appendChild(el("li", "", m)));
    document.body.dataset.seq = v.seq;
    document.body.dataset.session = s ? s.id : "";
    // a seat's own page draws its part from the same state (static/seat.js, issue 41)
    document.dispatchEvent(new CustomEvent("scoreboard:state", { detail: v }));
  }

  function status(live) {
    const st = $("status");
    // the badge's words come with the first state, in the device's language: until
    // then it keeps its neutral "…" (a French page never says "live" first)
    if (!labels.live) { st.className = "status " + (live ? "on" : "off"); return; }
    st.textContent = live ? labels.live || "live" : labels.offline || "reconnecting…";
    st.className = "status " + (live ? "on" : "off");
  }

  function connect() {
    // EventSource sends Last-Event-ID on its own reconnects: the device answers with the
    // newest state at once if the page missed any (a dropped network, a restart)
    es = new EventSource(base + "events");
    es.addEventListener("open", () => status(true));
    es.addEventListener("state", (e) => { render(JSON.parse(e.data)); status(true); });
    es.addEventListener("gone", () => { es.close(); expired(); });
    es.addEventListener("error", () => {
      status(false);
      if (es.readyState === EventSource.CLOSED) {
        // refused (503: too many pages) or the device said 404: look again, slowly
        setTimeout(() => fetch(base + "state.json", { cache: "no-store" }).then((r) => {
          if (r.status === 404) expired(); else connect();
        }, () => connect()), 3000);
      }
    });
  }

  function expired() {
    status(false);
    $("waiting").textContent = labels.expired || "This address is no longer valid: scan the QR code on the device again.";
  }

  connect();
})();
