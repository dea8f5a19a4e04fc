import { describe, expect, it } from 'vitest';
import { findPathPattern, matchesPathPattern, pathSegments } from './path-pattern.js';

describe('matchesPathPattern', () => {
  it.each([
    ['prod.env', '*.env'],
    ['config/PROD.ENV', '*.env'],
    ['.vscode/tasks.json', '.vscode/tasks.json'],
    ['web/.vscode/tasks.json', '.vscode/tasks.json'],
    ['infra/terraform.tfstate.backup', 'terraform.tfstate*'],
    ['package.json', '/package.json'],
    ['a.b', 'a.b'],
  ])('matches %s with %s', (path, pattern) => {
    expect(matchesPathPattern(path, pattern)).toBe(true);
  });

  it.each([
    ['web/package.json', '/package.json'],
    ['env', '*.env'],
    ['a/b.env/c', '*.env'],
    ['tasks.json', '.vscode/tasks.json'],
    ['.vscode/tasks.json.bak', '.vscode/tasks.json'],
    ['axb', 'a.b'],
    ['.', '*'],
    ['anything', ''],
  ])('does not match %s with %s', (path, pattern) => {
    expect(matchesPathPattern(path, pattern)).toBe(false);
  });
});

describe('findPathPattern', () => {
  it('returns the first pattern that matches, or undefined', () => {
    expect(findPathPattern('a/Makefile', ['*.mk', 'makefile'])).toBe('makefile');
    expect(findPathPattern('a/readme.md', ['*.mk', 'makefile'])).toBeUndefined();
  });
});

describe('pathSegments', () => {
  it('drops empty and dot segments', () => {
    expect(pathSegments('./a//b/./c')).toEqual(['a', 'b', 'c']);
  });
});
