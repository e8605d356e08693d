/**
 * Typed errors. Each carries a stable `code` so callers (CLI, app) can react to the kind of
 * failure, and a message that says what to do about it.
 */

export class DreamGymError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The caller asked for something that does not exist or is out of range (unknown env, split…). */
export class UsageError extends DreamGymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('usage', message, options);
  }
}

/** An environment was used out of order (step before reset, step after done). */
export class EnvStateError extends DreamGymError {
  constructor(message: string) {
    super('env-state', message);
  }
}

/** Text in the abstract state format could not be parsed. */
export class StateFormatError extends DreamGymError {
  readonly line: number;
  constructor(message: string, line: number) {
    super('state-format', `${message} (line ${line})`);
    this.line = line;
  }
}

/** The message of anything thrown (comlink and workers pass plain values through too). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * node:util parseArgs' refusals (an unknown option, a value missing or given where none goes): a
 * TypeError whose code starts ERR_PARSE_ARGS_. Bad input, to be answered with the usage, not a stack.
 */
export function isArgumentError(error: unknown): error is TypeError {
  const code: unknown = error instanceof TypeError ? (error as TypeError & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
