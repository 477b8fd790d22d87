import { useState, type FormEvent } from 'react';
import {
  Button,
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Dialog,
  DialogPanel,
  DialogTitle,
  Field,
  Label,
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
} from '@headlessui/react';
import { mount } from './mount.js';

// Written from the Headless UI docs (headlessui.com/react/combobox, /listbox "Selecting multiple values", /dialog).
const people = [
  { id: 1, name: 'Durward Reynolds' },
  { id: 2, name: 'Kenton Towne' },
  { id: 3, name: 'Therese Wunsch' },
  { id: 4, name: 'Benedict Kessler' },
  { id: 5, name: 'Katelyn Rohan' },
];

function App() {
  const [assignee, setAssignee] = useState<(typeof people)[number] | null>(people[0] ?? null);
  const [query, setQuery] = useState('');
  const [reviewers, setReviewers] = useState([people[0], people[1]]);
  const [isOpen, setIsOpen] = useState(false);
  const [saved, setSaved] = useState<Record<string, unknown> | null>(null);

  const filteredPeople =
    query === '' ? people : people.filter((person) => person.name.toLowerCase().includes(query.toLowerCase()));

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaved({ assignee: assignee?.name ?? null });
  };

  return (
    <main>
      <h1>Task</h1>
      <form onSubmit={save}>
        <Field>
          <Label>Assignee</Label>
          <Combobox value={assignee} onChange={setAssignee} onClose={() => setQuery('')}>
            <ComboboxInput
              displayValue={(person: (typeof people)[number] | null) => person?.name ?? ''}
              onChange={(event) => setQuery(event.target.value)}
            />
            <ComboboxOptions anchor="bottom" className="border empty:invisible">
              {filteredPeople.map((person) => (
                <ComboboxOption key={person.id} value={person} className="data-focus:bg-blue-100">
                  {person.name}
                </ComboboxOption>
              ))}
            </ComboboxOptions>
          </Combobox>
        </Field>
        <button type="submit">Save</button>
      </form>

      <Button onClick={() => setIsOpen(true)}>Choose reviewers</Button>
      <Dialog open={isOpen} onClose={() => setIsOpen(false)} className="relative z-50">
        <div className="fixed inset-0 flex w-screen items-center justify-center p-4">
          <DialogPanel className="max-w-lg space-y-4 border bg-white p-12">
            <DialogTitle className="font-bold">Reviewers</DialogTitle>
            <Field>
              <Label>Reviewers</Label>
              <Listbox value={reviewers} onChange={setReviewers} multiple>
                <ListboxButton>{reviewers.map((person) => person?.name).join(', ')}</ListboxButton>
                <ListboxOptions anchor="bottom">
                  {people.map((person) => (
                    <ListboxOption key={person.id} value={person} className="data-focus:bg-blue-100">
                      {person.name}
                    </ListboxOption>
                  ))}
                </ListboxOptions>
              </Listbox>
            </Field>
            <div className="flex gap-4">
              <button onClick={() => setIsOpen(false)}>Cancel</button>
              <button
                onClick={() => {
                  setSaved({ reviewers: reviewers.map((person) => person?.name) });
                  setIsOpen(false);
                }}
              >
                Save reviewers
              </button>
            </div>
          </DialogPanel>
        </div>
      </Dialog>
      <pre id="state">{JSON.stringify({ saved })}</pre>
    </main>
  );
}

mount(<App />);
