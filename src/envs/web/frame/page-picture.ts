/**
 * A page's picture in the app, where pages live in frames (the Node host asks Chromium for a
 * screenshot instead). A frame without `allow-same-origin` (a folder a person opened) cannot be
 * reached from the app's page, so the picture is taken inside the page: the rasteriser's source
 * (modern-screenshot's UMD build, which draws a DOM node through an SVG `foreignObject` onto a
 * canvas) goes in as the text of a call, as every driver call does, and the page answers with a PNG
 * `data:` URL. The same call serves a bundled page, so both kinds of frame are pictured one way.
 */

import { isPng, PICTURED_AREA } from '../picture.ts';

/** A picture larger than this is refused (a 1024 × 768 page is tens of kilobytes). */
export const MAX_PICTURE_BYTES = 8 * 1024 * 1024;

/** How long the rasteriser waits for one of the page's images or style sheets before it draws without it. */
const ASSET_TIMEOUT_MS = 2_000;

/**
 * The expression that pictures the page (its viewport, down to its lowest element: PICTURED_AREA),
 * given the rasteriser's UMD source. The source
 * runs in a function of its own with its own `exports` (a page that defines AMD's `define` or
 * CommonJS's `module` does not capture it, and nothing is left on the page's globals). The
 * library's own frame for reading default styles is replaced by none: a frame made inside an
 * opaque-origin frame is another opaque origin that the page cannot read, and without it the
 * library copies every computed style, which draws the same.
 */
export function pictureExpression(rasteriser: string): string {
  return `(async () => {
    const exports = {}; const module = { exports }; const define = undefined;
    (function () { ${rasteriser}\n }).call(globalThis);
    const area = ${PICTURED_AREA};
    const context = await exports.createContext(document.documentElement, {
      width: area.width, height: area.height, type: 'image/png', backgroundColor: '#ffffff', font: false, timeout: ${ASSET_TIMEOUT_MS},
    });
    context.sandbox = { contentWindow: null, remove() {} };
    try { return await exports.domToDataUrl(context); } finally { exports.destroyContext(context); }
  })()`;
}

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * The PNG bytes of the page's answer. The page is not trusted: only a base64 PNG `data:` URL of at
 * most MAX_PICTURE_BYTES is taken, and its bytes must start as a PNG does.
 */
export function pictureBytes(answer: unknown): Uint8Array {
  if (typeof answer !== 'string') throw new Error(`the page answered ${typeof answer}, not a picture`);
  if (answer.length > (MAX_PICTURE_BYTES * 4) / 3 + 32) throw new Error(`the picture is larger than ${MAX_PICTURE_BYTES / 1024 / 1024} MiB`);
  const base64 = PNG_DATA_URL.exec(answer)?.[1];
  if (base64 === undefined) throw new Error('the page answered something other than a PNG data URL');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  if (!isPng(bytes)) throw new Error('the page answered bytes that are not a PNG');
  return bytes;
}
