import { useEffect, useState } from 'react';
import { flexRender, tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { mount } from './mount.js';

// Written from the TanStack Table docs: the v9 "Quick Start" (tableFeatures, useTable, flexRender) and the React
// "Editable Data" example (a default column whose cell is an input, kept in the data when it loses focus).
interface Person {
  firstName: string;
  lastName: string;
  age: number;
  status: string;
}

const features = tableFeatures({});

function EditableCell({ initialValue, onSave }: { initialValue: unknown; onSave: (value: string) => void }) {
  const [value, setValue] = useState(String(initialValue ?? ''));
  useEffect(() => setValue(String(initialValue ?? '')), [initialValue]);
  return <input value={value} onChange={(e) => setValue(e.target.value)} onBlur={() => onSave(value)} />;
}

function App() {
  const [data, setData] = useState<Person[]>([
    { firstName: 'tanner', lastName: 'linsley', age: 24, status: 'In Relationship' },
    { firstName: 'tandy', lastName: 'miller', age: 40, status: 'Single' },
    { firstName: 'joe', lastName: 'dirte', age: 45, status: 'Complicated' },
  ]);
  const updateData = (rowIndex: number, columnId: string, value: string) =>
    setData((old) =>
      old.map((row, index) =>
        index === rowIndex ? { ...row, [columnId]: columnId === 'age' ? Number(value) : value } : row,
      ),
    );
  const columns: Array<ColumnDef<typeof features, Person>> = (['firstName', 'lastName', 'age', 'status'] as const).map(
    (key) => ({
      accessorKey: key,
      header: { firstName: 'First Name', lastName: 'Last Name', age: 'Age', status: 'Status' }[key],
      cell: ({ getValue, row }) => (
        <EditableCell initialValue={getValue()} onSave={(value) => updateData(row.index, key, value)} />
      ),
    }),
  );
  const table = useTable({ features, columns, data });

  return (
    <main>
      <h1>People</h1>
      <table>
        <thead>
          {table.getHeaderGroups().map((headerGroup) => (
            <tr key={headerGroup.id}>
              {headerGroup.headers.map((header) => (
                <th key={header.id}>{flexRender(header.column.columnDef.header, header.getContext())}</th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <pre id="state">{JSON.stringify({ data })}</pre>
    </main>
  );
}

mount(<App />);
