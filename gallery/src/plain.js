// Plain HTML: the app records what its own controls report.
import { record } from "./_state.js";

const $ = (id) => document.getElementById(id);
for (const id of ["news", "dark", "cookies"]) {
  $(id).addEventListener("change", (e) => record(id, e.target.checked));
}
for (const r of document.querySelectorAll("input[name=pay]")) {
  r.addEventListener("change", (e) => record("pay", e.target.value));
}
// A label's click reaches the file input as its own click: that click opens the chooser.
$("avatar").addEventListener("click", () => record("avatarChooser", true));
$("qty").addEventListener("input", (e) => record("qty", e.target.valueAsNumber));
// The chat widget lives on a second origin (`?other=http://127.0.0.1:PORT`) and reports by message.
const other = new URLSearchParams(location.search).get("other");
if (other) $("widget").src = `${other}/widget.html`;
window.addEventListener("message", (e) => {
  if (e.origin === other && e.data && e.data.chat) record("chat", e.data.chat);
});
// The receipt shows inside the payment frame a moment after it is asked for.
$("receipt").addEventListener("click", () => setTimeout(() => {
  const frame = document.querySelector("iframe[title='Payment frame']").contentDocument;
  frame.getElementById("note").textContent = "Receipt ready";
  record("receiptShown", true);
}, 800));
// A help popup; the page keeps working in the tab the user is on (its next frame must come).
$("help").addEventListener("click", () => window.open("widget.html?help", "help", "popup,width=400,height=300"));
$("highlight").addEventListener("click", () => requestAnimationFrame(() => record("highlighted", true)));
document.addEventListener("visibilitychange", () => record("visibility", document.visibilityState));
// Ready once the frames have loaded too.
if (document.readyState === "complete") window.__ready = true;
else window.addEventListener("load", () => (window.__ready = true));
