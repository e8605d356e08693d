/**
 * The folder a person opened in the app as the `web` environment of one worker (the env worker
 * and the trainer worker each hold one), until it is closed and the bundled suite is back.
 */
import { UsageError } from '../core/errors.ts';
import { replaceEnvironment } from '../envs/registry.ts';
import { bundledSuiteEnvironment, openedSiteEnvironment } from '../envs/web/index.ts';

export class OpenedSite {
  private restoreSuite: (() => void) | null = null;
  private opened: { json: unknown; files: readonly string[]; folder: string } | null = null;

  /**
   * `site.json`'s content and the folder's file paths, checked as the CLI's `--site` checks a
   * folder (the files stay on the page, which writes them into its frames). Answers the site's name.
   */
  open(json: unknown, files: readonly string[], folder: string): string {
    const { site, environment } = openedSiteEnvironment(json, files, folder);
    this.close();
    this.restoreSuite = replaceEnvironment(environment);
    this.opened = { json, files, folder };
    return site.name;
  }

  /** The bundled suite is the `web` environment again. */
  close(): void {
    this.restoreSuite?.();
    this.restoreSuite = null;
    this.opened = null;
  }

  /**
   * Only `tasks` (ids, or the groups `@app` and `@widgets`) of the open site, or of the bundled
   * suite, are the `web` environment until the returned function puts them all back (a run's
   * Tasks, as the CLI's `--tasks`). An unknown task is refused by name.
   */
  chooseTasks(tasks: readonly string[]): () => void {
    const opened = this.opened;
    let chosen;
    try {
      chosen = opened ? openedSiteEnvironment(opened.json, opened.files, opened.folder, tasks).environment : bundledSuiteEnvironment(tasks);
    } catch (error) {
      // The app's field is Tasks, not the CLI's flag.
      if (error instanceof UsageError) throw new UsageError(error.message.replace(/^--tasks/, 'Tasks'), { cause: error });
      throw error;
    }
    return replaceEnvironment(chosen);
  }
}
