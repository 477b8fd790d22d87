import { FORMS } from './forms.js';
import { fixtureSuite } from './suite.js';

fixtureSuite({
  name: 'vue-app',
  title: 'a Vue 3 single-file-component app (@vitejs/plugin-vue) on a Vite dev server',
  frameworks: ['Vue', 'Vite'],
  fields: [
    ['Name', 'text'],
    ['Color', 'select'],
    ['Plan', 'radio'],
    ['I agree', 'checkbox'],
  ],
  ...FORMS['vue-app'],
  sources: [
    {
      what: 'a plain tag (App.vue, named by the __name <script setup> gives it)',
      target: (tab) => tab.locator('h1'),
      file: 'src/App.vue',
      marker: '<h1>',
      component: 'App',
    },
    {
      what: 'a tag inside a child component (named NameInput by defineOptions, in NameField.vue)',
      target: (tab) => tab.locator('#name'),
      file: 'src/NameField.vue',
      marker: '<input id="name"',
      component: 'NameInput',
    },
  ],
});
