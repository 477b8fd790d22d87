import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OPTIONS, PARSERS, defaultConfig, helpOf, resolveConfig, type Option } from '../../bridge/config.js';
import { tempDir } from '../helpers/bridge.js';

// Each option is one row of OPTIONS (bridge/config.ts): its key, flag, variable, parser, default and help line.
// These tests read the rows and check each against what a user meets: --help, the flag, the variable, the default.

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

/** A value each parser accepts that differs from every default, so a round trip shows the option took it. */
function sampleFor(option: Option): string {
  const kind = Object.entries(PARSERS).find(([, parse]) => parse === option.parse)?.[0];
  if (kind === 'string') {
    // a real file, so --notify-file (which reads its file) takes it like every other string option
    const file = join(tempDir(), 'sample.txt');
    writeFileSync(file, 'https://ntfy.example/topic\n');
    return file;
  }
  const samples: Record<string, string> = {
    port: '9101',
    ms: '4321',
    list: 'a.test, b.test',
    address: '0.0.0.0:9102',
    url: 'https://example.test/x/',
  };
  const sample = kind === undefined ? undefined : samples[kind];
  if (sample === undefined) throw new Error(`${option.flag}: no sample value for its parser; add one here`);
  return sample;
}

const takesNoValue = (option: Option) => option.parse === PARSERS.bool;

describe('every bridge option is written once', () => {
  it('has one row per key, flag and variable', () => {
    for (const field of ['key', 'flag', 'env'] as const) {
      const values = OPTIONS.map((o) => o[field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });

  it('takes its default from its row, and --help names that default', () => {
    const defaults: Record<string, unknown> = defaultConfig({});
    for (const option of OPTIONS) {
      if (!('default' in option)) {
        expect(defaults[option.key], option.flag).toBeUndefined();
        continue;
      }
      expect(defaults[option.key], option.flag).toBeDefined();
      const value = option.default;
      // a number or a text default is named in the help line through {default}, never written a second time
      if (typeof value === 'number' || typeof value === 'string') {
        expect(option.help, option.flag).toContain('{default}');
        expect(helpOf(option), option.flag).toContain(String(value));
      }
    }
    expect(OPTIONS.filter((o) => !('default' in o)).every((o) => !o.help.includes('{default}'))).toBe(true);
  });

  it('prints a help line with its flag and variable in aiti-bridge --help', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--help']);
    const lines = stdout.split('\n');
    for (const option of OPTIONS) {
      const line = lines.find((l) => l.trimStart().startsWith(`${option.flag} `));
      expect(line, option.flag).toBeDefined();
      expect(line, option.flag).toContain(`${helpOf(option)} [${option.env}]`);
      expect(line?.includes(' <value> '), option.flag).toBe(!takesNoValue(option));
      expect(line, option.flag).not.toContain('{default}');
    }
  });

  it('sets its key from its flag and from its variable', () => {
    const defaults: Record<string, unknown> = defaultConfig({});
    for (const option of OPTIONS) {
      const raw = takesNoValue(option) ? (defaults[option.key] ? 'false' : 'true') : sampleFor(option);
      const expected = option.parse(raw, option.flag);
      expect(expected, option.flag).not.toEqual(defaults[option.key]);
      const fromEnv: Record<string, unknown> = resolveConfig([], { [option.env]: raw });
      expect(fromEnv[option.key], option.env).toEqual(expected);
      if ('secret' in option) {
        expect(() => resolveConfig([option.flag, raw], {}), option.flag).toThrow(`${option.flag} is a secret`);
        continue;
      }
      const fromFlag: Record<string, unknown> = resolveConfig([`${option.flag}=${raw}`], {});
      expect(fromFlag[option.key], option.flag).toEqual(expected);
      const argv = takesNoValue(option) ? (raw === 'true' ? [option.flag] : []) : [option.flag, raw];
      if (argv.length) expect((resolveConfig(argv, {}) as Record<string, unknown>)[option.key]).toEqual(expected);
    }
  });

  it('has a row in docs/CONFIGURATION.md with its flag, its variable and its default', () => {
    const doc = readFileSync(new URL('../../docs/CONFIGURATION.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('| `--'));
    for (const option of OPTIONS) {
      const cells = rows
        .map((row) => row.split('|').map((cell) => cell.trim()))
        .find((c) => (c[1] ?? '').split(', ').includes(`\`${option.flag}\``));
      expect(cells, option.flag).toBeDefined();
      const [, flags = '', envs = '', shown = ''] = cells ?? [];
      // a row may hold a pair (`--tls-cert`, `--tls-key`): the variables follow the flags' order
      expect(envs.split(', ')[flags.split(', ').indexOf(`\`${option.flag}\``)], option.flag).toBe(`\`${option.env}\``);
      if (!('default' in option) || typeof option.default === 'function') continue;
      const value: unknown = option.default;
      const expected = value === false ? 'off' : Array.isArray(value) && !value.length ? 'none' : String(value);
      expect(shown.replace(/`/g, ''), option.flag).toBe(expected);
    }
    expect(rows.length).toBe(OPTIONS.length - 1); // --tls-cert and --tls-key share a row
  });
});
