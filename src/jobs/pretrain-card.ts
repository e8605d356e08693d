/**
 * The model card of a pretraining (card.json, and MODEL_CARD.md written from it): what the
 * weights learned from (families, sites, episodes, transitions, agents), how long each stage took
 * and on what machine, how the policy did on the pretraining families' test split, and the
 * held-out figures where they were measured (by another command: pretrain plays no held-out app).
 */
import { PRETRAINED_FILES, PRETRAINED_MAX_BYTES } from './pretrained-files.ts';
import type { StageName } from './pretrain-ledger.ts';

export const CARD_FORMAT = 'dreamgym-pretrained-card';

export interface PretrainCard {
  format: typeof CARD_FORMAT;
  version: 1;
  env: string;
  createdAt: string;
  /** The command that makes these weights again (its --out aside). */
  command: string;
  settings: Record<string, unknown>;
  data: {
    site: string;
    families: string[];
    heldOutFamilies: string[];
    /** Episodes started in each family, over every stage that played (seeding, RL, own steps, the final evaluation). */
    episodesByFamily: Record<string, number>;
    seed: { episodes: number; transitions: number; byAgent: Record<string, { episodes: number; transitions: number; successRate: number }> };
    own: { episodes: number; transitions: number; successRate: number } | null;
  };
  steps: {
    fit: { epochs: number; transitions: number; validationTransitions: number; lastValidation: unknown };
    rl: { algo: string; realTransitions: number; iterations: number; eval: { split: string; episodes: number; successRate: number; meanScore: number } | null };
    refit: { epochs: number; transitions: number; lastValidation: unknown } | null;
  };
  wallSeconds: Partial<Record<StageName, number>> & { total: number };
  machine: { platform: string; arch: string; cpus: number; cpuModel: string; memoryGiB: number; node: string; backend: string };
  files: Record<'policy' | 'model', { file: string; bytes: number; sha256: string }>;
  /** Together at most PRETRAINED_MAX_BYTES, the most the app ships. */
  withinShippingLimit: boolean;
  /** As given with --held-out FILE.json (a rollout's or an experiment's figures on the held-out families), else null. */
  heldOut: unknown;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const epochs = (n: number): string => `${n} epoch${n === 1 ? '' : 's'}`;
const secs = (x: number | undefined): string => (x === undefined ? '—' : x >= 120 ? `${(x / 60).toFixed(1)} min` : `${x.toFixed(1)} s`);

export function withinShippingLimit(files: PretrainCard['files']): boolean {
  return files.policy.bytes + files.model.bytes <= PRETRAINED_MAX_BYTES;
}

/** MODEL_CARD.md: the card in words and tables, for a person. */
export function modelCardMarkdown(card: PretrainCard): string {
  const { data, steps, machine } = card;
  const agents = Object.entries(data.seed.byAgent).map(([agent, a]) => `| ${agent} | ${a.episodes} | ${a.transitions} | ${pct(a.successRate)} |`);
  const families = Object.entries(data.episodesByFamily).sort(([a], [b]) => a.localeCompare(b)).map(([family, n]) => `| ${family} | ${n} |`);
  const stages: [StageName, string][] = [['seed', 'seed the buffer (oracle, noisy, random)'], ['fit', 'fit the experience model'], ['rl', 'PPO on the generated apps'], ['own', "the policy's own episodes"], ['refit', 'fit again, from the first model']];
  const rl = steps.rl.eval;
  return [
    `# Pretrained ${card.env} policy and experience model`,
    '',
    `Made by \`${card.command}\` on ${card.createdAt}. Files: \`${PRETRAINED_FILES.policy}\` (${card.files.policy.bytes} bytes) and \`${PRETRAINED_FILES.model}\` (${card.files.model.bytes} bytes)` +
      `${card.withinShippingLimit ? '' : ` — together over the ${PRETRAINED_MAX_BYTES / 1024 / 1024} MB the app ships`}; every figure below is in \`${PRETRAINED_FILES.card}\`.`,
    '',
    '## Data',
    '',
    `Only the generated apps of the pretraining site \`${data.site}\`: the families ${data.families.map((f) => `\`${f}\``).join(', ')}. ` +
      `Held out, never played: ${data.heldOutFamilies.map((f) => `\`${f}\``).join(', ')}, the bundled suite and any folder of sites.`,
    '',
    `Seeded buffer: ${data.seed.episodes} episodes, ${data.seed.transitions} transitions.`,
    '',
    '| agent | episodes | transitions | won |',
    '|---|---|---|---|',
    ...agents,
    '',
    data.own ? `The policy's own episodes: ${data.own.episodes} (${data.own.transitions} transitions, ${pct(data.own.successRate)} won), added to the buffer before the second fit.` : "The policy's own episodes: none (stage left out).",
    '',
    '| family | episodes started (all stages) |',
    '|---|---|',
    ...families,
    '',
    '## Steps',
    '',
    `- Experience model: ${epochs(steps.fit.epochs)} on ${steps.fit.transitions} transitions (${steps.fit.validationTransitions} held out for its per-epoch fidelity)` +
      (steps.refit ? `, then ${epochs(steps.refit.epochs)} more, from that model, on ${steps.refit.transitions} with the policy's own.` : '.'),
    `- Policy: ${steps.rl.algo.toUpperCase()}, ${steps.rl.realTransitions} real transitions in ${steps.rl.iterations} iterations` +
      (rl ? `; greedy on the pretraining families' ${rl.split} split: ${pct(rl.successRate)} success over ${rl.episodes} episodes (score ${rl.meanScore.toFixed(1)}).` : '.'),
    '',
    '## Cost',
    '',
    '| stage | wall time |',
    '|---|---|',
    ...stages.map(([name, what]) => `| ${name}: ${what} | ${secs(card.wallSeconds[name])} |`),
    `| total | ${secs(card.wallSeconds.total)} |`,
    '',
    `On ${machine.cpus} × ${machine.cpuModel} (${machine.platform} ${machine.arch}, ${machine.memoryGiB} GiB), Node ${machine.node}, tfjs ${machine.backend}.`,
    '',
    '## Held-out figures',
    '',
    card.heldOut === null
      ? `None given. Measure them on the held-out families (\`rollout --env web --site @generated-held-out --policy DIR/${PRETRAINED_FILES.policy} --json > held-out.json\`) and write them here with \`pretrain --out DIR --held-out held-out.json\` and the same sizes (every stage is then skipped).`
      : `\`\`\`json\n${JSON.stringify(card.heldOut, null, 1)}\n\`\`\``,
    '',
  ].join('\n');
}
