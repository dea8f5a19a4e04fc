import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The demo workspace's files: a small farm project the built-in tools search, read and describe. */
export const DEMO_WORKSPACE_FILES: Readonly<Record<string, string>> = Object.freeze({
  'package.json': `${JSON.stringify(
    {
      name: 'milpa-farm',
      version: '1.0.0',
      type: 'module',
      scripts: { start: 'node src/server.js' },
      dependencies: { express: '^4.21.0' },
    },
    null,
    2,
  )}\n`,
  'README.md': '# Milpa farm\n\nA field journal and the small server that waters the three sisters.\n',
  'src/irrigation.ts': [
    '// How much water each crop gets, in litres per square metre and day.',
    'export const WATER_PER_DAY = { maize: 5, beans: 3, squash: 4 };',
    '',
    'export function waterNeeded(crop: keyof typeof WATER_PER_DAY, area: number): number {',
    '  return WATER_PER_DAY[crop] * area;',
    '}',
    '',
  ].join('\n'),
  'src/server.ts': [
    "import express from 'express';",
    "import { waterNeeded } from './irrigation.js';",
    '',
    'const app = express();',
    "app.get('/water/:crop', (request, response) => response.json({ litres: waterNeeded(request.params.crop as 'maize', 10) }));",
    'app.listen(3000);',
    '',
  ].join('\n'),
  'notes/field-log.md': [
    '# Field log',
    '',
    ...Array.from(
      { length: 12 },
      (_, index) =>
        `- Day ${index + 1}: ${
          index % 3 === 0
            ? 'water the maize rows at dawn'
            : index % 3 === 1
              ? 'check the beans climb the maize'
              : 'mulch under the squash leaves'
        }.`,
    ),
    '',
  ].join('\n'),
  '.env': 'MAIL_API_KEY=demo-key-never-shown\n',
});

let root: string | null = null;

/**
 * The folder of the demo workspace: {@link DEMO_WORKSPACE_FILES} written once per process into a
 * new folder under the OS temp folder, removed when the process exits.
 *
 * @example
 * builtinTools({ workspaceRoot: demoWorkspaceRoot() });
 */
export function demoWorkspaceRoot(): string {
  if (root !== null) return root;
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'milpa-demo-workspace-')));
  for (const [path, content] of Object.entries(DEMO_WORKSPACE_FILES)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  root = folder;
  return folder;
}
