import { useState } from 'react';
import { AllCommunityModule, ModuleRegistry, type ColDef } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { mount } from './mount.js';

// Written from the AG Grid React docs (ag-grid.com/react-data-grid: "Quick Start", "Cell Editing", "Provided Cell
// Editors" — text, number and select editors —, "Row Selection" and "Quick Filter").
ModuleRegistry.registerModules([AllCommunityModule]);

interface Car {
  make: string;
  model: string;
  price: number;
  color: string;
}

function App() {
  const [rowData, setRowData] = useState<Car[]>([
    { make: 'Tesla', model: 'Model Y', price: 64950, color: 'Red' },
    { make: 'Ford', model: 'F-Series', price: 33850, color: 'Blue' },
    { make: 'Toyota', model: 'Corolla', price: 29600, color: 'Green' },
    { make: 'Mercedes', model: 'EQA', price: 48890, color: 'Blue' },
    { make: 'Fiat', model: '500', price: 15774, color: 'Red' },
    { make: 'Nissan', model: 'Juke', price: 20675, color: 'Green' },
  ]);
  const [colDefs] = useState<ColDef<Car>[]>([
    { field: 'make', editable: true },
    { field: 'model', editable: true },
    { field: 'price', editable: true, cellEditor: 'agNumberCellEditor' },
    {
      field: 'color',
      editable: true,
      cellEditor: 'agSelectCellEditor',
      cellEditorParams: { values: ['Red', 'Blue', 'Green'] },
    },
  ]);
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string[]>([]);

  return (
    <main>
      <h1>Cars</h1>
      <label>
        Quick filter <input value={filter} onChange={(event) => setFilter(event.target.value)} />
      </label>
      <div style={{ height: 400, width: 900 }}>
        <AgGridReact
          rowData={rowData}
          columnDefs={colDefs}
          quickFilterText={filter}
          rowSelection={{ mode: 'multiRow' }}
          onSelectionChanged={(event) => setSelected(event.api.getSelectedRows().map((car) => car.model))}
          // the grid writes the new value into the row object it was given: show the rows again
          onCellValueChanged={() => setRowData((rows) => [...rows])}
        />
      </div>
      <pre id="state">{JSON.stringify({ rows: rowData, selected })}</pre>
    </main>
  );
}

mount(<App />);
