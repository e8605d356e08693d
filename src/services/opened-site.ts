/**
 * The folder a person opened in the app as the `web` environment of one worker (the env worker
 * and the trainer worker each hold one), until it is closed and the bundled suite is back.
 */
import { replaceEnvironment } from '../envs/registry.ts';
import { openedSiteEnvironment } from '../envs/web/index.ts';

export class OpenedSite {
  private restoreSuite: (() => void) | null = null;

  /**
   * `site.json`'s content and the folder's file paths, checked as the CLI's `--site` checks a
   * folder (the files stay on the page, which writes them into its frames). Answers the site's name.
   */
  open(json: unknown, files: readonly string[], folder: string): string {
    const { site, environment } = openedSiteEnvironment(json, files, folder);
    this.close();
    this.restoreSuite = replaceEnvironment(environment);
    return site.name;
  }

  /** The bundled suite is the `web` environment again. */
  close(): void {
    this.restoreSuite?.();
    this.restoreSuite = null;
  }
}
