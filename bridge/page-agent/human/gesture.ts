import { toast } from './overlay.js';

/**
 * The gesture bridge: some browser features only work inside a click by the person (clipboard, fullscreen,
 * notification permission, file picker, popups). The agent's command waits behind an in-page button; the
 * human's click runs it with that user activation.
 */
export function withGesture<T>(what: string, run: () => T | Promise<T>, timeoutMs = 120_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const card = toast(`The AI agent needs your click to: ${what}`, { title: 'AITI — click to allow', ms: 0 });
    card.classList.add('gesture');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Allow and run';
    button.setAttribute('data-aiti-gesture', '');
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.textContent = 'Refuse';
    cancel.style.marginLeft = '8px';
    cancel.style.background = '#4b5563';
    const line = document.createElement('div');
    line.append(button, cancel);
    card.append(line);
    const timer = setTimeout(() => {
      card.remove();
      reject(new Error(`the human did not click the in-page button within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    button.addEventListener('click', () => {
      clearTimeout(timer);
      card.remove();
      // called synchronously inside the click, so the user activation applies
      try {
        resolve(run());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    cancel.addEventListener('click', () => {
      clearTimeout(timer);
      card.remove();
      reject(new Error('the human refused the in-page request'));
    });
  });
}

/** Errors that mean "this needed a user gesture". */
export function needsGesture(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /user (gesture|activation)|NotAllowedError|must be handling a user gesture|requires (transient )?activation/i.test(
    text,
  );
}

const GESTURE_APIS =
  /requestFullscreen|clipboard\.(write|read)|requestPermission|showOpenFilePicker|showSaveFilePicker|showDirectoryPicker|window\.open\(|\.showPicker\(|requestPointerLock/;

/** An expression that calls an API which refuses to run without a user gesture. */
export function looksGestureBound(expression: string): boolean {
  const active = (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation?.isActive;
  return !active && GESTURE_APIS.test(expression);
}
