/**
 * Unit test files that replace a module with `vi.mock`: they run in the `unit-mocking` project,
 * each with a module graph of its own, because the `unit` project shares one graph between the
 * files of a worker (vitest.config.ts), where a mocked module could reach another file or come
 * too late. tests/unit/docs/mocking-files.test.ts checks this list against the files.
 */
export const MOCKING_FILES: readonly string[] = [
  'tests/unit/app/evaluate-task.test.ts',
  'tests/unit/app/experience-step-wait.test.ts',
  'tests/unit/cli-full-disk.test.ts',
  'tests/unit/docs/cli-reference.test.ts',
];
