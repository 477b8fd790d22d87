// node --import ./register.mjs dist/electron/main.js: runs the built main process with the fake electron module.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
