/**
 * What both page hosts share about a page's picture (a trace's screenshot): the part of the
 * viewport it keeps, and how its bytes are told to be a PNG.
 */

/** A picture keeps at least this much of the viewport's height (CSS pixels). */
const MIN_PICTURED_HEIGHT = 120;

/**
 * An expression, run in the page, for the picture's area: the viewport's width and the height down
 * to the lowest element shown (with a margin), within the viewport, and where the viewport is
 * scrolled to. A task's page is often a few lines at the top of a tall viewport, and a picture of
 * the whole viewport would show them small in a strip of white. It only reads the page.
 */
export const PICTURED_AREA = `(() => {
  let bottom = 0;
  for (const element of document.body ? document.body.querySelectorAll('*') : []) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.height > 0 && box.bottom > bottom) bottom = box.bottom;
  }
  const height = Math.min(innerHeight, Math.max(${MIN_PICTURED_HEIGHT}, Math.ceil(bottom) + 16));
  return { x: scrollX, y: scrollY, width: innerWidth, height };
})()`;

/** The area PICTURED_AREA answers, in CSS pixels. */
export interface PicturedArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether an answer from a page is an area (a page may have changed what its globals answer). */
export function isPicturedArea(value: unknown): value is PicturedArea {
  if (typeof value !== 'object' || value === null) return false;
  const area = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((k) => typeof area[k] === 'number' && Number.isFinite(area[k])) && (area.width as number) > 0 && (area.height as number) > 0;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Whether `bytes` start as a PNG does. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}
