// The order in which scripts/test.mjs runs the test command's tasks, kept free of I/O so
// scripts/task-schedule.test.mjs can test it. turbo's dry run gives the tasks and what each needs
// first; the test command then runs them itself, three at a time, always starting the ready task with
// the longest expected path to the end of the run (its own expected time plus the longest chain of
// tasks waiting on it), so the slow test suites and the build chain the last tests wait for start
// early and the run does not end with one core idle behind a long task started late.

/**
 * A task to run: turbo's id (`@milpa/core#test`, `//#lint`, or `release#<step>` for the checks of the
 * built packages), its package and kind, the directory and shell command it runs in, and the ids it waits for.
 * @typedef {{ id: string, package: string, task: string, directory: string, command: string, dependencies: string[] }} Task
 */

/**
 * The tasks of turbo's dry run (`turbo run … --dry=json`), without those a package does not define.
 * @param {any} dryRun the parsed JSON
 * @returns {Task[]}
 */
export function tasksOfDryRun(dryRun) {
  const tasks = (dryRun.tasks ?? []).filter((task) => task.command !== '<NONEXISTENT>');
  const defined = new Set(tasks.map((task) => task.taskId));
  return tasks.map((task) => ({
    id: task.taskId,
    package: task.package,
    task: task.task,
    directory: task.directory ?? '',
    command: task.command,
    dependencies: (task.dependencies ?? []).filter((id) => defined.has(id)),
  }));
}

/** What a task is expected to take when no earlier run on this machine says (ms); only the order matters. */
export const GUESS_MS = { lint: 5_000, typecheck: 15_000, build: 10_000, release: 20_000 };

/**
 * The expected duration of each task: the last complete run's time for it when there is one,
 * otherwise a guess from its kind (a test suite from its number of test files, a browser test file
 * counting ten).
 * @param {Task[]} tasks
 * @param {Record<string, number>} lastRun milliseconds by task id, from the last complete run
 * @param {(task: Task) => { files: number, browserFiles: number }} countTestFiles
 * @returns {Map<string, number>}
 */
export function expectedDurations(tasks, lastRun, countTestFiles) {
  const expected = new Map();
  for (const task of tasks) {
    const known = lastRun[task.id];
    if (typeof known === 'number' && Number.isFinite(known) && known >= 0) {
      expected.set(task.id, known);
    } else if (task.task === 'test') {
      const { files, browserFiles } = countTestFiles(task);
      expected.set(task.id, 1_000 * (files + 9 * browserFiles));
    } else {
      expected.set(task.id, GUESS_MS[task.task] ?? GUESS_MS.release);
    }
  }
  return expected;
}

/**
 * Each task's priority: its expected time plus the longest priority among the tasks waiting for it
 * (the critical path from its start to the end of the run).
 * @param {Task[]} tasks
 * @param {Map<string, number>} expected
 * @returns {Map<string, number>}
 */
export function criticalPaths(tasks, expected) {
  const dependents = new Map(tasks.map((task) => [task.id, []]));
  for (const task of tasks) for (const id of task.dependencies) dependents.get(id)?.push(task.id);
  const priority = new Map();
  const visiting = new Set();
  const visit = (id) => {
    if (priority.has(id)) return priority.get(id);
    if (visiting.has(id)) throw new Error(`the tasks wait for each other in a cycle through ${id}`);
    visiting.add(id);
    const after = Math.max(0, ...dependents.get(id).map(visit));
    visiting.delete(id);
    priority.set(id, (expected.get(id) ?? 0) + after);
    return priority.get(id);
  };
  for (const task of tasks) visit(task.id);
  return priority;
}

/**
 * Which task to start next: among those not started whose dependencies all passed, the one with the
 * highest priority (ties by id, so runs are repeatable); null when none is ready.
 * @param {Task[]} pending tasks not started yet
 * @param {Map<string, 'passed' | 'failed'>} finished
 * @param {Map<string, number>} priority
 * @returns {Task | null}
 */
export function nextTask(pending, finished, priority) {
  let best = null;
  for (const task of pending) {
    if (!task.dependencies.every((id) => finished.get(id) === 'passed')) continue;
    if (
      best === null ||
      priority.get(task.id) > priority.get(best.id) ||
      (priority.get(task.id) === priority.get(best.id) && task.id < best.id)
    ) {
      best = task;
    }
  }
  return best;
}

/**
 * The tasks that can never start because a task they wait for (directly or not) failed or cannot start.
 * @param {Task[]} pending
 * @param {Map<string, 'passed' | 'failed'>} finished
 * @returns {Task[]}
 */
export function blockedTasks(pending, finished) {
  const blocked = new Set();
  let grew = true;
  while (grew) {
    grew = false;
    for (const task of pending) {
      if (blocked.has(task.id)) continue;
      if (task.dependencies.some((id) => finished.get(id) === 'failed' || blocked.has(id))) {
        blocked.add(task.id);
        grew = true;
      }
    }
  }
  return pending.filter((task) => blocked.has(task.id));
}
