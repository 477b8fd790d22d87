import { isA } from '../dom/realm.js';
import type { UiButton, UiField, UiScanResult, UiSurface } from '../../protocol/snapshot.js';
import { isListboxButton, nameOf, roleOf } from '../dom/aria.js';
import { deepQueryAll } from '../dom/deep.js';
import { refFor } from '../dom/refs.js';
import { stableSelectorFor } from '../dom/selector.js';
import { isDisabled, isVisible, normalize } from '../dom/visible.js';
import { shownChoices, isMultiChoice } from './choices.js';
import { isComposite, shownChoice } from './combobox.js';
import { dateText, isTimeGroup, timeText } from './date-field.js';
import { isAriaRadioGroup, isDateGroup, isKeySpinbutton, isPickerButton, isSlider } from './kinds.js';
import { generatedName } from './labels.js';
import { radioGroupValue, radioOptions } from './radios.js';
import { sliderValue } from './slider.js';
import { fieldLabel, takesDate } from './field.js';
import { buttonsIn, frameDocuments, fieldsIn, openDialogs, optionLabel, surfaceTitle } from './surfaces.js';

export function fieldType(el: Element): string {
  if (isTimeGroup(el)) return 'time';
  if (takesDate(el)) return 'date';
  if (isSlider(el)) return 'slider';
  if (isAriaRadioGroup(el)) return 'radio';
  const role = el.getAttribute('role');
  // an input that is really a combobox (Autocomplete), a switch or a spinbutton is filled as one
  if (role === 'combobox' || role === 'switch' || role === 'listbox' || role === 'spinbutton') return role;
  if (isListboxButton(el)) return 'combobox';
  if (isA(el, HTMLInputElement)) return el.type;
  if (isA(el, HTMLSelectElement)) return el.multiple ? 'select-multiple' : 'select';
  if (isA(el, HTMLTextAreaElement)) return 'textarea';
  if ((el as HTMLElement).isContentEditable) return 'contenteditable';
  return roleOf(el) || el.localName;
}

/** What the field shows now: the value a person reads, after the app's own rendering. */
export function fieldValue(el: Element): string | boolean | string[] {
  if (isTimeGroup(el)) return timeText(el);
  if (isDateGroup(el) || isPickerButton(el)) return dateText(el);
  if (isSlider(el) || isKeySpinbutton(el)) return sliderValue(el);
  if (isAriaRadioGroup(el)) return radioGroupValue(el);
  if (isComposite(el)) {
    if (el.getAttribute('role') === 'listbox' || isMultiChoice(el)) return shownChoices(el);
    return shownChoice(el);
  }
  if (isA(el, HTMLInputElement)) {
    if (el.type === 'checkbox') return el.checked;
    if (el.type === 'radio') {
      // a radio stands for its group: the label of the checked option
      const group = el.name
        ? [...el.ownerDocument.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${CSS.escape(el.name)}"]`)]
        : [el];
      const checked = group.find((r) => r.form === el.form && r.checked);
      return checked ? optionLabel(checked) : '';
    }
    if (el.type === 'password') return el.value ? '•'.repeat(Math.min(8, el.value.length)) : '';
    return el.value;
  }
  if (isA(el, HTMLSelectElement)) {
    const selected = [...el.selectedOptions].map((o) => normalize(o.text));
    return el.multiple ? selected : (selected[0] ?? '');
  }
  if (isA(el, HTMLTextAreaElement)) return el.value;
  if (el.hasAttribute('aria-checked')) return el.getAttribute('aria-checked') === 'true';
  return normalize((el as HTMLElement).innerText);
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}

function describeFields(elements: Element[]): UiField[] {
  const fields: UiField[] = [];
  const radioGroups = new Map<string, UiField>();
  for (const el of elements) {
    if (isA(el, HTMLInputElement) && el.type === 'radio' && el.name) {
      const key = `${el.form?.id ?? ''}/${el.name}`;
      let group = radioGroups.get(key);
      if (!group) {
        const generated = generatedName(el.name);
        group = {
          label: fieldLabel(el) || el.name,
          ...(generated ? {} : { name: el.name, selector: `input[type=radio][name="${CSS.escape(el.name)}"]` }),
          ref: refFor(el),
          type: 'radio',
          value: '',
          ...(el.required ? { required: true } : {}),
          options: [],
        };
        radioGroups.set(key, group);
        fields.push(group);
      }
      group.options?.push(optionLabel(el));
      if (el.checked) group.value = optionLabel(el);
      continue;
    }
    const placeholder = el.getAttribute('placeholder') ?? undefined;
    const given = el.getAttribute('name') ?? undefined;
    const name = given && !generatedName(given) ? given : undefined;
    const selector = stableSelectorFor(el);
    const required = (el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true';
    fields.push({
      label: fieldLabel(el),
      ...(name ? { name } : {}),
      ...(selector ? { selector } : {}),
      ref: refFor(el),
      type: fieldType(el),
      value: fieldValue(el),
      ...(required ? { required } : {}),
      ...(isDisabled(el) ? { disabled: true } : {}),
      ...(placeholder ? { placeholder } : {}),
      ...(isA(el, HTMLSelectElement) ? { options: [...el.options].map((o) => normalize(o.text)) } : {}),
      ...(isAriaRadioGroup(el) ? { options: radioOptions(el) } : {}),
    });
  }
  return fields;
}

function describeButtons(elements: Element[]): UiButton[] {
  return elements.map((el) => ({
    label: nameOf(el, roleOf(el)) || el.getAttribute('value') || '',
    ...optional('selector', stableSelectorFor(el)),
    ref: refFor(el),
    ...(isA(el, HTMLButtonElement) || isA(el, HTMLInputElement) ? { type: el.type } : {}),
    ...(isDisabled(el) ? { disabled: true } : {}),
  }));
}

export function describeSurface(el: Element, kind: 'dialog' | 'form'): UiSurface {
  return {
    kind,
    title: surfaceTitle(el),
    ...optional('selector', stableSelectorFor(el)),
    ref: refFor(el),
    ...(kind === 'dialog'
      ? { modal: el.getAttribute('aria-modal') === 'true' || (isA(el, HTMLDialogElement) && el.matches(':modal')) }
      : {}),
    fields: describeFields(fieldsIn(el)),
    buttons: describeButtons(buttonsIn(el)),
  };
}

/** Open dialogs and visible forms outside them; fields outside any form show as one "page" surface. */
export function scan(): UiScanResult {
  const dialogs = openDialogs();
  const outside = (el: Element) => !dialogs.some((d) => d.contains(el));
  const forms = deepQueryAll('form').filter((f) => isVisible(f) && outside(f));
  const surfaces = forms.map((form) => describeSurface(form, 'form'));
  // forms of same-origin iframes: form_fill reaches them too (by label, without frameId)
  for (const doc of frameDocuments())
    for (const form of deepQueryAll('form', doc).filter(isVisible))
      surfaces.push({ ...describeSurface(form, 'form'), frame: doc.location.pathname });
  const loose = fieldsIn(document).filter((el) => outside(el) && !el.closest('form'));
  if (loose.length) {
    const buttons = buttonsIn(document).filter((el) => outside(el) && !el.closest('form'));
    surfaces.push({
      kind: 'form',
      title: 'page (fields outside any form)',
      selector: 'body',
      ref: refFor(document.body),
      fields: describeFields(loose),
      buttons: describeButtons(buttons.slice(0, 30)),
    });
  }
  return { url: location.href, dialogs: dialogs.map((d) => describeSurface(d, 'dialog')), forms: surfaces };
}
