import { fixtureSuite } from './suite.js';

fixtureSuite({
  name: 'radix-app',
  title: 'Radix UI Select in a React form on a Vite dev server',
  frameworks: ['React', 'Vite'],
  fields: [
    ['Name', 'text'],
    ['Role', 'combobox'],
    ['Notify me', 'checkbox'],
  ],
  fill: { fields: { Name: 'Lin', Role: 'Admin', 'Notify me': true }, button: 'Save' },
  saved: { name: 'Lin', role: 'admin', notify: true },
  sources: [
    { what: 'a plain tag', target: (tab) => tab.locator('h1'), file: 'src/App.tsx', marker: '<h1>' },
    {
      what: 'the Radix trigger',
      target: (tab) => tab.getByRole('combobox'),
      file: 'src/App.tsx',
      marker: '<Select.Trigger',
      component: 'SelectTrigger',
    },
  ],
});
