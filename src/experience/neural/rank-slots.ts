/**
 * How the retrieved examples' votes become a candidate's columns: one slot per example rank, and
 * means over the examples.
 */
import type { ExampleView } from './example-view.ts';

/** Examples beyond this many still vote in the counts but have no per-rank features. */
export const RANK_SLOTS = 4;

/** The first RANK_SLOTS values, one per example rank (0 past the last example), pushed onto `out`. */
export function pushSlots(out: number[], values: readonly number[]): void {
  for (let i = 0; i < RANK_SLOTS; i++) out.push(i < values.length ? (values[i] as number) : 0);
}

/** The mean of a value over the views, 0 without any. */
export function meanOver(views: readonly ExampleView[], value: (v: ExampleView) => number): number {
  return views.length === 0 ? 0 : views.reduce((a, v) => a + value(v), 0) / views.length;
}

/** Per key, its mean over the maps (a map without the key counts 0); summed in the maps' order. */
export function meanByKey(maps: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const map of maps) for (const [key, value] of map) sums.set(key, (sums.get(key) ?? 0) + value);
  for (const [key, sum] of sums) sums.set(key, sum / maps.length);
  return sums;
}
