// A CodeMirror 6 editor with the basic setup; the app records the document on every change.
import { EditorView, basicSetup } from "codemirror";
import { record } from "./_state.js";

const view = new EditorView({
  doc: "function greet() {\n  return 1;\n}\n",
  extensions: [
    basicSetup,
    EditorView.contentAttributes.of({ "aria-label": "Source code" }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) record("doc", u.state.doc.toString());
    }),
  ],
  parent: document.getElementById("editor"),
});
window.__view = view;
window.__ready = true;
