import { isA } from '../dom/realm.js';
import { parseChord, press } from '../act/keys.js';
import { fireChange, fireInput, setNativeValue } from '../act/values.js';

/**
 * Sliders and spinbuttons that are not text boxes. A native range input takes its value through the native
 * setter and input/change events; an ARIA slider (Mantine, Radix, Chakra) is moved with the keys a person would
 * press — Home, End, the arrows — until its aria-valuenow is the value asked for, each press answered by the
 * app's re-render before the next.
 */

/** The value a slider or spinbutton shows now (aria-valuenow, or the range input's value). */
export function sliderValue(el: Element): string {
  if (isA(el, HTMLInputElement)) return el.value;
  return el.getAttribute('aria-valuenow') ?? '';
}

function numberAttr(el: Element, name: string, fallback: number): number {
  const value = Number(el.getAttribute(name));
  return el.hasAttribute(name) && Number.isFinite(value) ? value : fallback;
}

const turn = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The slider did not take the value: out of range, not on a step, or it would not move. */
export class SliderError extends Error {}

/** Sets `el` to `wanted` and returns the value it shows. A SliderError when it cannot get there. */
export async function setSlider(el: Element, wanted: number, what: string): Promise<string> {
  if (isA(el, HTMLInputElement)) {
    const min = Number(el.min || 0);
    const max = Number(el.max || 100);
    if (wanted < min || wanted > max) throw new SliderError(`${what} goes from ${min} to ${max}; ${wanted} is outside`);
    el.focus();
    setNativeValue(el, String(wanted));
    fireInput(el);
    fireChange(el);
    if (Number(el.value) !== wanted)
      throw new SliderError(`${what} moves in steps of ${el.step || 1}: ${wanted} is not one; it shows ${el.value}`);
    return el.value;
  }
  const min = numberAttr(el, 'aria-valuemin', -Infinity);
  const max = numberAttr(el, 'aria-valuemax', Infinity);
  if (wanted < min || wanted > max) throw new SliderError(`${what} goes from ${min} to ${max}; ${wanted} is outside`);
  (el as HTMLElement).focus?.();
  const vertical = el.getAttribute('aria-orientation') === 'vertical' || el.getAttribute('role') === 'spinbutton';
  const now = () => Number(el.getAttribute('aria-valuenow'));
  const key = (up: boolean) => (vertical ? (up ? 'ArrowUp' : 'ArrowDown') : up ? 'ArrowRight' : 'ArrowLeft');
  if (wanted === min && Number.isFinite(min)) press(el, parseChord('Home'));
  else if (wanted === max && Number.isFinite(max)) press(el, parseChord('End'));
  await turn();
  let stuck = 0;
  // a press moves one step; sliders of a few hundred steps are the most a person would arrow through
  for (let presses = 0; now() !== wanted && presses < 500 && stuck < 3; presses++) {
    const from = now();
    const up = wanted > from;
    press(el, parseChord(key(up)));
    await turn();
    const to = now();
    if (to === from) stuck++;
    else stuck = 0;
    // past it: the steps do not land on the value
    if (up ? to > wanted : to < wanted)
      throw new SliderError(
        `${what} moves in steps of ${Math.abs(to - from)}: ${wanted} is not one (nearest: ${from}, ${to})`,
      );
  }
  if (now() !== wanted)
    throw new SliderError(`${what} did not move to ${wanted} with the keyboard; it shows ${sliderValue(el)}`);
  return sliderValue(el);
}
