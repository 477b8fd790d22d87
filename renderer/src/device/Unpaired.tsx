/** A device's window after the desk revoked it: nothing more reaches the bridge from here until it pairs again. */
export function Unpaired() {
  return (
    <main className="gate">
      <h1>AITI Bridge</h1>
      <p role="alert">
        This device is no longer paired with the bridge: it was revoked at the desk. To use it again, press{' '}
        <strong>Pair a device</strong> in the desk window and scan the new code.
      </p>
    </main>
  );
}
