import { useEffect, useRef } from 'preact/hooks';
import { pageFrames } from '../page-frames.ts';
import { playShown } from './play-store.ts';

/**
 * The live page of a web episode, beside the state the agent reads: the env's frame opens in this
 * panel while it is on screen. A click on the page is played as the action it means (the page
 * only reacts to the env's step); text typed into a field is played when the field changes or on
 * Enter. The frame is the page's own document, never markup of the app's.
 */
export function LivePage() {
  const stage = useRef<HTMLDivElement>(null);
  useEffect(() => {
    pageFrames.showIn(stage.current);
    playShown.value = true;
    return () => {
      pageFrames.showIn(null);
      playShown.value = false;
    };
  }, []);
  return (
    <section class="panel" aria-labelledby="live-page-title">
      <h2 id="live-page-title">The live page</h2>
      <p class="muted small">
        Act on the page itself or choose an action beside the state: a click on a control is played as the agent's action,
        and what you type into a field is played when you press Enter or leave the field.
      </p>
      {/* The frames are put here by the page host, outside Preact's children. */}
      <div class="live-pages" ref={stage} data-testid="live-pages" />
    </section>
  );
}
