import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from './support/find-chromium.js';

const folder = mkdtempSync(join(tmpdir(), 'milpa-find-chromium-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function fakeBrowser(name: string): string {
  const path = join(folder, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('findChromium', () => {
  it('takes CHROMIUM_PATH, then CHROME_PATH, when they name an executable', () => {
    const given = fakeBrowser('my-chromium');
    expect(findChromium({ CHROMIUM_PATH: given, PATH: '' })).toBe(given);
    expect(findChromium({ CHROME_PATH: given, PATH: '' })).toBe(given);
    expect(findChromium({ CHROMIUM_PATH: join(folder, 'missing'), PATH: '' })).toBeNull();
  });

  it('finds a Chromium or Chrome on PATH', () => {
    const onPath = fakeBrowser('chromium-browser');
    expect(findChromium({ PATH: `/nonexistent${process.platform === 'win32' ? ';' : ':'}${folder}` })).toBe(onPath);
  });
});
