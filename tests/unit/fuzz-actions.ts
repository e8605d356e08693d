/** Deterministic malformed actions for robustness tests: none of these may ever throw. */
import { Rng } from '../../src/core/rng.ts';

const UNICODE = ['é', '中文', '🙂', '\u0000', '\u202e', 'ß', '\ud800', 'Ω', '\t', '\n'];

export function malformedActions(count: number, seed: number, knownTargets: readonly string[] = []): string[] {
  const rng = new Rng(`fuzz:${seed}`);
  const word = () => Array.from({ length: rng.range(1, 8) }, () => String.fromCharCode(rng.range(33, 126))).join('');
  const makers: (() => string)[] = [
    () => '',
    () => ' '.repeat(rng.range(1, 5)),
    () => 'x'.repeat(rng.range(5000, 20000)),
    () => `click[${'a'.repeat(rng.range(2000, 8000))}]`,
    () => Array.from({ length: rng.range(1, 6) }, () => rng.pick(UNICODE)).join(''),
    () => `click[${rng.pick(UNICODE)}]`,
    () => `search[${rng.pick(['', ' ', '   '])}]`,
    () => rng.pick(['click[', 'search[', 'click]', '[click', 'click[[x]', 'click[x]]', 'search[[', ']]', '[]', 'click()', 'CLICK']),
    () => `click[${word()}]`,
    () => `${rng.pick(['click', 'search', 'go to', 'take', 'put', 'open'])} ${word()}`,
    () => `${rng.pick(['take', 'go to', 'open', 'heat', 'use', 'examine', 'put'])} ${word()} ${rng.pick(['from', 'in/on', 'with', 'to'])} ${word()} ${rng.range(0, 99)}`,
    () => `go to ${word()} ${rng.range(0, 99)}`,
    () => word(),
    () => (knownTargets.length ? `${rng.pick(knownTargets)}${rng.pick(['', ']', '[', ' 999', 'zz'])}` : word()),
  ];
  return Array.from({ length: count }, () => rng.pick(makers)());
}
