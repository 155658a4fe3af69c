// A seat's own page (issue 41, RULINGS V-3): the public scoreboard, and this
// seat's secret color hidden until its player holds the button (or taps it:
// shown until the next tap, at most 10 s), so a glance across the table gives
// nothing away. It draws only what the projection's "seat" part says and
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
    let box = $("seat");
    if (!box) {
      if (!seat) return;  // a seat page that never had its color has nothing to add
      box = make();
    }
    document.body.classList.add("seat-page");
    const btn = $("seat-show");
    const out = $("seat-color");
    const hint = $("seat-hint");
    if (!seat) {  // the game's end: every color is on the scoreboard (BU-3); this page has ended
      shown = false;
      $("seat-title").textContent = L.your_color || "Your color";
      btn.hidden = true;
      out.hidden = true;
      out.replaceChildren();
      hint.textContent = L.seat_ended || "";
      box.classList.add("ended");
      return;
    }
    $("seat-title").textContent = `${L.your_color || "Your color"}${L.colon || ": "}${seat.name}`;
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
