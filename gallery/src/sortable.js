// A SortableJS list dragged with the pointer (forceFallback: mouse/pointer events, not HTML5
// drag and drop); the app records the order Sortable reports after each drop.
import Sortable from "sortablejs";
import { record } from "./_state.js";

const sortable = Sortable.create(document.getElementById("list"), {
  animation: 0,
  forceFallback: true,
  onEnd: () => record("order", sortable.toArray()),
});
window.__ready = true;
