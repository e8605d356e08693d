/**
 * The page's frames, where web pages live while an env in a worker drives them
 * (src/envs/web/frame/): one set per page, given to every worker that runs envs when it starts.
 * A view that shows the live page puts its panel in with `pageFrames.showIn(element)`.
 */
import { expose, transfer } from 'comlink';
import driver from 'virtual:page-driver';
// The rasteriser goes into a page as text (envs/web/frame/page-picture.ts): its UMD build, unbundled.
import rasteriser from 'modern-screenshot/dist/index.js?raw';
import { FramePages } from '../envs/web/frame/frame-pages.ts';

/** The bundled sites are served under the app's `web/` (public/web/, which the build copies). */
export const pageFrames = new FramePages(driver, new URL('web/', document.baseURI).href, rasteriser);

/** Gives a worker's remote a port to the frames (comlink calls on the frames come back through it). */
export function givePageFrames(worker: { attachPages(port: MessagePort): unknown }): void {
  const channel = new MessageChannel();
  expose(pageFrames, channel.port1);
  void worker.attachPages(transfer(channel.port2, [channel.port2]));
}
