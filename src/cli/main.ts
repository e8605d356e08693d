/**
 * The command line: the same core as the app, under Node. `npm run -s cli -- <command> …`.
 * Exit codes: 0 done, 2 bad usage (the message says what to change), 1 anything else (a failed or
 * diverged run), 128 + the signal's number for a command a signal stopped (its finished part written).
 */
import { DreamGymError, isArgumentError, UsageError } from '../core/errors.ts';
import { BUFFER_USAGE, bufferCommand } from './commands/buffer.ts';
import { ENVS_USAGE, envsCommand } from './commands/envs.ts';
import { experienceEvalUsage, EXPERIENCE_FIT_USAGE, experienceCommand } from './commands/experience.ts';
import { POLICY_USAGE, policyCommand } from './commands/policy.ts';
import { PRETRAIN_USAGE, pretrainCommand } from './commands/pretrain.ts';
import { RECORD_USAGE, recordCommand } from './commands/record.ts';
import { ROLLOUT_USAGE, rolloutCommand } from './commands/rollout.ts';
import { serveUsage, serveCommand } from './commands/serve.ts';
import { trainUsage, trainCommand } from './commands/train.ts';
import { quoted } from './args.ts';
import { processIO, type CommandIO } from './io.ts';
import { SiteError } from '../envs/web/env.ts';
import { closePageHosts } from '../envs/web/hosts.ts';
import { GENERATED_SITE_USAGE, siteOptions, useSite } from '../jobs/site.ts';
import { endQuietlyWhenStdoutCloses } from '../platform/closed-stdout.ts';
import { handleStopSignals } from './stop-signals.ts';
import { fileProblem } from '../platform/files.ts';

/** The usage text; a function, since an experience model registered at run time adds its flags to it. */
export const usage = (): string => `usage: npm run -s cli -- <command> [options]

commands:
  ${ENVS_USAGE}
      list the real environments and their task splits
  ${ROLLOUT_USAGE}
      run a scripted policy on a split; with --json prints
      {env, policy, split, episodes, successRate, meanScore, meanSteps, invalidActionRate, stepsPerSec, digest};
      --policy FILE.dgp evaluates a saved policy greedily and adds {backend, actionsDigest};
      envErrors counts the episodes a failing page ended (web), with a warning on stderr
  ${trainUsage()}
      train a policy; progress on stderr; with --json prints {env, mode, algo, backend,
      realTransitions, syntheticTransitions, wallSeconds, eval: {split, episodes, successRate, meanScore}}
  ${BUFFER_USAGE}
      the replay buffer as JSONL files: seed plays oracle and random episodes (with --json prints
      {env, episodes, transitions, mix, byAgent, out, wallSeconds}); import checks every line and reports
      bad ones by line number (good lines still land); stats counts a store file
  ${EXPERIENCE_FIT_USAGE}
      fit the neural experience model (tfjs, no download) on a buffer's real transitions, each posed
      with k examples retrieved from other episodes; progress on stderr; writes a .dgx; with --json prints
      {env, out, bytes, backend, realTransitions, validationTransitions, epochs, rows, wallSeconds, history}
  ${experienceEvalUsage()}
      fidelity of an experience model on held-out real transitions: next-state token F1, action-set F1,
      reward accuracy/MAE, done accuracy, ε_R, ε_P, invalid-output rate, transitions/s, prompt tokens/step
  ${POLICY_USAGE}
      a policy as files others can read: its weights in the safetensors layout (model.safetensors) beside
      config.json (its card: env, mode, algorithm, budgets, held-out success, architecture); import turns
      the two back into the same .dgp
  ${RECORD_USAGE}
      a person plays a task of a --site in a visible Chromium (a display, or xvfb-run); every click, typed text,
      chosen option and Enter becomes the admissible action it means, stored as a demonstration run (kind
      demo:record) in a new store file; with --json prints {task, split, out, runId, episodes, won, transitions, stopped}
  ${serveUsage()}
      serve an experience model as an OpenAI-compatible /v1/chat/completions on loopback; with --json
      the first stdout line is {url, port, model, transitions}
  ${PRETRAIN_USAGE}
      pretrain the experience model and the policy on the generated web apps of the pretraining families
      (never the held-out ones, the suite or a --site): seed a buffer (oracle, noisy, random), fit the model,
      PPO on the apps, the policy's own episodes, fit again; each stage resumable (run it again to go on);
      writes DIR/policy.dgp, model.dgx, card.json and MODEL_CARD.md, what --init/--policy/--model pretrained read
      from public/pretrained/web/ (or $DREAMGYM_PRETRAINED_DIR); with --json prints {out, policy, model, card,
      modelCard, wallSeconds, data, steps, withinShippingLimit}

every command: --env web plays the bundled web suite (live pages in the system Chromium);
  --site DIR [--tasks a,b] makes a folder of pages with a site.json the web env instead (DIR may be
    the site.json itself; a running app's site.json names its "url", which --site-url URL replaces);
  ${GENERATED_SITE_USAGE};
  --tasks a,b (task ids, or the groups @app and @widgets) keeps only those tasks of the suite or the site;
  pretrain takes none of them`;

export async function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [command, ...given] = argv;
  let restore = (): void => undefined;
  try {
    const { rest, site } = siteOptions(given);
    // pretrain's world is fixed by its job: a site given to it would be ignored, so it is refused.
    if (site && command === 'pretrain') throw new UsageError('pretrain plays only the generated apps of the pretraining families: it takes no --site or --tasks (measure other sites with rollout, or train on them with train --init pretrained)');
    if (site) restore = useSite(site.dir, site.tasks, site.url);
    switch (command) {
      case 'envs':
        envsCommand(io, rest);
        return 0;
      case 'rollout':
        await rolloutCommand(io, rest);
        return 0;
      case 'train':
        await trainCommand(io, rest);
        return 0;
      case 'buffer':
        await bufferCommand(io, rest);
        return 0;
      case 'experience':
        await experienceCommand(io, rest);
        return 0;
      case 'serve':
        await serveCommand(io, rest);
        return 0;
      case 'record':
        await recordCommand(io, rest);
        return 0;
      case 'policy':
        await policyCommand(io, rest);
        return 0;
      case 'pretrain':
        await pretrainCommand(io, rest);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(usage());
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${quoted(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError || isArgumentError(error)) {
      // A site's own mistake (a hook that throws) is bad input too, but the usage text would not help with it.
      io.progress(error instanceof SiteError ? `error: ${error.message}` : `error: ${(error as Error).message}\n\n${usage()}`);
      return 2;
    }
    io.progress(`error: ${error instanceof DreamGymError ? error.message : systemFailure(error) ?? String((error as Error)?.stack ?? error)}`);
    return 1;
  } finally {
    restore();
    // The web env's pages: close the browser so the process can end.
    await closePageHosts();
  }
}

/**
 * A file or network operation the system refused (`mkdir` on a read-only disk), said in words with
 * what it was about, rather than as a stack trace; null for any other error.
 */
function systemFailure(error: unknown): string | null {
  const failure = error as NodeJS.ErrnoException | null;
  if (typeof failure?.code !== 'string' || !/^E[A-Z]+$/.test(failure.code) || typeof failure.syscall !== 'string') return null;
  return `${failure.syscall}${failure.path ? ` ${failure.path}` : ''} failed: ${fileProblem(error)}`;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  endQuietlyWhenStdoutCloses();
  handleStopSignals((line) => processIO.progress(line), closePageHosts);
  process.exitCode = await main(process.argv.slice(2));
}
