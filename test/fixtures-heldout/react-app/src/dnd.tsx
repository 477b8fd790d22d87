import { useState, type FormEvent } from 'react';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { mount } from './mount.js';

// Written from the dnd-kit docs (docs.dndkit.com: "Sortable" preset — DndContext, SortableContext, useSortable,
// the keyboard sensor with sortableKeyboardCoordinates, arrayMove in onDragEnd) and an "add card" form beside it.
function SortableItem({ id }: { id: string }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id });
  const style = { transform: CSS.Transform.toString(transform), transition, padding: 8, border: '1px solid #ccc' };
  return (
    <li ref={setNodeRef} style={style} {...attributes} {...listeners}>
      {id}
    </li>
  );
}

function App() {
  const [items, setItems] = useState(['Write spec', 'Build API', 'Test', 'Release']);
  const [title, setTitle] = useState('');
  const [priority, setPriority] = useState('normal');
  const [blocked, setBlocked] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  function handleDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (over && active.id !== over.id) {
      setItems((current) => {
        const oldIndex = current.indexOf(String(active.id));
        const newIndex = current.indexOf(String(over.id));
        return arrayMove(current, oldIndex, newIndex);
      });
    }
  }

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!title) return;
    setItems((current) => [...current, title]);
    setSaved({ title, priority, blocked });
    setTitle('');
  };
  const [saved, setSaved] = useState<Record<string, unknown> | null>(null);

  return (
    <main>
      <h1>Backlog</h1>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={handleDragEnd}>
        <SortableContext items={items} strategy={verticalListSortingStrategy}>
          <ul style={{ width: 300 }}>
            {items.map((id) => (
              <SortableItem key={id} id={id} />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      <form onSubmit={add}>
        <label>
          Card title <input value={title} onChange={(event) => setTitle(event.target.value)} />
        </label>
        <label>
          Priority
          <select value={priority} onChange={(event) => setPriority(event.target.value)}>
            <option value="low">Low</option>
            <option value="normal">Normal</option>
            <option value="high">High</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={blocked} onChange={(event) => setBlocked(event.target.checked)} /> Blocked
        </label>
        <button type="submit">Add card</button>
      </form>
      <pre id="state">{JSON.stringify({ saved, items })}</pre>
    </main>
  );
}

mount(<App />);
