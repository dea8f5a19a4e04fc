import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Type-checks a user's file with given compiler settings; the file sits inside this package, so
// `@milpa/core` resolves to its sources (the `@milpa/source` condition) as it does in the tests.
// It lives here, not in core, because core's tests import nothing from node:* or typescript.
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
let directory: string;

const USAGE = `import { tool } from '@milpa/core';
export class NoteTools {
  @tool({ description: 'List saved notes' })
  listNotes() {
    return [];
  }
}
`;

function diagnosticsFor(options: ts.CompilerOptions, extra = ''): string[] {
  const file = join(directory, `usage-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, `${USAGE}${extra}`);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['@milpa/source'],
    types: [],
    ...options,
  });
  // Only the user's file is checked (core's own sources are type-checked by its package).
  const source = program.getSourceFile(file);
  return [...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('tool (build-time check)', () => {
  beforeAll(() => {
    directory = mkdtempSync(join(packageRoot, '.decorator-check-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('refuses @tool with the setting to change when target is esnext (the tsc --init default)', () => {
    const messages = diagnosticsFor({ target: ts.ScriptTarget.ESNext });
    expect(messages.join('\n')).toContain('Node cannot run them. Set \\"target\\" to \\"es2022\\"');
  });

  it('accepts @tool when target is es2022, where TypeScript compiles the decorator', () => {
    expect(diagnosticsFor({ target: ts.ScriptTarget.ES2022 })).toEqual([]);
  });

  it('accepts @tool when the project declares its decorators compiled', () => {
    const declaration = "declare module '@milpa/core' {\n  interface ToolDecoratorCompilation {\n    decorators: 'compiled';\n  }\n}\n";
    expect(diagnosticsFor({ target: ts.ScriptTarget.ES2022, lib: ['lib.esnext.d.ts'] }, declaration)).toEqual([]);
  });
});
