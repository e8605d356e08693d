/**
 * docs/cli.md against the CLI: every command the CLI's help lists has a section, every flag a
 * command accepts (its node:util parseArgs options, and `--site`/`--site-url`/`--tasks` for all) is in its table
 * and no other flag is, and each default and bound the job specs define is the one the table gives.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { siteOptions } from '../../../src/jobs/site.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { trainSpec } from '../../../src/jobs/dream-spec.ts';
import { evalSpec } from '../../../src/jobs/eval-spec.ts';
import { experienceKinds, settingsByField } from '../../../src/jobs/experience-models/registry.ts';
import { FIT_SPEC } from '../../../src/jobs/fit-spec.ts';
import { policyFileRolloutSpec, scriptedRolloutSpec } from '../../../src/jobs/rollout-spec.ts';
import { seedSpec } from '../../../src/jobs/seed-spec.ts';
import { SERVED_KINDS, serveSpec } from '../../../src/jobs/serve-spec.ts';
import { flagName } from '../../../src/jobs/spec.ts';
import { TRAIN_SPECS } from '../../../src/jobs/train-spec.ts';
import { readCliSurface, type CliSurface } from './cli-surface.ts';

// Every parseArgs call records the options it declares: what a command accepts, however it builds them.
const captured = vi.hoisted(() => [] as Record<string, { type?: string; default?: unknown }>[]);
vi.mock('node:util', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:util')>();
  const parseArgs = ((config: Parameters<typeof actual.parseArgs>[0]) => {
    captured.push({ ...((config?.options ?? {}) as Record<string, { type?: string; default?: unknown }>) });
    return actual.parseArgs(config);
  }) as typeof actual.parseArgs;
  return { ...actual, parseArgs };
});

const root = path.resolve(import.meta.dirname, '../../..');
const GLOBAL = 'Every command';

interface Row {
  flag: string;
  what: string;
  default: string;
  bounds: string;
}

/** The flag tables of docs/cli.md by section: `## \`buffer seed\`` → its rows; `## Every command` → the global flags. */
function readReference(markdown: string): Map<string, Row[]> {
  const sections = new Map<string, Row[]>();
  let current: Row[] | null = null;
  for (const line of markdown.split('\n')) {
    const heading = /^## (?:`([^`]+)`|(Every command))\s*$/.exec(line);
    if (heading) {
      current = [];
      sections.set((heading[1] ?? heading[2]) as string, current);
      continue;
    }
    if (line.startsWith('## ')) current = null;
    const row = /^\| `(--[a-z0-9-]+)[^`]*` \|/.exec(line);
    if (row && current) {
      const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
      current.push({ flag: row[1] as string, what: cells[1] ?? '', default: cells[2] ?? '', bounds: cells[3] ?? '' });
    }
  }
  return sections;
}

/** The numbers a cell names, as written (`1,000,000`, `0.25`, `1e-7`). */
const numbersIn = (text: string): string[] => text.match(/\d[\d,.]*(?:e[+-]?\d+)?/g)?.map((n) => n.replace(/[.,]$/, '')) ?? [];

type Schema = { type: string; default?: unknown; wrapped?: Schema; pipe?: { message?: unknown }[]; message?: unknown; options?: string[] };

/** A spec field's default, bounds (as the spec's message writes them) and choices. */
function fieldFacts(field: Schema): { default?: unknown; bounds?: string[]; choices?: string[] } {
  const optional = field.type === 'optional';
  const inner = optional ? (field.wrapped as Schema) : field;
  const message = String(inner.pipe?.[0]?.message ?? inner.message ?? '');
  const bounds = /≥ (\S+) and ≤ (\S+)$/.exec(message) ?? /in \[(\S+), (\S+)\]$/.exec(message) ?? /> (\S+) and ≤ (\S+)$/.exec(message);
  return {
    ...(optional && field.default !== undefined ? { default: field.default } : {}),
    ...(bounds ? { bounds: [bounds[1] as string, bounds[2] as string] } : {}),
    ...(inner.type === 'picklist' ? { choices: inner.options } : {}),
  };
}

const shop = envSpec('shop');
/** The experience models the CLI can run (jobs/experience-models/registry.ts). */
const kinds = experienceKinds('node');
/** Each command's job specs (the environment-dependent ones for the shop; one per mode and experience model). */
const SPECS: Record<string, { entries: Record<string, unknown> }[]> = {
  rollout: [scriptedRolloutSpec(shop), policyFileRolloutSpec(shop)],
  train: [TRAIN_SPECS.real, TRAIN_SPECS.bc, TRAIN_SPECS.dpo, ...kinds.flatMap((kind) => [trainSpec('dream', kind), trainSpec('s2r', kind)])],
  'buffer seed': [seedSpec(shop)],
  'experience fit': [FIT_SPEC],
  'experience eval': kinds.map((kind) => evalSpec(kind, shop)),
  serve: SERVED_KINDS.map((kind) => serveSpec(kind)),
};
/**
 * Spec fields whose flag is not the field's name: the commands' flagNamer exceptions, and each
 * experience model's settings as its registry entry names their flags.
 */
const FLAG_OF: Record<string, string> = {
  learningRate: '--lr',
  explorationFloor: '--exploration',
  validationShare: '--validation',
  ...Object.fromEntries([...settingsByField('node')].map(([field, { setting }]) => [field, `--${setting.flag}`])),
};

let cli: CliSurface;
let reference: Map<string, Row[]>;

beforeAll(async () => {
  cli = await readCliSurface(captured);
  reference = readReference(readFileSync(path.join(root, 'docs/cli.md'), 'utf8'));
});

describe('docs/cli.md', () => {
  it('has a section for every command the CLI lists, and none for a command it lacks', () => {
    expect(cli.commands.length).toBeGreaterThanOrEqual(10);
    const documented = [...reference.keys()].filter((k) => k !== GLOBAL);
    expect(documented.sort()).toEqual([...cli.commands].sort());
  });

  it('lists every flag each command accepts, and no flag it lacks', () => {
    const problems: string[] = [];
    for (const command of cli.commands) {
      const accepted = cli.flags.get(command) ?? new Set<string>();
      expect(accepted.size, `${command} declared no flags: is it still parsed with node:util parseArgs?`).toBeGreaterThan(0);
      const listed = new Set((reference.get(command) ?? []).map((r) => r.flag));
      for (const flag of accepted) if (!listed.has(flag)) problems.push(`${command}: ${flag} is accepted but not listed`);
      for (const flag of listed) if (!accepted.has(flag)) problems.push(`${command}: ${flag} is listed but the CLI does not accept it`);
    }
    expect(problems).toEqual([]);
  });

  it('lists --site, --site-url and --tasks for every command, as the CLI takes them', () => {
    expect((reference.get(GLOBAL) ?? []).map((r) => r.flag).sort()).toEqual(['--site', '--site-url', '--tasks']);
    const { rest, site } = siteOptions(['--site', 'DIR', '--site-url', 'URL', '--tasks', 'a,b']);
    expect(rest).toEqual([]);
    expect(site).toEqual({ dir: 'DIR', tasks: ['a', 'b'], url: 'URL' });
  });

  it('gives each default and bound the job specs define', () => {
    const problems: string[] = [];
    for (const [command, specs] of Object.entries(SPECS)) {
      const rows = new Map((reference.get(command) ?? []).map((r) => [r.flag, r]));
      const defaults = new Map<string, Set<string>>();
      for (const spec of specs) {
        for (const [field, schema] of Object.entries(spec.entries)) {
          const flag = FLAG_OF[field] ?? flagName(field);
          const row = rows.get(flag);
          if (!row) continue; // a spec field no flag sets (the fit's batch size): the flag check above covers the flags
          const facts = fieldFacts(schema as Schema);
          if (typeof facts.default === 'number' || typeof facts.default === 'string') (defaults.get(flag) ?? defaults.set(flag, new Set()).get(flag))?.add(String(facts.default));
          for (const bound of facts.bounds ?? []) {
            if (!numbersIn(row.bounds).includes(bound)) problems.push(`${command} ${flag}: bounds "${row.bounds}" lack ${bound}`);
          }
          for (const choice of facts.choices ?? []) {
            if (!row.bounds.includes(`\`${choice}\``)) problems.push(`${command} ${flag}: bounds "${row.bounds}" lack \`${choice}\``);
          }
        }
      }
      // A default the command's specs agree on (where modes differ, the table says so in words).
      for (const [flag, values] of defaults) {
        if (values.size !== 1) continue;
        const value = [...values][0] as string;
        const cell = (rows.get(flag) as Row).default;
        const found = /^[\d.e+-]+$/.test(value) ? numbersIn(cell).includes(value) : cell.includes(value);
        if (!found) problems.push(`${command} ${flag}: default "${cell}" is not the spec's ${value}`);
      }
    }
    // One line per problem, however many of the command's specs share the field.
    expect([...new Set(problems)]).toEqual([]);
  });

  it('gives the defaults the commands declare for their flags', () => {
    const problems: string[] = [];
    for (const command of cli.commands) {
      const rows = new Map((reference.get(command) ?? []).map((r) => [r.flag, r]));
      for (const [flag, value] of cli.defaults.get(command) ?? []) {
        const row = rows.get(flag);
        if (typeof value === 'string' && row && !row.default.includes(value)) problems.push(`${command} ${flag}: default "${row.default}" is not ${value}`);
        if (typeof value === 'boolean' && row && value !== false) problems.push(`${command} ${flag}: a switch that is on by default`);
      }
    }
    expect(problems).toEqual([]);
  });
});
