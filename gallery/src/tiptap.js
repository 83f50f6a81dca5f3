// A TipTap rich-text editor (ProseMirror); the app records the document on every update.
import { Editor } from "@tiptap/core";
import StarterKit from "@tiptap/starter-kit";
import { record } from "./_state.js";

const editor = new Editor({
  element: document.getElementById("editor"),
  extensions: [StarterKit],
  content: "<p></p>",
  editorProps: { attributes: { role: "textbox", "aria-multiline": "true", "aria-label": "Message body" } },
  onUpdate: ({ editor }) => {
    record("text", editor.getText());
    record("html", editor.getHTML());
  },
});
for (const [id, command] of [["bold", "toggleBold"], ["italic", "toggleItalic"]]) {
  const button = document.getElementById(id);
  button.addEventListener("mousedown", (e) => e.preventDefault()); // keep the editor's selection
  button.addEventListener("click", () => editor.chain().focus()[command]().run());
  editor.on("transaction", () => button.classList.toggle("is-active", editor.isActive(id)));
}
window.__editor = editor;
window.__ready = true;
