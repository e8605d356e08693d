/** Advantage estimators: GAE for PPO, group-normalised outcomes for GRPO. Pure functions. */

/**
 * Generalised advantage estimation (Schulman et al., 2016) over one trajectory:
 *   δ_t = r_t + γ·V_{t+1}·(1 − done_t) − V_t,   A_t = δ_t + γλ·(1 − done_t)·A_{t+1}
 * `lastValue` bootstraps a trajectory cut before its end (0 when it ended). Returns = A + V.
 */
export function gae(
  rewards: readonly number[],
  values: readonly number[],
  dones: readonly boolean[],
  lastValue: number,
  gamma: number,
  lambda: number,
): { advantages: number[]; returns: number[] } {
  const T = rewards.length;
  const advantages = new Array<number>(T).fill(0);
  let next = 0;
  for (let t = T - 1; t >= 0; t--) {
    const notDone = dones[t] ? 0 : 1;
    const nextValue = t === T - 1 ? lastValue : (values[t + 1] as number);
    const delta = (rewards[t] as number) + gamma * nextValue * notDone - (values[t] as number);
    next = delta + gamma * lambda * notDone * next;
    advantages[t] = next;
  }
  return { advantages, returns: advantages.map((a, t) => a + (values[t] as number)) };
}

/** GRPO's advantage for each of G outcomes of one task: (r − mean) / (std + ε), population std. */
export function groupAdvantages(outcomes: readonly number[], epsilon = 1e-6): number[] {
  const G = outcomes.length;
  if (G === 0) return [];
  const mean = outcomes.reduce((a, b) => a + b, 0) / G;
  const std = Math.sqrt(outcomes.reduce((a, r) => a + (r - mean) ** 2, 0) / G);
  return outcomes.map((r) => (r - mean) / (std + epsilon));
}

/** Zero mean, unit variance (CleanRL's per-minibatch advantage normalisation). */
export function normalize(values: readonly number[], epsilon = 1e-8): number[] {
  const n = values.length;
  if (n === 0) return [];
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / Math.max(n - 1, 1));
  return values.map((v) => (v - mean) / (std + epsilon));
}
