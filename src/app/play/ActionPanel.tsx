import { useState } from 'preact/hooks';
import { SEARCH_TEMPLATE, isTemplate, searchAction } from '../../core/actions.ts';
import { actionTitles } from './action-titles.ts';

interface Props {
  actions: string[];
  /** The state the actions act on: a click on a product code shows the product's title from it. */
  stateText?: string;
  syntax: 'web' | 'household' | 'page';
  disabled: boolean;
  onAct: (action: string) => void;
}

/** The admissible actions as buttons, a search box where the page has one, and a free command line. */
export function ActionPanel({ actions, stateText, syntax, disabled, onAct }: Props) {
  const [query, setQuery] = useState('');
  const [command, setCommand] = useState('');
  const searchable = actions.includes(SEARCH_TEMPLATE);
  const buttons = actions.filter((a) => a !== SEARCH_TEMPLATE);
  const titles = stateText === undefined ? new Map<string, string>() : actionTitles(stateText, buttons);
  return (
    <section class="actions" aria-label="Actions">
      {searchable && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (query.trim()) onAct(searchAction(query.trim()));
          }}
        >
          <label for="search-query">Search the store</label>
          <input id="search-query" type="search" value={query} placeholder="e.g. non-slip running shoes" disabled={disabled}
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
          <button type="submit" disabled={disabled || !query.trim()}>Search</button>
        </form>
      )}
      <div class="action-buttons" role="group" aria-label="Admissible actions">
        {buttons.map((action) => (
          // A template (`type[#9 Email | ...]`) goes to the command line, to be filled in.
          <button key={action} type="button" class="action" disabled={disabled} onClick={() => (isTemplate(action) ? setCommand(action) : onAct(action))}>
            {action}
            {titles.has(action) && <span class="action-title" data-testid="action-title"> {titles.get(action)}</span>}
          </button>
        ))}
      </div>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (command.trim()) onAct(command);
          setCommand('');
        }}
      >
        <label for="free-command">Type any action</label>
        <input id="free-command" type="text" value={command} placeholder={syntax === 'web' ? 'search[...] or click[...]' : syntax === 'page' ? 'click[#17] or type[#9 | text]' : 'go to countertop 1'}
          disabled={disabled} onInput={(e) => setCommand((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={disabled || !command.trim()}>Send</button>
      </form>
    </section>
  );
}
