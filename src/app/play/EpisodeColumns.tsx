import type { ComponentChildren } from 'preact';
import { StateView } from './StateView.tsx';

interface Props {
  /** Prefix of the two headings' ids, so each view's landmarks stay distinct. */
  idPrefix: string;
  stateTitle: string;
  /** The abstract state, rendered as text (never HTML). */
  text: string;
  actTitle: string;
  /** What acts on the state: the action panel, or the policy's choice. */
  children: ComponentChildren;
}

/** The two columns every episode view shows: the state an agent sees, and what acts on it. */
export function EpisodeColumns({ idPrefix, stateTitle, text, actTitle, children }: Props) {
  return (
    <div class="columns">
      <section class="panel" aria-labelledby={`${idPrefix}-state-title`}>
        <h2 id={`${idPrefix}-state-title`}>{stateTitle}</h2>
        <StateView text={text} />
      </section>
      <section class="panel" aria-labelledby={`${idPrefix}-act-title`}>
        <h2 id={`${idPrefix}-act-title`}>{actTitle}</h2>
        {children}
      </section>
    </div>
  );
}
