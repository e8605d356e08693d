/**
 * A buffer run's `kind` in plain words for the Runs table: `seed:oracle=0.4,noisy=0.3,random=0.3`
 * reads "seeded by scripted agents: oracle 40%, noisy 30%, random 30%" (in words that wrap, so a
 * narrow column does not cut them), `import:file.jsonl` "imported from file.jsonl".
 */

/** What each seeding agent is, for the Buffer view's help and the Runs table's tooltips. */
export const AGENT_HELP: Readonly<Record<string, string>> = {
  oracle: 'plays each task the right way (it reads the goal)',
  random: 'picks any admissible action',
  noisy: 'the oracle, except that at each step it may take a random action instead',
  shopper: 'shops from what the pages show, as a policy must (shop only)',
  hasty: 'the oracle doing the goal\'s last step too early, then properly (home only)',
};

export interface MixShare {
  agent: string;
  /** Share of the episodes, 0–1 (the mix's weights normalised). */
  share: number;
}

/** The shares of a mix as `oracle=0.6,random=0.4` writes it; null when it does not read as one. */
export function readMix(text: string): MixShare[] | null {
  const parts = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const shares: MixShare[] = [];
  for (const part of parts) {
    const [agent, weight, ...extra] = part.split('=').map((s) => s.trim());
    const w = Number(weight);
    if (!agent || weight === undefined || extra.length > 0 || !Number.isFinite(w) || w < 0) return null;
    shares.push({ agent, share: w });
  }
  const total = shares.reduce((a, s) => a + s.share, 0);
  if (shares.length === 0 || total <= 0) return null;
  return shares.map((s) => ({ agent: s.agent, share: s.share / total }));
}

/** The run's origin in words, and the agents it names (for their help). */
export function describeRunKind(kind: string): { text: string; agents: string[] } {
  if (kind.startsWith('seed:')) {
    const mix = readMix(kind.slice('seed:'.length));
    if (mix) return { text: `seeded by scripted agents: ${mix.map((s) => `${s.agent} ${Math.round(100 * s.share)}%`).join(', ')}`, agents: mix.map((s) => s.agent) };
  }
  if (kind.startsWith('import:')) return { text: `imported from ${kind.slice('import:'.length)}`, agents: [] };
  if (kind === 'demo:play') return { text: 'played by a person in the Play view', agents: [] };
  if (kind === 'demo:record') return { text: 'recorded from a person (CLI)', agents: [] };
  return { text: kind, agents: [] };
}
