import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { toast } from './overlay.js';

/** user_notify: a browser Notification when allowed, else an in-page toast (with a button to allow them). */
export function notify(args: PageCommandArgs<'User.notify'>): Json {
  const title = args.title ?? 'AITI';
  const permission = 'Notification' in window ? Notification.permission : 'unsupported';
  if (permission === 'granted') {
    try {
      new Notification(title, { body: args.body, tag: 'aiti' });
      return { shown: 'notification', permission };
    } catch {
      // some browsers only allow notifications from a service worker: fall back to the toast
    }
  }
  const card = toast(args.body, { title, ms: 12_000 });
  if (permission === 'default') {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Show these as notifications';
    button.addEventListener('click', () => {
      void Notification.requestPermission().then(() => button.remove());
    });
    card.append(document.createElement('br'), button);
  }
  return { shown: 'toast', permission };
}
