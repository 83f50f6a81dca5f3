// Bootstrap 5 with its data API; the app records what Bootstrap's controls and events report.
import "bootstrap/dist/css/bootstrap.min.css";
import * as bootstrap from "bootstrap";
import { record } from "./_state.js";

const $ = (id) => document.getElementById(id);
for (const id of ["bold", "italic", "wifi", "terms"]) {
  $(id).addEventListener("change", (e) => record(id, e.target.checked));
}
for (const name of ["size", "ship"]) {
  for (const r of document.querySelectorAll(`input[name=${name}]`)) {
    r.addEventListener("change", (e) => record(name, e.target.value));
  }
}
for (const item of document.querySelectorAll(".dropdown-item")) {
  item.addEventListener("click", () => record("action", item.dataset.action));
}
const modal = $("confirm");
modal.addEventListener("shown.bs.modal", () => record("modalShown", true));
modal.addEventListener("hidden.bs.modal", () => record("modalHidden", true));
$("really-delete").addEventListener("click", () => {
  record("deleted", true);
  bootstrap.Modal.getInstance(modal).hide();
});
$("details").addEventListener("shown.bs.collapse", () => record("detailsShown", true));
for (const link of document.querySelectorAll("[data-nav]")) {
  link.addEventListener("click", (e) => {
    e.preventDefault();
    record("nav", link.dataset.nav);
  });
}
window.__ready = true;
