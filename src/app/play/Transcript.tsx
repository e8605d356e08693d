import type { PlayedStep } from '../../services/env-session.ts';

export interface TranscriptEntry extends PlayedStep {
  /** Who chose the action, where more than one may (a person or the oracle). */
  actor?: string;
}

/** Every step of the episode so far, in order; nothing before the first step. */
export function Transcript({ entries, titleId }: { entries: readonly TranscriptEntry[]; titleId: string }) {
  if (entries.length === 0) return null;
  return (
    <section class="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Transcript</h2>
      <ol class="transcript">
        {entries.map(({ actor, action, result }, i) => (
          <li key={i} class={result.info.valid ? '' : 'invalid'}>
            {actor && <><span class="muted">{actor}</span>{' '}</>}<code>{action}</code>
            {' → '}reward {result.reward.toFixed(2)}
            {/* The env's own words for why (malformed, not on this page, does not apply here), so a person knows what to change. */}
            {result.info.valid ? '' : <> (invalid{result.info.explanation ? <>: <span class="why">{result.info.explanation}</span></> : ''})</>}
            {result.done ? (result.info.won ? ' · won' : ' · done') : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}
