import { useState } from 'react';
import { useT } from '../i18n/index.js';

/**
 * The three ways to load the page agent, with this bridge's own address filled in, each copyable. The Vite plugin
 * names the address too: without `bridgeUrl` it finds a bridge by AITI_BRIDGE_URL or the running bridge's record in
 * the default data dir (bridge/locate.ts), which may be another bridge than this one.
 */
export function ConnectHelp({ open }: { open: boolean }) {
  const words = useT().pages;
  const script = `${window.location.origin}/aiti/page.js`;
  const ways = [
    { label: words.script, text: `<script src="${script}"></script>` },
    {
      label: words.vite,
      text: `import { aitiBridge } from '@aiti-ai/aiti-bridge/vite';\n// vite.config.ts:\nplugins: [aitiBridge({ bridgeUrl: '${window.location.origin}' })]`,
    },
    {
      label: words.bookmarklet,
      text: `javascript:(()=>{const s=document.createElement('script');s.src='${script}';document.head.append(s)})()`,
    },
  ];
  return (
    <details className="connect-help" open={open}>
      <summary>{words.connect}</summary>
      {ways.map((way) => (
        <Copyable key={way.label} {...way} />
      ))}
    </details>
  );
}

export function Copyable({ label, text }: { label: string; text: string }) {
  const words = useT().pages;
  const [copied, setCopied] = useState(false);
  return (
    <div className="copyable">
      <span className="copyable-label">{label}</span>
      <code>{text}</code>
      <button
        type="button"
        className="button small"
        onClick={() =>
          void navigator.clipboard.writeText(text).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? words.copied : words.copy}
      </button>
    </div>
  );
}
