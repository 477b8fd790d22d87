import { useT } from '../i18n/index.js';

/** A device's window after the desk revoked it: nothing more reaches the bridge from here until it pairs again. */
export function Unpaired() {
  const words = useT();
  return (
    <main className="gate">
      <h1>{words.app.name}</h1>
      <p role="alert">
        {words.devices.unpaired.before}
        <strong>{words.devices.pair}</strong>
        {words.devices.unpaired.after}
      </p>
    </main>
  );
}
