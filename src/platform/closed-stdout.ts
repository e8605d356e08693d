/**
 * A reader that stops early (`… | head`) closes the pipe: the output is no longer wanted, which is
 * not a crash to report with a stack trace, so the process ends quietly with 0, as Unix tools do.
 * The CLI, the experiments and the benches all print to stdout and install this first.
 */
export function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}
