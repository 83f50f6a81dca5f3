// A virtualised grid of 1,000 rows (TanStack Virtual) inside an app shell whose <main> scrolls;
// the app records the rows it renders and the row opened.
import "./virtual.css";
import { useEffect, useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { record } from "./_state.js";
import { mount } from "./_react.js";

const ROWS = 1000;

function App() {
  const main = useRef(null);
  const virtualizer = useVirtualizer({ count: ROWS, getScrollElement: () => main.current, estimateSize: () => 40, overscan: 3 });
  const items = virtualizer.getVirtualItems();
  const first = items.length ? items[0].index : 0;
  const last = items.length ? items[items.length - 1].index : 0;
  useEffect(() => {
    record("rendered", [first, last]);
  }, [first, last]);
  return (
    <div className="shell">
      <header><h1>Orders</h1></header>
      <main ref={main} onScroll={(e) => record("scrollTop", e.currentTarget.scrollTop)}>
        <div role="grid" aria-label="Orders" aria-rowcount={ROWS} style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((item) => (
            <div key={item.index} role="row" aria-rowindex={item.index + 1} className="row" style={{ top: item.start }}>
              <span role="gridcell">Order {item.index + 1}</span>
              <span role="gridcell">
                <button type="button" onClick={() => record("opened", item.index + 1)}>Open order {item.index + 1}</button>
              </span>
            </div>
          ))}
        </div>
      </main>
    </div>
  );
}

mount(<App />, "TanStack Virtual");
