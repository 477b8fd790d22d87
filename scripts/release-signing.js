#!/usr/bin/env node
// The release workflow's signing step: from the repository's secrets (all optional), sets what electron-builder
// reads for this platform's installers, and says in the log what will be signed and notarized, and what will not.
// Usage: node scripts/release-signing.js linux|mac|win   (appends to $GITHUB_ENV; prints workflow commands)
// Every platform gets EB_CONFIG, the electron-builder config the build step passes with --config.
// Secrets, passed in as environment variables of the same names:
//   MAC_CSC_LINK, MAC_CSC_KEY_PASSWORD   the Developer ID Application certificate (.p12, base64) and its password
//   APPLE_API_KEY_BASE64, APPLE_API_KEY_ID, APPLE_API_ISSUER   an App Store Connect API key (.p8, base64): notarization
//   Windows, through Azure Artifact Signing (since June 2023 a code-signing key lives on hardware, so a .pfx in a
//   secret cannot sign a release any more; the key stays in Azure's HSM and signs each file there):
//   AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET   a Microsoft Entra app allowed to sign (EnvironmentCredential)
//   AZURE_SIGNING_ENDPOINT, AZURE_SIGNING_ACCOUNT, AZURE_CERTIFICATE_PROFILE   the Artifact Signing account and profile
//   WIN_PUBLISHER_NAME   the publisher name exactly as in the certificate (electron-updater checks updates against it)
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const platform = process.argv[2];
const env = process.env;
const set = {};
/** what this platform's build adds to electron-builder.yml (Windows' signing options), or nothing */
let config;
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
  const azure = ['AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET'];
  const account = [
    'AZURE_SIGNING_ENDPOINT',
    'AZURE_SIGNING_ACCOUNT',
    'AZURE_CERTIFICATE_PROFILE',
    'WIN_PUBLISHER_NAME',
  ];
  if (given(...azure, ...account)) {
    // electron-builder signs through the TrustedSigning PowerShell module, which logs in with these
    for (const name of azure) set[name] = env[name];
    config = {
      win: {
        azureSignOptions: {
          endpoint: env.AZURE_SIGNING_ENDPOINT,
          codeSigningAccountName: env.AZURE_SIGNING_ACCOUNT,
          certificateProfileName: env.AZURE_CERTIFICATE_PROFILE,
          publisherName: env.WIN_PUBLISHER_NAME,
        },
      },
    };
    notice(
      'Windows signing',
      `the app, its installer and its uninstaller are signed through Azure Artifact Signing (account ${env.AZURE_SIGNING_ACCOUNT}, profile ${env.AZURE_CERTIFICATE_PROFILE})`,
    );
  } else {
    set.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
    warning(
      'Unsigned Windows build',
      `${[...azure, ...account].filter((name) => !given(name)).join(', ')} not set: the installer is not signed, so SmartScreen warns before it runs`,
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

// the build always passes --config "$EB_CONFIG": the repository's file, or one extending it with signing
const root = fileURLToPath(new URL('..', import.meta.url));
if (config) {
  const file = join(mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'eb-config-')), 'electron-builder.signed.json');
  writeFileSync(file, JSON.stringify({ extends: resolve(root, 'electron-builder.yml'), ...config }, null, 2));
  set.EB_CONFIG = file;
} else {
  set.EB_CONFIG = resolve(root, 'electron-builder.yml');
}

// GitHub's multi-line form, so a value holding a newline cannot add a variable of its own
const delimiter = `AITI_${randomBytes(8).toString('hex')}`;
const lines = Object.entries(set).map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
if (env.GITHUB_ENV) appendFileSync(env.GITHUB_ENV, lines.join(''));
else for (const name of Object.keys(set)) console.log(`would set ${name}`);
