import { parseState, type AbstractState } from '../../core/state.ts';

/**
 * An observation in the abstract state format, shown as a list (or, when a model's answer does not
 * parse, its raw text). Every string here came from an environment or a model, so it is rendered as
 * text (JSX escapes it), never as HTML.
 */
export function StateView({ text, label = 'Current state', testId }: { text: string; label?: string; testId?: string }) {
  let state: AbstractState;
  try {
    state = parseState(text);
  } catch {
    return <pre class="state raw" aria-label={label} data-testid={testId}>{text}</pre>;
  }
  return (
    <section class="state" aria-label={label} data-testid={testId}>
      <dl class="state-header">
        {state.header
          .filter(([key]) => key !== 'instruction' && key !== 'task')
          .map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <ol class="state-elements">
        {state.elements.map((element, i) => (
          <li key={i} class={`element kind-${element.kind.replace(/[^a-z-]/g, '')}`}>
            <span class="kind">{element.kind}</span>
            <span class="text">{element.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
