// react-select, single and multi; the app keeps the values its onChange gives.
import "./react-select.css";
import Select from "react-select";
import { record } from "./_state.js";
import { mount } from "./_react.js";

const FLAVOURS = [
  { value: "chocolate", label: "Chocolate" },
  { value: "strawberry", label: "Strawberry" },
  { value: "vanilla", label: "Vanilla" },
];
const COLOURS = [
  { value: "red", label: "Red" },
  { value: "green", label: "Green" },
  { value: "blue", label: "Blue" },
  { value: "purple", label: "Purple" },
];

function App() {
  return (
    <main>
      <h1>react-select</h1>
      <section>
        <label htmlFor="flavour-input">Flavour</label>
        <Select inputId="flavour-input" options={FLAVOURS} onChange={(o) => record("flavour", o && o.value)} />
      </section>
      <section>
        <label htmlFor="colours-input">Colours</label>
        <Select inputId="colours-input" isMulti options={COLOURS} onChange={(os) => record("colours", os.map((o) => o.value))} />
      </section>
    </main>
  );
}

mount(<App />, "react-select");
