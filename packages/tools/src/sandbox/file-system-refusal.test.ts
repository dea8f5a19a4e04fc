import { describe, expect, it } from 'vitest';
import { ToolError } from '../lifecycle/tool-error.js';
import { fileSystemRefusal, shownPath } from './file-system-refusal.js';

describe('fileSystemRefusal', () => {
  it.each([
    ['ENAMETOOLONG', 'PATH_TOO_LONG'],
    ['ENOENT', 'NOT_FOUND'],
    ['EACCES', 'PERMISSION_DENIED'],
    ['ELOOP', 'PATH_OUTSIDE_WORKSPACE'],
    ['EIO', 'FILE_SYSTEM_ERROR'],
  ])('answers %s with %s and only the workspace-relative path', (errno, code) => {
    const error = Object.assign(new Error(`${errno}: failed, open '/home/host/secret/place/src/a.ts'`), { code: errno });
    const refusal = fileSystemRefusal(error, 'src/a.ts');
    expect(refusal).toBeInstanceOf(ToolError);
    expect(refusal.code).toBe(code);
    expect(refusal.message).toContain("'src/a.ts'");
    expect(refusal.message).not.toContain('/home/host');
  });

  it('returns a ToolError as it is', () => {
    const error = new ToolError('SENSITIVE_PATH', 'no');
    expect(fileSystemRefusal(error, 'x')).toBe(error);
  });

  it('answers an error without a code with FILE_SYSTEM_ERROR', () => {
    expect(fileSystemRefusal(new Error('/home/host/x'), 'x').message).not.toContain('/home/host');
  });
});

describe('shownPath', () => {
  it('cuts a path over 200 characters', () => {
    expect(shownPath('a'.repeat(300))).toBe(`${'a'.repeat(200)}…`);
    expect(shownPath('src/a.ts')).toBe('src/a.ts');
  });
});
