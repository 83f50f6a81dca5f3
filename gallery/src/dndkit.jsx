// A dnd kit sortable list moved with the pointer (PointerSensor); the app keeps the order.
import "./dndkit.css";
import { useState } from "react";
import { DndContext, PointerSensor, closestCenter, useSensor, useSensors } from "@dnd-kit/core";
import { SortableContext, arrayMove, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { record } from "./_state.js";
import { mount } from "./_react.js";

function Item({ id }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id });
  const style = { transform: CSS.Transform.toString(transform), transition };
  return (
    <li ref={setNodeRef} style={style} {...attributes} {...listeners}>
      {id}
    </li>
  );
}

function App() {
  const [items, setItems] = useState(["Write report", "Review code", "Deploy release", "Send invoice"]);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const onDragEnd = ({ active, over }) => {
    if (!over || active.id === over.id) return;
    setItems((list) => {
      const next = arrayMove(list, list.indexOf(active.id), list.indexOf(over.id));
      record("order", next);
      return next;
    });
  };
  return (
    <main>
      <h1>dnd kit</h1>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={items} strategy={verticalListSortingStrategy}>
          <ul aria-label="Tasks">
            {items.map((id) => (
              <Item key={id} id={id} />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
    </main>
  );
}

mount(<App />, "dnd kit");
