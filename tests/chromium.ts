/** The tests launch the system Chromium the product's web env uses (src/platform/chromium.ts). */
export { CHROMIUM_ARGS, chromiumPath } from '../src/platform/chromium.ts';
