// Mounts a React gallery page into <div id="root"> and marks the page ready once React committed.
import { createRoot } from "react-dom/client";
import { useEffect } from "react";
import { jsx } from "react/jsx-runtime";

function Ready({ children }) {
  useEffect(() => {
    window.__ready = true;
  }, []);
  return children;
}

/** Renders `element` into #root of the page build.mjs generates, titled `title`. */
export function mount(element, title) {
  document.title = title;
  createRoot(document.getElementById("root")).render(jsx(Ready, { children: element }));
}
