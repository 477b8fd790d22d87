import { nameOf, roleOf } from './aria.js';
import { refFor } from './refs.js';

/** `button "Save" (e12)`: how results and errors name an element. */
export function label(el: Element): string {
  const role = roleOf(el) || el.localName;
  const name = nameOf(el, roleOf(el), 40);
  return `${role}${name ? ` "${name}"` : ''} (${refFor(el)})`;
}
