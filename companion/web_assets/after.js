// After a game (issue 50): the link that logs the play in BG Stats and the chart
// of the game (its SVG as an image, the same numbers as a table beside it for a
// screen reader). Everything comes from the projection or the history as it is:
// the link is the device's, the numbers the records'. Text via textContent only.
// Nothing shows before the end (V-1): the projection has no "after" then.
"use strict";
(function () {
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function table(chart) {
    const t = el("table", "chart-table");
    t.appendChild(el("caption", "", `${chart.title} (${chart.better})`));
    const head = el("tr");
    head.appendChild(el("th", "", chart.unit_word || ""));
    chart.names.forEach((n) => head.appendChild(el("th", "", n)));
    head.querySelectorAll("th").forEach((th) => th.setAttribute("scope", "col"));
    const thead = el("thead");
    thead.appendChild(head);
    t.appendChild(thead);
    const body = el("tbody");
    chart.turns.forEach((turn, k) => {
      const tr = el("tr");
      const th = el("th", "", turn === 0 ? (chart.start_word || "0") : turn);
      th.setAttribute("scope", "row");
      tr.appendChild(th);
      chart.scores[k].forEach((v) => tr.appendChild(el("td", "", v)));
      body.appendChild(tr);
    });
    t.appendChild(body);
    return t;
  }
  function figure(chart, src) {
    const fig = el("figure", "chart");
    const img = el("img", "chart-img");
    img.src = src;
    img.alt = `${chart.title}, ${chart.better}`;
    img.setAttribute("loading", "lazy");
    fig.appendChild(img);
    fig.appendChild(table(chart));
    return fig;
  }
  function link(url, text) {
    const a = el("a", "bgstats", text || "Log this play in BG Stats");
    a.href = url;
    a.rel = "noopener noreferrer";
    return a;
  }
  let shown = "";
  // the phone page, each seat page and the TV: called by app.js with every view
  window.afterGame = function (v, base) {
    const box = document.getElementById("after");
    if (!box) return;
    const a = v.after || null;
    const key = JSON.stringify(a);
    if (key === shown) return;
    shown = key;
    box.replaceChildren();
    box.hidden = !(a && (a.bgstats || a.chart));
    if (!a) return;
    const l = v.labels || {};
    if (a.bgstats) {
      const p = el("p", "bgstats-line");
      p.appendChild(link(a.bgstats, l.bgstats));
      box.appendChild(p);
    }
    // a seat's address ends with its game (V-3): its page has the link, not the chart
    if (a.chart && a.chart_svg && !document.body.classList.contains("seat-page")) {
      box.appendChild(el("h2", "", l.chart || "Chart"));
      box.appendChild(figure(a.chart, base + a.chart_svg));
    }
  };
  // one finished game on the history page: its link, and its chart folded away
  window.afterGameLine = function (g, base, l) {
    const span = el("span", "after-line");
    if (g.bgstats) span.appendChild(link(g.bgstats, l.bgstats));
    if (g.chart && g.chart_svg) {
      const d = el("details", "chart-details");
      d.appendChild(el("summary", "", l.chart || "Chart"));
      d.appendChild(figure(g.chart, base + g.chart_svg));
      span.appendChild(d);
    }
    return span.childNodes.length ? span : null;
  };
})();
