// The scoreboard page (issues 32 and 37). It draws the device's public projection
// (companion/public.py) as it comes, and computes no rule of its own: every
// word and number on it is in the projection. Text goes in with textContent
// only, so a player's name is never read as markup.
"use strict";
(function () {
  const base = "/" + location.pathname.split("/")[1] + "/";
  // the public pages' address: a seat's own page (V-3) is told it, so that no link it
  // offers to others (the TV page, History) holds the seat's private address
  const home = ((m) => (m && /^\/[A-Za-z0-9_-]+\/$/.test(m.content) ? m.content : base))(
    document.querySelector('meta[name="scoreboard-home"]'));
  const tv = /\/tv\/?$/i.test(location.pathname);
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = { r: "red", y: "yellow", g: "green", b: "blue", k: "black", w: "white", c: "cyan", p: "purple", o: "orange", x: "clear" };
  const HEIGHT = { S: 0.55, M: 0.78, L: 1.0 };
  const GONE_MS = 10000;  // a device not heard from for this long is said to be gone
  let labels = {};
  let lastView = null;
  let state = "wait";     // the connection: wait, on, off, gone, expired, full
  let offSince = 0;

  if (tv) document.body.classList.add("tv");

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function srOnly(text) { return el("span", "sr-only", text); }

  // between a label and its value: ": ", or the narrow no-break space French puts before it
  function colon() { return labels.colon || ": "; }

  let pieceNames = {};
  let lastData = {};    // the table's data-* set on the body by the last state
  function pieceName(code) { return pieceNames[code] || code; }

  // A piece code ("yL": yellow large) as a small pyramid seen from the side, with its
  // color's letter on it (not by color alone) and its name for a screen reader.
  function piece(code, scale) {
    const s = scale || 1;
    const color = COLORS[code[0]] || "grey";
    const h = HEIGHT[code[1]] || 0.7;
    const w = 26 * s, H = 30 * s;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "piece " + color);
    svg.setAttribute("viewBox", `0 0 ${w} ${H}`);
    svg.setAttribute("width", w); svg.setAttribute("height", H);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", pieceName(code));
    const title = document.createElementNS(SVG, "title");
    title.textContent = pieceName(code);
    svg.appendChild(title);
    const p = document.createElementNS(SVG, "path");
    const pw = w * (0.5 + 0.5 * h), ph = H * h;
    p.setAttribute("d", `M${w / 2} ${H - ph} L${(w + pw) / 2} ${H - 1} L${(w - pw) / 2} ${H - 1} Z`);
    svg.appendChild(p);
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", w / 2); t.setAttribute("y", H - 3 * s);
    t.setAttribute("text-anchor", "middle");
    t.setAttribute("font-size", 10 * s);
    t.setAttribute("aria-hidden", "true");
    t.textContent = code[0];
    svg.appendChild(t);
    return svg;
  }

  // A piece with its code beside it ("gM"), as the device writes it: its size in text,
  // not only the pyramid's height (the screen reader has the piece's name on the pyramid)
  function chip(code, scale) {
    const box = el("span", "pc");
    box.appendChild(piece(code, scale));
    const c = el("span", "code", code);
    c.setAttribute("aria-hidden", "true");
    box.appendChild(c);
    return box;
  }

  function pieces(list, scale) {
    const span = el("span", "pieces");
    (list || []).forEach((c) => span.appendChild(chip(c, scale)));
    return span;
  }

  // A stack of pieces, bottom to top, drawn upwards, the top on top, with its caption.
  function stack(st, scale) {
    const box = el("figure", "stack" + (st.changed ? " changed" : ""));
    const col = el("div", "column");
    (st.pieces || []).forEach((c) => col.appendChild(chip(c, scale)));
    box.appendChild(col);
    box.appendChild(el("figcaption", "", st.caption));
    return box;
  }

  // A fact as "term value" (a list item each: it wraps as a whole on a narrow screen).
  function row(list, term, value) {
    if (value === null || value === undefined || value === "") return;
    const li = el("li");
    li.appendChild(el("span", "term", term));
    const val = el("span", "value");
    if (value instanceof Node) val.appendChild(value); else val.textContent = String(value);
    li.appendChild(val);
    list.appendChild(li);
  }

  // A list item's part: a tag with its text, then its pieces (or pieces alone).
  function part(p) {
    if (!p.tag) return pieces(p.pieces, p.scale);
    const e = el(p.tag, p.cls, p.text);
    if (p.pieces) e.appendChild(pieces(p.pieces, p.scale));
    return e;
  }

  // The game's table as generic blocks (companion/plugins/blocks.py): the projection
  // says what to show and in which words; this only lays it out, for every game alike.
  const BLOCKS = {
    facts: (b) => {
      const ul = el("ul", b.cls);
      (b.rows || []).forEach((r) => row(ul, r.term, r.pieces ? pieces(r.pieces) : r.value));
      return ul;
    },
    heading: (b) => el("h2", "", b.text),
    list: (b) => {
      const ul = el("ul", b.cls);
      (b.items || []).forEach((it) => {
        if (!it.parts) { ul.appendChild(el("li", "", it.text)); return; }
        const li = el("li");
        it.parts.forEach((p) => li.appendChild(part(p)));
        ul.appendChild(li);
      });
      return ul;
    },
    grid: (b) => {
      const table = el("table", b.cls);
      const head = el("tr");
      (b.head || []).forEach((x) => head.appendChild(el("th", "", x)));
      table.appendChild(head);
      (b.rows || []).forEach((r) => {
        const tr = el("tr");
        if (r.cls) tr.className = r.cls;
        (r.cells || []).forEach((x) => tr.appendChild(el("td", "", x)));
        table.appendChild(tr);
      });
      return table;
    },
    stacks: (b) => {
      const box = el("div", b.cls);
      (b.stacks || []).forEach((st) => box.appendChild(stack(st, b.scale)));
      return box;
    },
    note: (b) => el("p", b.cls, b.text),
  };

  function blocks(t) {
    const box = document.createDocumentFragment();
    (t.blocks || []).forEach((b) => { const draw = BLOCKS[b.kind]; if (draw) box.appendChild(draw(b)); });
    Object.entries(t.data || {}).forEach(([k, x]) => { document.body.dataset[k] = x; });
    return box;
  }

  function scoresList(v) {
    const ol = $("scores");
    ol.replaceChildren();
    const end = v.end;
    const winners = new Set(v.winners || []);
    const change = v.change || {};
    const changedSeats = new Map((change.seats || []).map((s, i) => [s, (change.deltas || [])[i]]));
    const order = end && end.order ? end.order : v.players.map((p) => p.seat);
    const t = v.table || {};
    const places = end && end.places ? end.places : [];
    order.forEach((seat, place) => {
      const p = v.players[seat];
      if (!p) return;
      const li = el("li", "player");
      li.dataset.seat = p.seat;
      if (p.seat === v.to_act) {
        li.classList.add("to-act");
        li.setAttribute("aria-current", "step");
      }
      if (winners.has(p.seat)) li.classList.add("winner");
      const name = el("span", "name");
      if (end) name.appendChild(el("span", "place", `${places[place] || place + 1}.`));  // ties share a place
      if (p.seat === v.to_act) {
        const mark = el("span", "turn-mark", "▶");
        mark.setAttribute("aria-hidden", "true");
        name.appendChild(mark);
      }
      name.appendChild(el("span", "who", p.name));
      if (p.seat === v.to_act) name.appendChild(srOnly(`, ${labels.turn_of || "to play"}`));
      li.appendChild(name);
      // the winner's mark beside the name, never inside it: a long name wraps, the mark stays whole
      if (winners.has(p.seat)) li.appendChild(el("span", "mark", `★ ${labels.winner || "winner"}`));
      const mark = (t.marks || [])[p.seat];
      if (mark) {  // beside the score, a piece and its word (a secret color once public)
        const sc = el("span", mark.cls);
        sc.appendChild(piece(mark.piece));
        sc.appendChild(el("span", "", mark.text));
        li.appendChild(sc);
      }
      const score = el("span", "points");
      score.appendChild(el("span", "score", p.score));
      if (changedSeats.has(p.seat) && !end) {  // the last change, marked until the next (not by color alone); at the end the banner says what counts
        li.classList.add("changed");
        const d = changedSeats.get(p.seat);
        if (d !== undefined && d !== null) score.appendChild(el("span", "delta", (d > 0 ? "+" : "") + d));
        else score.appendChild(el("span", "delta", change.kind === "bust" ? "✗" : "*"));
      }
      li.appendChild(score);
      ol.appendChild(li);
    });
  }

  function render(v) {
    lastView = v;
    labels = v.labels || labels;
    pieceNames = v.piece_names || {};
    document.documentElement.lang = v.lang || "en";
    $("l-scores").textContent = labels.scores;
    $("l-moves").textContent = labels.moves;
    $("history-link").textContent = labels.history;
    $("history-link").href = home + "history";
    $("players-link").textContent = labels.players || "Players";
    const other = $("other-link");
    other.textContent = tv ? labels.phone : labels.tv;
    other.href = tv ? "./" : home + "tv";
    if (!tv) $("tv-address").textContent = location.origin + home + "tv";
    const s = v.session;
    // between games (V-4) the last game's final result may stay, marked as finished
    const finished = s && v.playing === false && s.over ? ` (${labels.finished || "finished"})` : "";
    const title = s ? `${s.label || s.title + " #" + s.number}${finished}` : (labels.scoreboard || "Pyramid Table Companion");
    $("title").textContent = title;
    document.title = title;
    document.body.classList.toggle("finished", !!finished);
    $("waiting").textContent = v.waiting;
    const end = v.end;
    const banner = $("end");
    banner.hidden = !end;
    document.body.classList.toggle("over", !!end);
    if (end) {
      $("end-title").textContent = `★ ${end.title}${colon()}${end.names.join(", ")}`;
      $("end-reason").textContent = end.reason || "";
    }
    $("result").textContent = v.result || "";
    if (window.afterGame) window.afterGame(v, base);  // issue 50: BG Stats link and chart (after.js)
    const change = v.change;
    const ch = $("change");
    ch.hidden = !change;
    ch.className = change ? "change " + change.kind : "change";
    ch.textContent = change ? change.text : "";
    scoresList(v);
    const table = $("table");
    table.replaceChildren();
    Object.keys(lastData).forEach((k) => { delete document.body.dataset[k]; });
    lastData = (s && v.table && v.table.data) || {};
    if (s && v.table) table.appendChild(blocks(v.table));
    const moves = $("moves");
    moves.replaceChildren();
    (v.moves || []).slice().reverse().forEach((m) => moves.appendChild(el("li", "", m)));
    $("moves-box").hidden = !moves.children.length;  // no lone heading on an idle page
    paginate();
    document.body.dataset.seq = v.seq;
    document.body.dataset.session = s ? s.id : "";
    status(state);
    // a seat's own page draws its part from the same state (static/seat.js, issue 41)
    document.dispatchEvent(new CustomEvent("scoreboard:state", { detail: v }));
  }

  // The TV's pages (issue 46). A TV has no scroll bar and no one to scroll it, so a
  // column with more than fits is cut into pages between its parts (a heading stays
  // with what follows it; a list is cut between its items): one page is shown at a
  // time, turning by itself every PAGE_MS like a stadium board's panels, and the
  // header says which ("1/2"). A remote's arrow keys turn them too. Nothing is
  // cropped: a part is either shown whole or on another page. No game is named here.
  const PAGE_MS = 8000;
  let pageK = 0, pageN = 1, pageTimer = null;
  const LISTS = new Set(["UL", "OL"]);

  // the parts of a column, in reading order: a list's items, else whole elements
  function parts(box, out) {
    for (const c of box.children) {
      if (c.hidden || getComputedStyle(c).display === "none" || c.classList.contains("sr-only")) continue;
      if (c.tagName === "SECTION" || c.tagName === "DIV" && !c.classList.contains("stack") && c.children.length
          && !c.classList.contains("end") || (LISTS.has(c.tagName) && c.children.length > 1)) {
        parts(c, out);
      } else {
        out.push(c);
      }
    }
    return out;
  }

  // Which parts are shown: the others (and a box with none of its parts shown: no lone
  // heading, no empty frame) are set off.
  function setShown(c, shown) {
    c.list.forEach((e) => e.classList.toggle("off", !shown.has(e)));
    c.boxes.forEach((mine, b) => b.classList.toggle("off", !mine.some((e) => shown.has(e))));
  }

  // The column cut into pages as it is laid out: from the first part not yet placed,
  // the parts that end inside the column make a page (hiding the later ones only
  // shortens a row: what fit still fits), a heading never ends a page.
  function cutPages(col) {
    col.querySelectorAll(".off").forEach((e) => e.classList.remove("off"));
    const list = parts(col, []);
    const boxes = new Map();
    col.querySelectorAll("section, ul, ol, div").forEach((b) => {
      const mine = list.filter((e) => b.contains(e));
      if (mine.length) boxes.set(b, mine);
    });
    const c = { col, list, boxes, pages: [] };
    // a list cut between pages: its heading again on the page it goes on
    const headingOf = (e) => {
      const box = e.parentElement, h = box && box.previousElementSibling;
      return box && LISTS.has(box.tagName) && h && h.tagName === "H2" && list.includes(h) ? h : null;
    };
    let s = 0;
    while (s < list.length) {
      const again = headingOf(list[s]) && list.indexOf(headingOf(list[s])) < s ? [headingOf(list[s])] : [];
      setShown(c, new Set([...again, ...list.slice(s)]));
      const limit = col.getBoundingClientRect().bottom + 0.5;
      let k = s;
      while (k < list.length && list[k].getBoundingClientRect().bottom <= limit) k++;
      if (k === s) k = s + 1;  // a part taller than the column: alone on its page
      while (k - 1 > s && k < list.length && list[k - 1].tagName === "H2") k--;
      c.pages.push(new Set([...again, ...list.slice(s, k)]));
      s = k;
    }
    if (!c.pages.length) c.pages.push(new Set());
    c.n = c.pages.length;
    return c;
  }

  function showPage(cuts) {
    cuts.forEach((c) => setShown(c, c.pages[Math.min(pageK, c.n - 1)]));
    const badge = $("page");
    badge.hidden = pageN < 2;
    badge.textContent = `${pageK + 1}/${pageN}`;
    document.body.dataset.pages = pageN;
    document.body.dataset.page = `${pageK + 1}/${pageN}`;
  }

  let cuts = [];
  function paginate() {
    if (!tv) return;
    cuts = [$("col-a"), $("col-b")].map(cutPages);
    pageN = Math.max(...cuts.map((c) => c.n));
    if (pageK >= pageN) pageK = 0;
    showPage(cuts);
    if (pageN > 1 && !pageTimer) pageTimer = setInterval(() => turn(1), PAGE_MS);
    if (pageN < 2 && pageTimer) { clearInterval(pageTimer); pageTimer = null; }
  }

  function turn(by) {
    pageK = (pageK + by + pageN) % pageN;
    showPage(cuts);
  }

  if (tv) {
    addEventListener("resize", paginate);
    document.addEventListener("keydown", (e) => {
      if (pageN < 2 || (e.key !== "ArrowRight" && e.key !== "ArrowLeft")) return;
      turn(e.key === "ArrowRight" ? 1 : -1);
      if (pageTimer) { clearInterval(pageTimer); pageTimer = setInterval(() => turn(1), PAGE_MS); }
    });
  }

  // The connection, said in words and not by color alone.
  function status(st) {
    state = st;
    const badge = $("status");
    // the badge's words come with the first state, in the device's language: until
    // then it keeps its neutral "…" (a French page never says "live" first)
    if (!labels.live) { badge.className = "status " + (st === "on" ? "on" : "off"); return; }
    const words = { on: labels.live || "live", off: labels.offline || "reconnecting…", gone: labels.offline || "…",
      expired: "✗", full: "…", wait: "…" };
    badge.textContent = words[st] || "…";
    badge.className = "status " + (st === "on" ? "on" : "off");
    document.body.classList.toggle("stale", st === "gone" || st === "expired" || st === "full");
    const note = $("conn");
    const say = { gone: labels.gone, expired: labels.expired, full: labels.full }[st];
    note.hidden = !say;
    note.textContent = say || "";
  }

  function connected(on) {
    if (state === "expired") return;
    if (on) { offSince = 0; status("on"); return; }
    if (!offSince) offSince = Date.now();
    status(Date.now() - offSince > GONE_MS ? "gone" : "off");
  }

  setInterval(() => { if (offSince && (state === "off" || state === "gone")) connected(false); }, 1000);

  function onState(text) { render(JSON.parse(text)); connected(true); }

  function expired() { status("expired"); }

  // The stream was refused (EventSource closed it): 404 is an address renewed,
  // else the device has too many pages open (503): say which, and look again.
  function refused(again) {
    fetch(base + "state.json", { cache: "no-store" }).then((r) => {
      if (r.status === 404) { expired(); return; }
      const full = () => { status("full"); setTimeout(again, 5000); };
      if (r.ok) r.text().then((text) => { onState(text); full(); }, full); else full();
    }, () => { connected(false); setTimeout(again, 3000); });
  }

  // One stream per browser: a shared worker, else a leader tab, else a stream of our own.
  function viaWorker() {
    let w;
    try { w = new SharedWorker(base + "static/worker.js", { name: "scoreboard" }); } catch (e) { return false; }
    const port = w.port;
    port.onmessage = (e) => {
      const m = e.data || {};
      if (m.type === "state") onState(m.data);
      else if (m.type === "gone") expired();
      else if (m.type === "status") {
        if (m.status === "on") connected(true);
        else if (m.status === "closed") refused(() => port.postMessage({ type: "retry" }));
        else connected(false);
      }
    };
    port.start();
    addEventListener("pagehide", () => port.postMessage({ type: "bye" }));
    document.body.dataset.stream = "shared";
    return true;
  }

  function ownStream(onMessage) {
    const es = new EventSource(base + "events");
    es.addEventListener("open", () => { connected(true); if (onMessage) onMessage(null, "on"); });
    es.addEventListener("state", (e) => { onState(e.data); if (onMessage) onMessage(e.data); });
    es.addEventListener("gone", () => { es.close(); expired(); if (onMessage) onMessage(null, "gone"); });
    es.addEventListener("error", () => {
      connected(false);
      if (onMessage) onMessage(null, "off");
      if (es.readyState === EventSource.CLOSED) refused(() => ownStream(onMessage));
    });
    return es;
  }

  function viaLeader() {
    if (!(navigator.locks && window.BroadcastChannel)) return false;
    const bc = new BroadcastChannel("scoreboard" + base);
    let leader = false;
    bc.onmessage = (e) => {
      const m = e.data || {};
      if (leader) { if (m.type === "hello" && lastView) bc.postMessage({ type: "state", data: JSON.stringify(lastView) }); return; }
      if (m.type === "state") onState(m.data);
      else if (m.type === "gone") expired();
      else if (m.type === "status") connected(m.on);
    };
    bc.postMessage({ type: "hello" });
    fetch(base + "state.json", { cache: "no-store" }).then((r) => (r.ok ? r.text().then(onState) : r.status === 404 && expired()), () => {});
    document.body.dataset.stream = "follower";
    navigator.locks.request("scoreboard" + base, () => new Promise(() => {
      leader = true;  // held until this tab goes: the next tab then takes the stream
      document.body.dataset.stream = "leader";
      ownStream((data, kind) => bc.postMessage(kind === "gone" ? { type: "gone" }
        : kind ? { type: "status", on: kind === "on" } : { type: "state", data: data }));
    }));
    return true;
  }

  // Keep a TV's screen on while the page is shown (where the browser has a Wake Lock).
  function wakeLock() {
    if (!("wakeLock" in navigator)) return;
    const ask = () => { if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(() => {}); };
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  if (!viaWorker() && !viaLeader()) { document.body.dataset.stream = "own"; ownStream(); }
  wakeLock();
})();
