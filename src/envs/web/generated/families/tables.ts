/**
 * Searchable, sortable, filterable, paginated tables: a list of the domain's records, a page of
 * them at a time, with a search box, a filter by one of their choices and sortable columns where
 * the app has them. The goal is a record to open: one named, the one with the most or the least
 * of a number, or the least among those of one kind. Opening a record ends the episode: the right
 * one wins (public/web/generated/families/tables.js).
 */
import type { FieldSpec } from '../vocabulary.ts';
import { act, choose, click, fill, Page, rowAction, sortControl } from '../oracle-tools.ts';
import { recordKeys, type Family } from '../model.ts';

export interface TableRow {
  key: string;
  kind: string;
  amount: number;
}
export interface TablesWorld {
  /** Column titles: the record, its kind (a choice), its number. */
  columns: [string, string, string];
  kinds: string[];
  rows: TableRow[];
  pageSize: number;
  search: boolean;
  filter: boolean;
  sort: boolean;
  /** A record opens by its "Open" button, or by a link on its key. */
  opener: 'button' | 'link';
}
export type TablesGoal =
  | { kind: 'named'; key: string }
  | { kind: 'extreme'; most: boolean; key: string }
  | { kind: 'least-of-kind'; of: string; key: string };

export const tables: Family<TablesWorld, TablesGoal> = {
  id: 'tables',
  world(rng, frame) {
    const choice = rng.pick(frame.domain.fields.filter((f) => f.kind === 'choice')) as Extract<FieldSpec, { kind: 'choice' }>;
    const number = frame.domain.fields.find((f) => f.kind === 'number') as Extract<FieldSpec, { kind: 'number' }>;
    const count = Math.min(6 + rng.int(25), number.max - number.min + 1);
    const keys = recordKeys(rng, frame, count);
    // Numbers differ from row to row, so that "the most" names one record.
    const amounts = new Set<number>();
    while (amounts.size < count) amounts.add(number.min + rng.int(number.max - number.min + 1));
    const numbers = [...amounts];
    const rows = keys.map((key, i) => ({ key, kind: rng.pick(choice.options), amount: numbers[i] as number }));
    const pageSize = rng.pick([5, 8, 10]);
    return {
      columns: [capital(frame.domain.noun), choice.label, number.label],
      kinds: [...choice.options],
      rows,
      pageSize,
      search: rng.chance(0.6),
      filter: rng.chance(0.7),
      sort: rng.chance(0.7),
      opener: rng.pick(['button', 'link'] as const),
    };
  },
  goal(rng, frame, world) {
    const [, kindColumn, amountColumn] = world.columns;
    const noun = frame.domain.noun;
    const options: TablesGoal['kind'][] = ['named'];
    if (world.sort) options.push('extreme');
    if (world.sort && world.filter) options.push('least-of-kind');
    const kind = rng.pick(options);
    if (kind === 'extreme') {
      const most = rng.chance(0.5);
      const key = [...world.rows].sort((a, b) => (most ? b.amount - a.amount : a.amount - b.amount))[0]?.key as string;
      return { instruction: `Open the ${noun} with the ${most ? 'highest' : 'lowest'} ${amountColumn.toLowerCase()}.`, goal: { kind, most, key } };
    }
    if (kind === 'least-of-kind') {
      const of = rng.pick([...new Set(world.rows.map((r) => r.kind))]);
      const key = world.rows.filter((r) => r.kind === of).sort((a, b) => a.amount - b.amount)[0]?.key as string;
      return { instruction: `Among the ${noun}s whose ${kindColumn.toLowerCase()} is ${of}, open the one with the lowest ${amountColumn.toLowerCase()}.`, goal: { kind, of, key } };
    }
    const key = rng.pick(world.rows).key;
    return { instruction: `Open the ${noun} "${key}".`, goal: { kind, key } };
  },
  oracle(data) {
    const { world, goal } = data;
    const [, kindColumn, amountColumn] = world.columns;
    return (observation) => {
      const page = new Page(observation);
      if (goal.kind === 'least-of-kind') {
        const filtered = choose(page, kindColumn, goal.of);
        if (filtered !== null) return filtered;
      }
      if (goal.kind !== 'named') {
        const { control, order } = sortControl(page, amountColumn);
        const want = goal.kind === 'extreme' && goal.most ? 'desc' : 'asc';
        if (order !== want) return act(control);
      }
      const opener = world.opener === 'link' ? page.find(goal.key, ['link']) : rowAction(page, goal.key, 'Open');
      if (opener) return act(opener);
      if (world.search) {
        const searched = fill(page, `Search ${world.columns[0].toLowerCase()}s`, goal.key);
        if (searched !== null) return searched;
      }
      return click(page, 'Next');
    };
  },
};

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
