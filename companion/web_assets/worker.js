// The scoreboard page's one stream per browser (issue 37): a browser holds at most
// six connections to a host, and every open page of the device would hold one
// stream. This shared worker holds the only stream of all the tabs of a browser
// at one address and hands each state to every tab; a tab that opens gets the
// last state at once. The page falls back to a leader tab (Web Locks and
// BroadcastChannel) where a browser has no shared workers (app.js).
"use strict";
const base = new URL("../", self.location.href).pathname;  // /SECRET/
const ports = new Set();
let es = null;
let last = null;       // the last "state" event's data (JSON text)
let status = "off";    // "on", "off", "closed" (the stream was refused: 404 or 503)

function post(msg) { ports.forEach((p) => { try { p.postMessage(msg); } catch (e) { ports.delete(p); } }); }

function setStatus(s) { status = s; post({ type: "status", status: s }); }

function open() {
  if (es) return;
  es = new EventSource(base + "events");
  es.addEventListener("open", () => setStatus("on"));
  es.addEventListener("state", (e) => { last = e.data; status = "on"; post({ type: "state", data: e.data }); });
  es.addEventListener("gone", () => { post({ type: "gone" }); close(); });
  es.addEventListener("error", () => {
    if (es && es.readyState === EventSource.CLOSED) { close(); setStatus("closed"); } else setStatus("off");
  });
}

function close() { if (es) { es.close(); es = null; } }

self.addEventListener("connect", (event) => {
  const port = event.ports[0];
  ports.add(port);
  port.addEventListener("message", (e) => {
    const m = e.data || {};
    if (m.type === "bye") {
      ports.delete(port);
      if (!ports.size) close();   // the last tab went: the stream ends with it
    } else if (m.type === "retry") {
      open();
    }
  });
  port.start();
  port.postMessage({ type: "status", status: es ? status : "off" });
  if (last !== null) port.postMessage({ type: "state", data: last });
  open();
});
