#!/usr/bin/env node
// The release workflow's signing step: from the repository's secrets (all optional), sets what electron-builder
// reads for this platform's installers, and says in the log what will be signed and notarized, and what will not.
// Usage: node scripts/release-signing.js linux|mac|win   (appends to $GITHUB_ENV; prints workflow commands)
// Secrets, passed in as environment variables of the same names:
//   MAC_CSC_LINK, MAC_CSC_KEY_PASSWORD   the Developer ID Application certificate (.p12, base64) and its password
//   APPLE_API_KEY_BASE64, APPLE_API_KEY_ID, APPLE_API_ISSUER   an App Store Connect API key (.p8, base64): notarization
//   WIN_CSC_LINK, WIN_CSC_KEY_PASSWORD   the Windows code-signing certificate (.pfx, base64) and its password
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const platform = process.argv[2];
const env = process.env;
const set = {};
const notice = (title, text) => console.log(`::notice title=${title}::${text}`);
const warning = (title, text) => console.log(`::warning title=${title}::${text}`);
const given = (...names) => names.every((name) => (env[name] ?? '').trim() !== '');

if (platform === 'mac') {
  if (given('MAC_CSC_LINK', 'MAC_CSC_KEY_PASSWORD')) {
    set.CSC_LINK = env.MAC_CSC_LINK;
    set.CSC_KEY_PASSWORD = env.MAC_CSC_KEY_PASSWORD;
    notice('macOS signing', 'the app and the dmg are signed with the Developer ID certificate from MAC_CSC_LINK');
    if (given('APPLE_API_KEY_BASE64', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER')) {
      const key = join(
        mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'notarize-')),
        `AuthKey_${env.APPLE_API_KEY_ID}.p8`,
      );
      writeFileSync(key, Buffer.from(env.APPLE_API_KEY_BASE64 ?? '', 'base64'), { mode: 0o600 });
      set.APPLE_API_KEY = key;
      set.APPLE_API_KEY_ID = env.APPLE_API_KEY_ID;
      set.APPLE_API_ISSUER = env.APPLE_API_ISSUER;
      notice(
        'macOS notarization',
        `the signed app is notarized with the App Store Connect API key ${env.APPLE_API_KEY_ID}`,
      );
    } else {
      warning(
        'Not notarized',
        'APPLE_API_KEY_BASE64, APPLE_API_KEY_ID and APPLE_API_ISSUER are not all set: the app is signed but not notarized, so Gatekeeper blocks it when downloaded',
      );
    }
  } else {
    // no identity: electron-builder must not look for one in the runner's keychain
    set.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
    warning(
      'Unsigned macOS build',
      'MAC_CSC_LINK and MAC_CSC_KEY_PASSWORD are not set: the app is not signed (only ad hoc, so it runs on arm64) and not notarized; a downloaded dmg needs "Open Anyway" in System Settings > Privacy & Security',
    );
  }
} else if (platform === 'win') {
  if (given('WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD')) {
    set.WIN_CSC_LINK = env.WIN_CSC_LINK;
    set.WIN_CSC_KEY_PASSWORD = env.WIN_CSC_KEY_PASSWORD;
    notice('Windows signing', 'the app and its installer are signed with the certificate from WIN_CSC_LINK');
  } else {
    set.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
    warning(
      'Unsigned Windows build',
      'WIN_CSC_LINK and WIN_CSC_KEY_PASSWORD are not set: the installer is not signed, so SmartScreen warns before it runs',
    );
  }
} else if (platform === 'linux') {
  notice(
    'Linux packages',
    'AppImage and deb are not signed (neither format asks for it); the release lists their checksums',
  );
} else {
  console.error(`release-signing: the platform is linux, mac or win, not "${platform ?? ''}"`);
  process.exit(2);
}

// GitHub's multi-line form, so a value holding a newline cannot add a variable of its own
const delimiter = `AITI_${randomBytes(8).toString('hex')}`;
const lines = Object.entries(set).map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
if (env.GITHUB_ENV) appendFileSync(env.GITHUB_ENV, lines.join(''));
else for (const name of Object.keys(set)) console.log(`would set ${name}`);
