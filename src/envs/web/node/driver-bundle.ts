/**
 * The page driver (driver/index.ts and dom-accessibility-api) as one classic script, bundled by
 * esbuild: the Node host injects it into every page, and the app's build imports the same bundle
 * (vite.config.ts's `virtual:page-driver`), so both hosts run one driver.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const PAGE_DRIVER_ENTRY = fileURLToPath(new URL('../driver/index.ts', import.meta.url));

let driverScript: Promise<string> | null = null;

/** The bundled driver, built once per process. */
export function pageDriverScript(): Promise<string> {
  driverScript ??= bundlePageDriver();
  return driverScript;
}

/** Bundles the driver now (the app's dev server rebuilds it when the driver changes). */
export function bundlePageDriver(entry = PAGE_DRIVER_ENTRY): Promise<string> {
  return build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome110',
    minify: true,
    write: false,
    logLevel: 'silent',
  }).then((result) => (result.outputFiles[0] as { text: string }).text);
}
