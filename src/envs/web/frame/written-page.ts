/**
 * A page of a folder the person opened, written into a sandboxed frame (`srcdoc`, no
 * `allow-same-origin`): it runs in an opaque origin, so it cannot read the app's storage, and no
 * server of ours serves it (a service worker cannot serve a sandboxed frame either). What it loads
 * from its folder (scripts, style sheets and what they name, images) is written in as `data:` URLs;
 * its links resolve against a made-up origin (its `<base>`), which the driver reads as its site
 * and turns into a request for the host to write the next page. The page driver goes in first,
 * before the page's own scripts, as the Node host's init script does.
 *
 * What this cannot do (README, "Web pages in the app"): a page's `fetch` of its folder's files, a
 * module script's own imports, `location.search` (a page written in has no URL).
 */
import { PageError } from '../host.ts';
import type { FrameConfig } from '../driver/frame-bridge.ts';

/** The origin a written page's URLs resolve against; `.invalid` never resolves, so nothing leaves through it. */
export const WRITTEN_SITE_ORIGIN = 'https://dreamgym-site.invalid';

/** The files of a folder, by their path in it (`pages/a.html`, `shared/lib.js`). */
export type SiteFiles = ReadonlyMap<string, Blob>;

const TYPES: Record<string, string> = {
  js: 'text/javascript', mjs: 'text/javascript', css: 'text/css', html: 'text/html', json: 'application/json', svg: 'image/svg+xml',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', ico: 'image/x-icon', woff2: 'font/woff2', woff: 'font/woff',
};

function typeOf(file: string, blob: Blob): string {
  return blob.type || TYPES[file.split('.').pop()?.toLowerCase() ?? ''] || 'application/octet-stream';
}

/** The folder path a reference from `from` names, or null when it leaves the folder (another origin, `data:`, a fragment). */
export function sitePath(reference: string, from: string): string | null {
  let url: URL;
  try {
    url = new URL(reference, `${WRITTEN_SITE_ORIGIN}/${from}`);
  } catch {
    return null;
  }
  if (url.origin !== WRITTEN_SITE_ORIGIN) return null;
  return decodeURIComponent(url.pathname.replace(/^\/+/, ''));
}

async function dataUrl(blob: Blob, type: string): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}

/** `"name"` or `'name'` as `name`; anything else as it is. */
function unquoted(text: string): string {
  const quote = text[0];
  return (quote === '"' || quote === "'") && text.length >= 2 && text.endsWith(quote) ? text.slice(1, -1) : text;
}

/** A style sheet with its own `url(…)`s (fonts, images, relative to the sheet) written in. */
async function writtenSheet(files: SiteFiles, file: string, css: string): Promise<string> {
  // `url(` to its `)`, the quotes and spaces inside taken off in code: one pattern that allowed
  // spaces on both sides of an unquoted name tried a long run of spaces in quadratic time.
  const references = [...css.matchAll(/url\(([^()]*)\)/g)];
  let out = css;
  for (const match of references) {
    const path = sitePath(unquoted((match[1] as string).trim()), file);
    const blob = path === null ? undefined : files.get(path);
    if (path !== null && blob) out = out.replace(match[0], `url("${await dataUrl(blob, typeOf(path, blob))}")`);
  }
  return out;
}

async function writeIn(files: SiteFiles, element: Element, attribute: string, page: string): Promise<void> {
  const reference = element.getAttribute(attribute);
  const path = reference === null ? null : sitePath(reference, page);
  const blob = path === null ? undefined : files.get(path);
  if (path === null || !blob) return;
  const type = typeOf(path, blob);
  const content = type === 'text/css' ? new Blob([await writtenSheet(files, path, await blob.text())], { type }) : blob;
  element.setAttribute(attribute, await dataUrl(content, type));
}

/**
 * The document to write into the frame for `path` (`pages/a.html`, a query is dropped: the page
 * has no URL to read it from). A page that is not in the folder is the site's mistake (`page-load`).
 */
export async function writtenPage(files: SiteFiles, path: string, driver: string): Promise<string> {
  const file = (path.split(/[?#]/)[0] as string).replace(/^\/+/, '');
  const blob = files.get(file);
  if (!blob) throw new PageError('page-load', `${file} is not in the site's folder`);
  const doc = new DOMParser().parseFromString(await blob.text(), 'text/html');
  const writes: Promise<void>[] = [];
  for (const script of doc.querySelectorAll('script[src]')) writes.push(writeIn(files, script, 'src', file));
  for (const link of doc.querySelectorAll('link[href]')) if (/\b(stylesheet|icon)\b/i.test(link.getAttribute('rel') ?? '')) writes.push(writeIn(files, link, 'href', file));
  for (const media of doc.querySelectorAll('img[src], source[src], audio[src], video[src]')) writes.push(writeIn(files, media, 'src', file));
  await Promise.all(writes);
  for (const style of doc.querySelectorAll('style')) style.textContent = await writtenSheet(files, file, style.textContent ?? '');
  for (const old of doc.querySelectorAll('base')) old.remove();
  const base = doc.createElement('base');
  base.setAttribute('href', `${WRITTEN_SITE_ORIGIN}/${file}`);
  const config: FrameConfig = { mode: 'srcdoc', path: file, siteOrigin: WRITTEN_SITE_ORIGIN };
  const script = doc.createElement('script');
  // `</script` inside the driver would end the element early; `<\/script` means the same in JavaScript.
  script.textContent = `window.__dreamgymFrame = ${JSON.stringify(config)};\n${driver.replace(/<\/(script)/gi, '<\\/$1')}`;
  doc.head.prepend(base, script);
  return `<!doctype html>\n${doc.documentElement.outerHTML}`;
}
