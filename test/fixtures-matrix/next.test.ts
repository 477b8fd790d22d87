import { fixtureSuite } from './suite.js';

fixtureSuite({
  name: 'next-app',
  title: 'a Next.js 16 App Router app (Turbopack dev) with react-hook-form, react-select, react-datepicker and a range',
  frameworks: ['Next.js', 'React'],
  fields: [
    ['Traveller', 'text'],
    ['Country', 'combobox'],
    ['Languages', 'combobox'],
    ['Departure', 'date'],
    ['Budget', 'slider'],
    ['Travel insurance', 'checkbox'],
  ],
  fill: {
    fields: {
      Traveller: 'Ada',
      Country: 'Japan',
      Languages: ['Rust', 'Go'],
      Departure: '2026-07-04',
      Budget: 75,
      'Travel insurance': true,
    },
    button: 'Book',
  },
  saved: {
    traveller: 'Ada',
    country: 'jp',
    languages: ['rust', 'go'],
    departure: '2026-07-04',
    budget: 75,
    insurance: true,
  },
  sources: [],
});
