import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOST_STAGE_AFTER_ANCHORS, HOST_STAGE_BEFORE_ANCHORS } from './host-stage.js';
import { BUILT_IN_STAGES, composeStages } from './stage-list.js';

const ARCHITECTURE = fileURLToPath(new URL('../../ARCHITECTURE.md', import.meta.url));

/** The rows of the stage table in ARCHITECTURE.md: number, stage name and file. */
function documentedStages(): { readonly index: number; readonly name: string; readonly file: string }[] {
  const text = readFileSync(ARCHITECTURE, 'utf8');
  const start = text.indexOf('| # | stage | file |');
  const rows = text.slice(start).split('\n').slice(2);
  const table = rows.slice(
    0,
    rows.findIndex((row) => !row.startsWith('|')),
  );
  return table.map((row) => {
    const [, index = '', name = '', file = ''] = row.split('|').map((cell) => cell.trim());
    return { index: Number(index), name, file: file.replaceAll('`', '') };
  });
}

describe('BUILT_IN_STAGES', () => {
  it('matches the stage table of ARCHITECTURE.md, stage for stage and in order', () => {
    const documented = documentedStages();
    expect(documented.map((row) => row.name)).toEqual(BUILT_IN_STAGES.map((stage) => stage.name));
    expect(documented.map((row) => row.index)).toEqual(BUILT_IN_STAGES.map((_stage, index) => index + 1));
  });

  it('names an existing stage file on every row of the ARCHITECTURE.md table', () => {
    for (const { file } of documentedStages()) {
      expect(existsSync(fileURLToPath(new URL(`./stages/${file}`, import.meta.url))), file).toBe(true);
    }
  });
});

describe('composeStages', () => {
  const stage = { name: 'guard', check: () => undefined };

  it.each(HOST_STAGE_BEFORE_ANCHORS)('accepts a host stage before %s', (anchor) => {
    expect(composeStages([{ before: anchor, stage }]).map((entry) => entry.name)).toContain('guard');
  });

  it.each(HOST_STAGE_AFTER_ANCHORS)('accepts a host stage after %s', (anchor) => {
    expect(composeStages([{ after: anchor, stage }]).map((entry) => entry.name)).toContain('guard');
  });

  it('refuses a host stage before validate or after emit_executing', () => {
    expect(() => composeStages([{ before: 'validate' as 'authorize', stage }])).toThrow(/cannot run before 'validate'/);
    expect(() => composeStages([{ after: 'emit_executing' as 'validate', stage }])).toThrow(/cannot run after 'emit_executing'/);
  });
});
