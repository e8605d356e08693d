/**
 * `npm run experiment -- <name> …`: the experiments' dispatcher. It takes `--site DIR` and
 * `--web-tasks a,b|@app` for every experiment (jobs/site.ts), ends quietly when stdout closes, and
 * runs the sub-command by its name from EXPERIMENTS; each sub-command's module under commands/
 * parses its own options and says its usage in its header. `npm run experiment` with no name, or
 * an unknown one, prints every usage line (commands/common.ts) and exits 2; an option a
 * sub-command does not take does the same, and a refusal of ours (a damaged input file) is one
 * `error:` line and exit 1.
 *
 *   paper, rebuild       commands/paper.ts                the paper's table on one environment; its report again from its JSON
 *   real-table           commands/real-table.ts           the real-mode baseline's table
 *   by-type              commands/by-type.ts              greedy success per task type
 *   feature-digest       commands/feature-digest.ts       a digest of the policy's features on seeded steps
 *   episode-steps        commands/episode-steps.ts        home training steps in won and lost episodes
 *   purchases            commands/purchases.ts            a shop policy's purchases and the model's reward for each
 *   buffer-attributes    commands/buffer-attributes.ts    a shop buffer's purchases by the wanted attributes titles hide
 *   policy-steps         commands/policy-steps.ts         the model's teacher-forced fidelity on a policy's own steps
 *   missed-successes     commands/missed-successes.ts     the real (or false) successes among a policy's held-out steps
 *   curriculum-variance  commands/curriculum-variance.ts  whether in-model outcome variance stands for the real one
 *   dream-scripted       commands/dream-scripted.ts       a scripted agent in the real env and inside the model
 */
import { closePageHosts } from '../src/envs/web/hosts.ts';
import { DreamGymError, isArgumentError } from '../src/core/errors.ts';
import { siteOptions, useSite } from '../src/jobs/site.ts';
import { endQuietlyWhenStdoutCloses } from '../src/platform/closed-stdout.ts';
import { usage } from './commands/common.ts';
import { paper, rebuild } from './commands/paper.ts';
import { printRealTable } from './commands/real-table.ts';
import { printByType } from './commands/by-type.ts';
import { printFeatureDigest } from './commands/feature-digest.ts';
import { printEpisodeSteps } from './commands/episode-steps.ts';
import { printPurchases } from './commands/purchases.ts';
import { printBufferAttributes } from './commands/buffer-attributes.ts';
import { printPolicySteps } from './commands/policy-steps.ts';
import { printMissedSuccesses } from './commands/missed-successes.ts';
import { printCurriculumVariance } from './commands/curriculum-variance.ts';
import { printDreamScripted } from './commands/dream-scripted.ts';

const EXPERIMENTS: Record<string, (argv: string[]) => Promise<void>> = {
  'dream-scripted': printDreamScripted,
  'missed-successes': printMissedSuccesses,
  'curriculum-variance': printCurriculumVariance,
  paper,
  'real-table': printRealTable,
  'by-type': printByType,
  'feature-digest': printFeatureDigest,
  rebuild,
  'episode-steps': printEpisodeSteps,
  purchases: printPurchases,
  'buffer-attributes': printBufferAttributes,
  'policy-steps': printPolicySteps,
};

/**
 * `--site DIR` and `--web-tasks a,b|@app`, which every experiment takes: the CLI's `--site` and
 * `--tasks` (which pages the web env is), named apart because `--tasks` counts tasks in some
 * experiments. Returns the other arguments.
 */
function takeWebSite(args: readonly string[]): string[] {
  const { rest, site } = siteOptions(args, '--web-tasks');
  if (site) useSite(site.dir, site.tasks, site.url);
  return rest;
}

endQuietlyWhenStdoutCloses();
const [name, ...args] = process.argv.slice(2);
const experiment = name === undefined ? undefined : EXPERIMENTS[name];
if (!experiment) usage(name === undefined ? 'which experiment?' : `unknown experiment "${name}"`);
try {
  await experiment(takeWebSite(args));
} catch (error) {
  // An option the experiment does not take (--help, a typo): the message and the usage, not node's stack.
  if (isArgumentError(error)) usage(`${name}: ${error.message}`);
  // A damaged input file (or any refusal of ours) is one line that names it, not a stack trace.
  if (!(error instanceof DreamGymError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  // The web env's pages: close the browser so the process can end.
  await closePageHosts();
}
