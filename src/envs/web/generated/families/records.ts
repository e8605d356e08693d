/**
 * Master–detail records with edit and save: a list of the domain's records, each with a page of
 * its fields, an Edit form and Save. The goal changes one to three fields of one or two records;
 * every save is checked: a change the goal does not ask for loses, the last asked-for change wins
 * (public/web/generated/families/records.js).
 */
import type { FieldSpec } from '../vocabulary.ts';
import { act, choose, click, fill, Page, rowAction, setFlag } from '../oracle-tools.ts';
import { recordKeys, type Family } from '../model.ts';

export type RecordValue = string | boolean;
export interface RecordsWorld {
  noun: string;
  fields: FieldSpec[];
  records: { key: string; values: Record<string, RecordValue> }[];
  /** A record opens by its "View" button, or by a link on its key. */
  opener: 'button' | 'link';
}
export interface RecordsGoal {
  changes: { key: string; values: Record<string, RecordValue> }[];
}

/** How a record's page shows a value ("Yes" for a ticked flag). */
export function shownValue(value: RecordValue): string {
  return value === true ? 'Yes' : value === false ? 'No' : value;
}

function drawValue(rng: import('../../../../core/rng.ts').Rng, field: FieldSpec, not?: RecordValue): RecordValue {
  switch (field.kind) {
    case 'choice':
      return rng.pick(field.options.filter((o) => o !== not));
    case 'text':
      return rng.pick(field.values.filter((v) => v !== not));
    case 'number': {
      let n = String(field.min + rng.int(field.max - field.min + 1));
      while (n === not) n = String(field.min + rng.int(field.max - field.min + 1));
      return n;
    }
    case 'flag':
      return not === undefined ? rng.chance(0.5) : !not;
  }
}

export const records: Family<RecordsWorld, RecordsGoal> = {
  id: 'records',
  world(rng, frame) {
    const fields = [...frame.domain.fields];
    const keys = recordKeys(rng, frame, 4 + rng.int(5));
    return {
      noun: frame.domain.noun,
      fields,
      records: keys.map((key) => ({ key, values: Object.fromEntries(fields.map((f) => [f.label, drawValue(rng, f)])) })),
      opener: rng.pick(['button', 'link'] as const),
    };
  },
  goal(rng, _frame, world) {
    const targets = rng.sample(world.records, rng.chance(0.3) ? 2 : 1);
    const changes = targets.map((record) => {
      const fields = rng.sample(world.fields, targets.length === 2 ? 1 : 1 + rng.int(3));
      return { key: record.key, values: Object.fromEntries(fields.map((f) => [f.label, drawValue(rng, f, record.values[f.label])])) };
    });
    const say = (label: string, value: RecordValue): string => (typeof value === 'boolean' ? `${value ? 'tick' : 'untick'} "${label}"` : `set ${label} to "${value}"`);
    const parts = changes.map((c) => `for ${world.noun} ${c.key}, ${Object.entries(c.values).map(([l, v]) => say(l, v)).join(' and ')}`);
    return { instruction: `Edit the records: ${parts.join('; then ')}. Save each.`, goal: { changes } };
  },
  oracle(data) {
    const { world, goal } = data;
    const done = new Set<string>();
    const fieldOf = (label: string): FieldSpec => world.fields.find((f) => f.label === label) as FieldSpec;
    return (observation) => {
      const page = new Page(observation);
      const title = page.headings()[0] ?? '';
      const change = goal.changes.find((c) => title === c.key || title === `Edit ${c.key}`);
      if (change && title === `Edit ${change.key}`) {
        for (const [label, want] of Object.entries(change.values)) {
          const field = fieldOf(label);
          const next = field.kind === 'choice' ? choose(page, label, want as string) : field.kind === 'flag' ? setFlag(page, label, want === true) : fill(page, label, want as string);
          if (next !== null) return next;
        }
        return click(page, 'Save');
      }
      if (change) {
        const saved = Object.entries(change.values).every(([label, want]) => page.has(`${label}: ${shownValue(want)}`));
        if (!saved) return click(page, 'Edit');
        done.add(change.key);
        return click(page, 'Back to the list');
      }
      const next = goal.changes.find((c) => !done.has(c.key));
      if (!next) return click(page, 'Back to the list');
      return act(world.opener === 'link' ? page.find(next.key, ['link']) : rowAction(page, next.key, 'View'));
    };
  },
};
