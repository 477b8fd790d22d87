import type { FixtureName } from '../helpers/fixture-app.js';

/** One form_fill of a fixture: the fields and button, and the app's saved state it must leave (its #state JSON). */
export interface FixtureForm {
  fill: { fields: Record<string, string | number | boolean | string[]>; button: string };
  saved: Record<string, unknown>;
}

/** The trip form of hook-form-app and next-app: react-hook-form, react-select, react-datepicker and a range. */
const TRIP: FixtureForm = {
  fill: {
    fields: {
      Traveller: 'Ada',
      Country: 'Japan',
      // Rust is chosen already and react-select hides it from its list: it is not "missing"
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
};

/** What self_ui lists of the trip form: [label, type]. */
export const TRIP_FIELDS: Array<[string, string]> = [
  ['Traveller', 'text'],
  ['Country', 'combobox'],
  ['Languages', 'combobox'],
  ['Departure', 'date'],
  ['Budget', 'slider'],
  ['Travel insurance', 'checkbox'],
];

/**
 * Each fixture's whole form in one call: shared by the fixture suite (test/fixtures-matrix) and the bench
 * (bench/fixture-forms.ts), so both judge the same fill by the same state.
 */
export const FORMS = {
  'antd-app': {
    fill: {
      // Toppings starts as ["cheese"]: the list given replaces it
      fields: {
        Customer: 'Ada',
        Size: 'Large',
        Toppings: ['Olives', 'Basil'],
        Shipping: 'Courier',
        'Gift wrap': true,
        Express: true,
      },
      button: 'Place order',
    },
    saved: {
      customer: 'Ada',
      size: 'l',
      toppings: ['olives', 'basil'],
      shipping: 'courier',
      gift: true,
      express: true,
    },
  },
  'radix-app': {
    fill: { fields: { Name: 'Lin', Role: 'Admin', Team: 'Growth', 'Notify me': true }, button: 'Save' },
    saved: { name: 'Lin', role: 'admin', team: 'growth', notify: true },
  },
  'vue-app': {
    fill: { fields: { Name: 'Evan', Color: 'Blue', Plan: 'Pro', 'I agree': true }, button: 'Sign up' },
    saved: { name: 'Evan', color: 'blue', plan: 'pro', agree: true },
  },
  'svelte-app': {
    fill: { fields: { Name: 'Rich', Size: 'Large', Plan: 'Pro', 'I agree': true }, button: 'Send' },
    saved: { name: 'Rich', size: 'l', plan: 'pro', agree: true },
  },
  'mantine-app': {
    fill: {
      fields: {
        Name: 'Ada Lovelace',
        Handle: 'ada',
        Country: 'Japan',
        // React is held already: it stays, Svelte is added
        Skills: ['React', 'Svelte'],
        City: 'Tokyo',
        // months away from today, in either direction the calendar has to page
        'Start date': '2027-03-15',
        Age: 36,
        Plan: 'Pro',
        Experience: 7,
        'Public profile': true,
        'I accept the terms': true,
      },
      button: 'Save',
    },
    saved: {
      name: 'Ada Lovelace',
      handle: 'ada',
      country: 'Japan',
      skills: ['React', 'Svelte'],
      city: 'Tokyo',
      start: '2027-03-15',
      age: 36,
      plan: 'pro',
      experience: 7,
      public: true,
      terms: true,
    },
  },
  'hook-form-app': TRIP,
  'aria-app': {
    fill: {
      fields: {
        Name: 'Ada',
        'Favorite animal': 'Dog',
        Toppings: ['Olives', 'Basil'],
        City: 'Tokyo',
        Date: '2027-03-15',
        Guests: 4,
        Size: 'Large',
        Volume: 70,
        'Notify me': true,
        'I accept the terms': true,
      },
      button: 'Book',
    },
    saved: {
      name: 'Ada',
      animal: 'dog',
      toppings: ['olives', 'basil'],
      city: 'tokyo',
      date: '2027-03-15',
      guests: '4',
      size: 'l',
      volume: '70',
      notify: 'on',
      terms: 'on',
    },
  },
  'chakra-app': {
    fill: {
      fields: {
        Name: 'Ada',
        Framework: 'Svelte',
        // English is held: it goes, the two asked for stay
        Languages: ['Portuguese', 'Japanese'],
        'Start date': '2026-09-10',
        Seats: 3,
        Tier: 'Max',
        Level: 60,
        Newsletter: true,
        'I accept the terms': true,
      },
      button: 'Sign up',
    },
    saved: {
      name: 'Ada',
      framework: ['svelte'],
      languages: ['pt', 'ja'],
      start: '2026-09-10',
      seats: '3',
      tier: 'max',
      level: [60],
      newsletter: true,
      terms: true,
    },
  },
  'shadcn-app': {
    fill: {
      fields: {
        Username: 'ada',
        Email: 'm@google.com',
        Language: 'Japanese',
        // decades back: the calendar's month and year dropdowns, not 400 presses of "previous"
        'Date of birth': '1990-05-17',
        'Notify me about...': 'Nothing',
        Volume: 30,
        'Marketing emails': true,
        'Accept terms and conditions': true,
      },
      button: 'Update profile',
    },
    saved: {
      username: 'ada',
      email: 'm@google.com',
      language: 'ja',
      dob: '1990-05-17',
      notify: 'none',
      volume: 30,
      marketing: true,
      terms: true,
    },
  },
  // the same form, written as a Next.js client component
  'next-app': TRIP,
  'angular-app': {
    fill: {
      fields: {
        Name: 'Ada',
        Size: 'Large',
        // Cheese is held: it goes
        Toppings: ['Olives', 'Basil'],
        City: 'Tokyo',
        Arrival: '2027-03-15',
        Plan: 'Pro',
        Guests: 4,
        Breakfast: true,
        'I accept the terms': true,
      },
      button: 'Book',
    },
    saved: {
      name: 'Ada',
      size: 'l',
      toppings: ['olives', 'basil'],
      city: 'Tokyo',
      plan: 'pro',
      guests: 4,
      breakfast: true,
      terms: true,
      arrival: '2027-03-15',
    },
  },
} satisfies Partial<Record<FixtureName, FixtureForm>>;
