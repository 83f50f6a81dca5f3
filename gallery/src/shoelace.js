// Shoelace web components (shadow DOM); the app records the components' own sl-* events.
import "@shoelace-style/shoelace/dist/themes/light.css";
import "@shoelace-style/shoelace/dist/components/alert/alert.js";
import "@shoelace-style/shoelace/dist/components/button/button.js";
import "@shoelace-style/shoelace/dist/components/checkbox/checkbox.js";
import "@shoelace-style/shoelace/dist/components/dialog/dialog.js";
import "@shoelace-style/shoelace/dist/components/option/option.js";
import "@shoelace-style/shoelace/dist/components/select/select.js";
import "@shoelace-style/shoelace/dist/components/switch/switch.js";
import "@shoelace-style/shoelace/dist/components/tooltip/tooltip.js";
import { record } from "./_state.js";

const $ = (id) => document.getElementById(id);
$("updates").addEventListener("sl-change", (e) => record("updates", e.target.checked));
$("notify").addEventListener("sl-change", (e) => record("notify", e.target.checked));
$("size").addEventListener("sl-change", (e) => record("size", e.target.value));
const dialog = $("settings");
$("open-settings").addEventListener("click", () => dialog.show());
dialog.addEventListener("sl-after-show", () => record("dialogShown", true));
dialog.addEventListener("sl-after-hide", () => record("dialogHidden", true));
$("save-settings").addEventListener("click", () => {
  record("settingsSaved", true);
  dialog.hide();
});
// The message takes a moment to send; then the alert shows as a toast (in Shoelace's toast stack,
// inside a shadow root).
const alert = $("sent");
alert.addEventListener("sl-show", () => record("toastOpen", true));
$("send").addEventListener("click", () => setTimeout(() => alert.toast(), 800));
// The sync's confirmation is a tooltip whose text (its `content`) lives in its shadow root.
const synced = $("synced");
synced.addEventListener("sl-show", () => record("syncedShown", true));
$("sync").addEventListener("click", () => setTimeout(() => synced.show(), 800));
await Promise.all(["sl-checkbox", "sl-switch", "sl-select", "sl-dialog", "sl-alert", "sl-tooltip"].map((t) => customElements.whenDefined(t)));
window.__ready = true;
