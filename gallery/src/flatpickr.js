// flatpickr date pickers; the app records the dates their onChange hands it.
import "flatpickr/dist/flatpickr.min.css";
import flatpickr from "flatpickr";
import { record } from "./_state.js";

// Departure: a calendar opens on the (read-only) input; May 2024 is shown first.
flatpickr("#departure", {
  dateFormat: "Y-m-d",
  defaultDate: null,
  now: new Date(2024, 4, 1),
  onChange: (_, text) => record("departure", text),
});
// Return: typed in (allowInput), taken on Enter or blur.
flatpickr("#return", {
  dateFormat: "Y-m-d",
  allowInput: true,
  now: new Date(2024, 4, 1),
  onChange: (_, text) => record("return", text),
});
window.__ready = true;
