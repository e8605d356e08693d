import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import viteConfig from './vite.config.ts';
import { CHROMIUM_ARGS, chromiumPath } from './tests/chromium.ts';
import { cliRolloutPolicy } from './tests/browser/cli-command.ts';
import { LongestFirstSequencer } from './tests/sequencer.ts';
import { MOCKING_FILES } from './tests/mocking-files.ts';

// Workers for the Node projects (unit and e2e share one pool): vitest's default is one less than the
// cores, which on a 2-core machine is one, so everything in Node ran in a single queue beside the
// browser project's while a core sat idle once the browser project was done. One more than the
// cores: a clean-clone CI run with two used 17.2 min of CPU in 21.6 min on 2 cores (40%), its
// files waiting on pages, processes and polls much of the time. The files run in separate processes
// and write only to their own temp folders, so side by side is safe.
const CORES = availableParallelism();

const NODE_WORKERS = Math.max(3, CORES + 1);

// Three suites, one command (`npm test`): unit tests in Node, browser tests in the system Chromium
// (real WebGPU through SwiftShader, real IndexedDB, real workers), and end-to-end tests that build
// the app, serve it and drive it with Playwright.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      maxWorkers: NODE_WORKERS,
      // Longest files first (tests/sequencer.ts), so no long file starts last with a worker idle.
      sequence: { sequencer: LongestFirstSequencer },
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            include: ['tests/unit/**/*.test.ts'],
            exclude: [...MOCKING_FILES],
            environment: 'node',
            testTimeout: 60_000,
            // The files of a worker share one module graph rather than each loading its own: loading
            // tfjs and the CLI again for each of 120 files cost about 170 s of the suite's 520 on 2
            // cores. What one file leaves behind that another could trip on is module state the
            // code keeps on purpose (registries, caches, counters): tests restore what they change.
            isolate: false,
          },
        },
        {
          extends: true,
          // Files that replace a module (vi.mock) need a module graph of their own.
          test: { name: 'unit-mocking', include: [...MOCKING_FILES], environment: 'node', testTimeout: 60_000 },
        },
        {
          extends: true,
          test: {
            name: 'browser',
            include: ['tests/browser/**/*.test.ts'],
            testTimeout: 60_000,
            browser: {
              enabled: true,
              headless: true,
              screenshotFailures: false,
              // One test file at a time in Chromium on a small machine (as vitest's default did on 2
              // cores): its WebGPU is SwiftShader, which takes every core it is given.
              fileParallelism: CORES > 2,
              provider: playwright({ launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS } }),
              instances: [{ browser: 'chromium' }],
              commands: { cliRolloutPolicy },
            },
          },
        },
        {
          extends: true,
          test: {
            name: 'e2e',
            include: ['tests/e2e/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['tests/e2e/serve-built-app.ts'],
            testTimeout: 120_000,
            hookTimeout: 300_000,
          },
        },
      ],
    },
  }),
);
