/**
 * Generated web apps: thousands of distinct sites in eight families over six domains, each widget
 * written three ways (README.md here). `generatedSites` is the one way in: the pretraining
 * selection reaches only its own families' pages and programs, never the held-out families, the
 * bundled suite or a folder of sites.
 */
import type { EnvDefinition } from '../../spec.ts';
import { webSiteEnvironment } from '../index.ts';
import { generatedSite, GENERATED_PAGES, type FamilySelection } from './site.ts';

export { appDigest, familyProgram } from './programs.ts';
export { generatedSite, HELD_OUT_FAMILIES, PRETRAINING_FAMILIES, type FamilySelection, type GeneratedSite } from './site.ts';
export { FAMILY_IDS, NAVIGATIONS, WIDGET_STYLES, type AppData, type FamilyId } from './model.ts';
export { DOMAIN_IDS } from './vocabulary.ts';

/** The `web` environment of the generated apps of a selection of families, served from public/web/generated/. */
export function generatedSites(options: { families: FamilySelection }): EnvDefinition {
  const { site, programs } = generatedSite(options.families);
  return webSiteEnvironment(site, { bundled: GENERATED_PAGES }, programs);
}
