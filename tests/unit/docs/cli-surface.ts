/**
 * What the CLI accepts, read from the CLI itself: the commands its help lists, and for each the
 * flags its node:util parseArgs call declares. The test file that uses this mocks `node:util` so
 * every parseArgs call records its options (see cli-reference.test.ts); here the commands are run
 * with no arguments, so each parses its (empty) flags and stops at its first required one.
 */
import type { CommandIO } from '../../../src/cli/io.ts';

export interface CliSurface {
  /** `envs`, `rollout`, `buffer seed`, … in the order the help lists them. */
  commands: string[];
  /** Each command's flags, `--name`. */
  flags: Map<string, Set<string>>;
  /** Each command's flags that declare a default in their parseArgs options (`--mode` → `real`). */
  defaults: Map<string, Map<string, unknown>>;
  /** The help text (`--help`). */
  help: string;
}

function quietIO(): CommandIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), result: (v) => stdout.push(JSON.stringify(v)), progress: (t) => stderr.push(t) };
}

/**
 * The commands in the help's `commands:` block: a usage line starts two spaces in with the command
 * (and its sub-command, a bare lower-case word), descriptions and continuation lines start further in.
 */
export function commandsInHelp(help: string): string[] {
  const block = help.slice(help.indexOf('commands:'), help.indexOf('\nevery command:'));
  const found: string[] = [];
  for (const line of block.split('\n')) {
    const m = /^ {2}([a-z]+)(?: ([a-z]+)(?= |$))?/.exec(line);
    if (!m) continue;
    found.push(m[2] ? `${m[1]} ${m[2]}` : (m[1] as string));
  }
  return found;
}

export async function readCliSurface(captured: Record<string, { default?: unknown }>[]): Promise<CliSurface> {
  const { main } = await import('../../../src/cli/main.ts');
  const io = quietIO();
  await main(['--help'], io);
  const help = io.stdout.join('\n');
  const commands = commandsInHelp(help);
  const flags = new Map<string, Set<string>>();
  const defaults = new Map<string, Map<string, unknown>>();
  for (const command of commands) {
    captured.length = 0;
    await main(command.split(' '), quietIO());
    const declared = captured.flatMap((options) => Object.entries(options).map(([name, option]) => [`--${name}`, option.default] as const));
    flags.set(command, new Set(declared.map(([flag]) => flag)));
    defaults.set(command, new Map(declared.filter(([, value]) => value !== undefined)));
  }
  return { commands, flags, defaults, help };
}
