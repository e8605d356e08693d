import { parseState, type AbstractState } from '../../core/state.ts';
import { stateMarks, type StateMarks } from './state-diff.ts';

/** The mark beside a line that differs from the other state (with words for a screen reader). */
function DiffMark() {
  return <span class="diff-mark" title="differs from the other state"><span aria-hidden="true">≠</span><span class="visually-hidden">differs:</span></span>;
}

/**
 * An observation in the abstract state format, shown as a list (or, when a model's answer does not
 * parse, its raw text). Every string here came from an environment or a model, so it is rendered as
 * text (JSX escapes it), never as HTML. With `compareWith` (the other state of a comparison), the
 * lines that differ from it are marked, wherever they are.
 */
export function StateView({ text, label = 'Current state', testId, compareWith }: { text: string; label?: string; testId?: string; compareWith?: string }) {
  const marks: StateMarks | null = compareWith === undefined ? null : stateMarks(text, compareWith);
  let state: AbstractState;
  try {
    state = parseState(text);
  } catch {
    if (!marks?.raw) return <pre class="state raw" aria-label={label} data-testid={testId}>{text}</pre>;
    return (
      <pre class="state raw" aria-label={label} data-testid={testId}>
        {text.split(/\r?\n/).map((line, i) => (
          <span key={i} class={marks.raw?.[i] ? 'differs' : undefined}>{marks.raw?.[i] && <DiffMark />}{line}{'\n'}</span>
        ))}
      </pre>
    );
  }
  return (
    <section class="state" aria-label={label} data-testid={testId}>
      <dl class="state-header">
        {state.header
          .map(([key, value], i) => [key, value, marks?.header[i] ?? false] as const)
          .filter(([key]) => key !== 'instruction' && key !== 'task')
          .map(([key, value, differs]) => (
            <div key={key} class={differs ? 'differs' : undefined}>
              <dt>{differs && <DiffMark />}{key}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <ol class="state-elements">
        {state.elements.map((element, i) => {
          const differs = marks?.elements[i] ?? false;
          return (
            <li key={i} class={`element kind-${element.kind.replace(/[^a-z-]/g, '')}${differs ? ' differs' : ''}`}>
              {differs && <DiffMark />}
              <span class="kind">{element.kind}</span>
              <span class="text">{element.text}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
