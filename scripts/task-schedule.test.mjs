// Tests of task-schedule.mjs: which of the test command's tasks starts next.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockedTasks, criticalPaths, expectedDurations, nextTask, tasksOfDryRun } from './task-schedule.mjs';

const task = (id, dependencies = []) => {
  const [pkg, kind] = id.split('#');
  return { id, package: pkg, task: kind, directory: `packages/${pkg}`, command: 'x', dependencies };
};

describe('tasksOfDryRun', () => {
  it('keeps the tasks packages define, with their directory, command and dependencies', () => {
    const dryRun = {
      tasks: [
        { taskId: 'a#build', package: 'a', task: 'build', directory: 'packages/a', command: 'tsup', dependencies: [] },
        { taskId: 'b#build', package: 'b', task: 'build', directory: 'packages/b', command: 'tsup', dependencies: ['a#build', 'c#build'] },
        { taskId: 'c#build', package: 'c', task: 'build', directory: 'packages/c', command: '<NONEXISTENT>', dependencies: [] },
      ],
    };
    assert.deepEqual(tasksOfDryRun(dryRun), [
      { id: 'a#build', package: 'a', task: 'build', directory: 'packages/a', command: 'tsup', dependencies: [] },
      { id: 'b#build', package: 'b', task: 'build', directory: 'packages/b', command: 'tsup', dependencies: ['a#build'] },
    ]);
  });
});

describe('expectedDurations', () => {
  it("takes the last run's time, else guesses a test suite from its files (a browser file counts ten)", () => {
    const tasks = [task('a#test'), task('b#test'), task('a#build'), task('release#check')];
    const expected = expectedDurations(tasks, { 'a#test': 4_000 }, () => ({ files: 3, browserFiles: 1 }));
    assert.deepEqual(Object.fromEntries(expected), { 'a#test': 4_000, 'b#test': 12_000, 'a#build': 10_000, 'release#check': 20_000 });
  });

  it('ignores a recorded time that is not a finite non-negative number', () => {
    const expected = expectedDurations([task('a#build')], { 'a#build': -1 }, () => ({ files: 0, browserFiles: 0 }));
    assert.equal(expected.get('a#build'), 10_000);
  });
});

describe('criticalPaths and nextTask', () => {
  // core#build → mcp#build → mcp#test (60 s) is longer than tools#test (40 s), which beats a 5 s lint.
  const tasks = [
    task('core#build'),
    task('mcp#build', ['core#build']),
    task('mcp#test', ['mcp#build']),
    task('tools#test'),
    task('root#lint'),
  ];
  const expected = new Map([
    ['core#build', 10_000],
    ['mcp#build', 10_000],
    ['mcp#test', 60_000],
    ['tools#test', 40_000],
    ['root#lint', 5_000],
  ]);

  it('adds the longest chain waiting on a task to its own time', () => {
    assert.deepEqual(Object.fromEntries(criticalPaths(tasks, expected)), {
      'core#build': 80_000,
      'mcp#build': 70_000,
      'mcp#test': 60_000,
      'tools#test': 40_000,
      'root#lint': 5_000,
    });
  });

  it('starts the ready task with the longest path first, and a task only after what it needs passed', () => {
    const priority = criticalPaths(tasks, expected);
    const finished = new Map();
    assert.equal(nextTask(tasks, finished, priority)?.id, 'core#build');
    const pending = tasks.filter((candidate) => candidate.id !== 'core#build');
    assert.equal(nextTask(pending, finished, priority)?.id, 'tools#test');
    finished.set('core#build', 'passed');
    assert.equal(nextTask(pending, finished, priority)?.id, 'mcp#build');
    assert.equal(nextTask([task('mcp#test', ['mcp#build'])], finished, priority), null);
  });

  it('breaks ties by id, so runs are repeatable', () => {
    const twins = [task('b#lint'), task('a#lint')];
    const priority = new Map([
      ['a#lint', 1],
      ['b#lint', 1],
    ]);
    assert.equal(nextTask(twins, new Map(), priority)?.id, 'a#lint');
  });

  it('refuses tasks that wait for each other', () => {
    assert.throws(() => criticalPaths([task('a#build', ['b#build']), task('b#build', ['a#build'])], new Map()), /cycle/);
  });
});

describe('blockedTasks', () => {
  it('names every task behind a failed one, directly or not, and nothing else', () => {
    const pending = [task('mcp#build', ['core#build']), task('mcp#test', ['mcp#build']), task('tools#test')];
    const blocked = blockedTasks(pending, new Map([['core#build', 'failed']]));
    assert.deepEqual(
      blocked.map((candidate) => candidate.id),
      ['mcp#build', 'mcp#test'],
    );
    assert.deepEqual(blockedTasks(pending, new Map([['core#build', 'passed']])), []);
  });
});
