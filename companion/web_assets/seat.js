// A seat's own page (issue 41, RULINGS V-3): the public scoreboard, and this
// seat's secret color hidden until its player holds the button (or taps it:
// shown until the next tap, at most 10 s), so a glance across the table gives
// nothing away. The page belongs to its game: once that game is over, ended or
// not being played, the box says so and shows no color (V-3). It draws only what the projection's "seat" part says and
// computes no rule; the scoreboard itself is app.js's, which hands each state
// over in a "scoreboard:state" event.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const HEX = { red: "#d62828", yellow: "#f2c200", green: "#2a9d3a", blue: "#2f6fdf", black: "#111111",
                white: "#f4f4f4", cyan: "#1fb5c9", purple: "#8e44ad", orange: "#f07c1a" };
  const TAP_MS = 400;       // a press shorter than this is a tap: shown until the next tap
  const STICKY_MS = 10000;  // a tapped color hides by itself after this
  let last = null;
  let shown = false;
  let sticky = false;
  let downAt = 0;
  let timer = null;

  function el(tag, id, cls) {
    const e = document.createElement(tag);
    if (id) e.id = id;
    if (cls) e.className = cls;
    return e;
  }

  function make() {
    const box = el("section", "seat", "seat");
    box.setAttribute("aria-labelledby", "seat-title");
    const title = el("h2", "seat-title");
    const btn = el("button", "seat-show", "seat-show");
    btn.type = "button";
    btn.setAttribute("aria-pressed", "false");
    btn.setAttribute("aria-controls", "seat-color");
    const out = el("p", "seat-color", "seat-color");
    out.hidden = true;
    const hint = el("p", "seat-hint", "seat-hint");
    box.append(title, btn, out, hint);
    const main = document.querySelector("main");
    main.insertBefore(box, main.firstChild);

    const show = () => { shown = true; draw(); };
    const hide = () => { shown = false; sticky = false; clearTimeout(timer); draw(); };
    // a press's length from the events' own time stamps (when the finger moved), not
    // from when this page got round to them: a busy phone still tells a tap from a hold
    const press = (e) => {
      if (sticky) { hide(); downAt = 0; return; }  // the tap that hides a tapped color
      downAt = e.timeStamp || 1;
      show();
    };
    const release = (e) => {
      if (!downAt) return;
      const tap = e.timeStamp - downAt < TAP_MS;
      downAt = 0;
      if (tap) {
        sticky = true;
        clearTimeout(timer);
        timer = setTimeout(hide, STICKY_MS);
        draw();
      } else {
        hide();
      }
    };
    btn.addEventListener("pointerdown", (e) => { e.preventDefault(); press(e); });
    btn.addEventListener("pointerup", release);
    btn.addEventListener("pointercancel", () => { downAt = 0; hide(); });
    btn.addEventListener("pointerleave", () => { if (downAt) { downAt = 0; hide(); } });
    btn.addEventListener("keydown", (e) => {
      if ((e.key === " " || e.key === "Enter") && !e.repeat) { e.preventDefault(); press(e); }
    });
    btn.addEventListener("keyup", (e) => {
      if (e.key === " " || e.key === "Enter") { e.preventDefault(); release(e); }
    });
    btn.addEventListener("contextmenu", (e) => e.preventDefault());  // a long press is ours
    document.addEventListener("visibilitychange", () => { if (document.hidden) hide(); });
    return box;
  }

  function draw() {
    if (!last) return;
    const L = last.labels || {};
    const seat = last.seat;
    if (!seat) return;  // not a seat's state: nothing to add
    let box = $("seat");
    if (!box) box = make();
    document.body.classList.add("seat-page");
    const btn = $("seat-show");
    const out = $("seat-color");
    const hint = $("seat-hint");
    $("seat-title").textContent = `${L.your_color || "Your color"}${L.colon || ": "}${seat.name}`;
    if (seat.state && seat.state !== "live") {
      // its game is over (every color is on the scoreboard, BU-3), ended, or not
      // being played now (kept for later): no color; the words say which
      shown = false;
      sticky = false;
      btn.hidden = true;
      out.hidden = true;
      out.replaceChildren();
      hint.textContent = { over: L.seat_over, away: L.seat_away, ended: L.seat_ended }[seat.state] || "";
      box.classList.add("ended");
      return;
    }
    box.classList.remove("ended");
    btn.hidden = false;
    btn.textContent = shown ? (sticky ? L.seat_tap_hide || "Tap to hide" : L.seat_release || "Release to hide")
                            : L.seat_hold || "Hold to see";
    btn.setAttribute("aria-pressed", shown ? "true" : "false");
    out.hidden = !shown;
    out.replaceChildren();
    if (shown) {
      const sw = el("span", "", "swatch");
      sw.style.background = HEX[seat.color] || "#888";
      sw.setAttribute("aria-hidden", "true");
      const word = el("span", "", "word");
      word.textContent = seat.color_word || seat.color;  // the word, not the color alone
      out.append(sw, word);
    }
    hint.textContent = L.seat_hint || "";
  }

  document.addEventListener("scoreboard:state", (e) => { last = e.detail; draw(); });
  // the page's first state may have come before this script ran: ask for it once
  const base = "/" + location.pathname.split("/")[1] + "/";
  fetch(base + "state.json", { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((v) => { if (v && !last) { last = v; draw(); } }, () => {});
})();
