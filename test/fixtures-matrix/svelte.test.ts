import { FORMS } from './forms.js';
import { fixtureSuite } from './suite.js';

fixtureSuite({
  name: 'svelte-app',
  title: 'a Svelte 5 app (@sveltejs/vite-plugin-svelte) on a Vite dev server',
  frameworks: ['Svelte', 'Vite'],
  fields: [
    ['Name', 'text'],
    ['Size', 'select'],
    ['Plan', 'radio'],
    ['I agree', 'checkbox'],
  ],
  ...FORMS['svelte-app'],
  sources: [
    {
      what: 'a plain tag of the root component (named after its file)',
      target: (tab) => tab.locator('h1'),
      file: 'src/App.svelte',
      marker: '<h1>',
      component: 'App',
    },
    {
      what: 'a tag inside a child component',
      target: (tab) => tab.locator('#name'),
      file: 'src/NameField.svelte',
      marker: '<input id="name"',
      component: 'NameField',
    },
  ],
});
