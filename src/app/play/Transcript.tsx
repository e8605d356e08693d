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
            {' → '}reward {result.reward.toFixed(2)}{result.info.valid ? '' : ' (invalid)'}
            {result.done ? (result.info.won ? ' · won' : ' · done') : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}
