import { defineConfig, mergeConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import viteConfig from './vite.config.ts';
import { CHROMIUM_ARGS, chromiumPath } from './tests/chromium.ts';
import { cliRolloutPolicy } from './tests/browser/cli-command.ts';

// Three suites, one command (`npm test`): unit tests in Node, browser tests in the system Chromium
// (real WebGPU through SwiftShader, real IndexedDB, real workers), and end-to-end tests that build
// the app, serve it and drive it with Playwright.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
          test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
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
