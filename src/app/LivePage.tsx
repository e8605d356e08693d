import { useEffect, useRef } from 'preact/hooks';
import { pageFrames } from './page-frames.ts';

interface Props {
  /** Heading id, so each view's landmarks stay distinct. */
  titleId: string;
  title: string;
  /** What the person reads about the page(s) below. */
  hint: string;
  /** A person acts on the page (Play); elsewhere the frames only show what the agent does. */
  interactive?: boolean;
  /** Several pages side by side (training plays many episodes at once). */
  grid?: boolean;
  /** Hears when the panel is on screen and when it goes. */
  onShown?: (shown: boolean) => void;
}

/**
 * The live page(s) of a web env: the frames a worker's env opens while this panel is on screen go
 * here (src/envs/web/frame/), each the page's own document, never markup of the app's.
 */
export function LivePage({ titleId, title, hint, interactive = false, grid = false, onShown }: Props) {
  const stage = useRef<HTMLDivElement>(null);
  useEffect(() => {
    pageFrames.showIn(stage.current);
    onShown?.(true);
    return () => {
      pageFrames.showIn(null);
      onShown?.(false);
    };
  }, []);
  return (
    <section class="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p class="muted small">{hint}</p>
      {/* The frames are put here by the page host, outside Preact's children. */}
      <div class={`live-pages${interactive ? '' : ' watch'}${grid ? ' grid' : ''}`} ref={stage} data-testid="live-pages" />
    </section>
  );
}
