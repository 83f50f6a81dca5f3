// Headless UI (Tailwind Labs) Listbox and Combobox; the app keeps the selections it is given.
import "./headless.css";
import { useState } from "react";
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from "@headlessui/react";
import { record } from "./_state.js";
import { mount } from "./_react.js";

const PEOPLE = ["Wade Cooper", "Arlene Mccoy", "Devon Webb", "Tom Cook", "Tanya Fox", "Hellen Schmidt"];

function App() {
  const [assignee, setAssignee] = useState(PEOPLE[0]);
  const [person, setPerson] = useState(null);
  const [query, setQuery] = useState("");
  const filtered = query === "" ? PEOPLE : PEOPLE.filter((p) => p.toLowerCase().includes(query.toLowerCase()));
  return (
    <main>
      <h1>Headless UI</h1>
      <section>
        <Field>
          <Label>Assignee</Label>
          <Listbox value={assignee} onChange={(v) => { setAssignee(v); record("assignee", v); }}>
            <ListboxButton>{assignee}</ListboxButton>
            <ListboxOptions anchor="bottom start">
              {PEOPLE.map((p) => (
                <ListboxOption key={p} value={p}>{p}</ListboxOption>
              ))}
            </ListboxOptions>
          </Listbox>
        </Field>
      </section>
      <section>
        <Field>
          <Label>Reviewer</Label>
          <Combobox value={person} onChange={(v) => { setPerson(v); record("reviewer", v); }} onClose={() => setQuery("")}>
            <ComboboxInput displayValue={(p) => p ?? ""} onChange={(e) => setQuery(e.target.value)} />
            <ComboboxOptions anchor="bottom start">
              {filtered.map((p) => (
                <ComboboxOption key={p} value={p}>{p}</ComboboxOption>
              ))}
            </ComboboxOptions>
          </Combobox>
        </Field>
      </section>
    </main>
  );
}

mount(<App />, "Headless UI");
