import { fixtureSuite } from './suite.js';

fixtureSuite({
  name: 'antd-app',
  title: 'Ant Design Form (Input, Select, Radio.Group, Checkbox, Switch) on a Vite dev server',
  frameworks: ['React', 'Vite'],
  fields: [
    ['Customer', 'text'],
    ['Size', 'combobox'],
    ['Shipping', 'radio'],
    ['Gift wrap', 'checkbox'],
    ['Express', 'switch'],
  ],
  fill: {
    fields: { Customer: 'Ada', Size: 'Large', Shipping: 'Courier', 'Gift wrap': true, Express: true },
    button: 'Place order',
  },
  saved: { customer: 'Ada', size: 'l', shipping: 'courier', gift: true, express: true },
  sources: [
    { what: 'a plain tag', target: (tab) => tab.locator('h1'), file: 'src/App.tsx', marker: '<h1>' },
    {
      what: 'an antd Button',
      target: (tab) => tab.getByRole('button', { name: 'Count' }),
      file: 'src/App.tsx',
      marker: '<Button onClick',
      component: 'Button',
    },
  ],
});
