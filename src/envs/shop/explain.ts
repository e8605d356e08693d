/**
 * The shop's teacher annotations (see `../explain.ts`): one or two sentences per step, from the
 * pages and the reward breakdown the environment already computed.
 */
import { firstFitting, listNames, quote, rewardText } from '../explain.ts';
import { formatPrice, type Product } from './catalog.ts';
import type { ShopGoal } from './goal.ts';
import { RESULTS_PER_PAGE, pageCount, type Page, type ResultsPage } from './pages.ts';
import type { RewardBreakdown } from './reward.ts';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How a page is named in a sentence: "the results page", "the reviews page". */
export function pageName(page: Page): string {
  return `the ${page.kind === 'subpage' ? page.name.toLowerCase() : page.kind} page`;
}

export function invalidAction(action: string, page: Page, why?: string): string {
  return `${quote(action)} is not an action on ${pageName(page)}${why ? `, ${why}` : ''}, so nothing changes and the reward is 0.`;
}

export function malformedAction(action: string): string {
  return `${quote(action)} is not a well-formed action (search[...] or click[...]), so nothing changes and the reward is 0.`;
}

export function searched(results: ResultsPage): string {
  const n = results.ids.length;
  const what = n === 0
    ? 'no product matches, so the results page is empty'
    : n === 1
      ? 'the results page lists the only matching product'
      : n <= RESULTS_PER_PAGE
        ? `the results page lists all ${n} matching products`
        : `the results page lists the top ${RESULTS_PER_PAGE} of ${n} matching products`;
  return `Searched for ${quote(results.query)}; ${what}.`;
}

export function turnedPage(results: ResultsPage, forward: boolean): string {
  return `${forward ? 'Went on' : 'Went back'} to page ${results.page} of ${pageCount(results)} of the results for ${quote(results.query)}.`;
}

export function openedItem(product: Product): string {
  return `Opened the item page of ${product.id} (${product.title}), priced ${formatPrice(product.price)}.`;
}

export function openedSubpage(name: string, product: Product): string {
  return `Opened the ${name.toLowerCase()} page of ${product.id} (${product.title}).`;
}

export function leftSubpage(name: string, product: Product): string {
  return `Went back from the ${name.toLowerCase()} page to the item page of ${product.id}.`;
}

export function backToResults(results: ResultsPage): string {
  return `Went back to page ${results.page} of the results for ${quote(results.query)}.`;
}

export function backToSearch(hadSelection: boolean): string {
  return hadSelection ? 'Went back to the search page; the selected options are cleared.' : 'Went back to the search page.';
}

export function selectedOption(type: string, value: string, previous: string | undefined): string {
  if (previous === value) return `"${value}" was already selected for ${type}, so nothing changes.`;
  if (previous === undefined) return `Selected "${value}" for ${type}.`;
  return `Selected "${value}" for ${type}; "${previous}" is no longer selected.`;
}

/**
 * Why a purchase earned its reward: which constraints it matched (and, when it fits, which it
 * missed), the price against the bound, and `r_type` when it is below 1. The number stated is
 * `score.reward` to two decimals.
 */
export function bought(product: Product, score: RewardBreakdown, goal: ShopGoal): string {
  const nAttrs = goal.attributes.length;
  const nOpts = Object.keys(goal.options).length;
  const matched: string[] = [];
  if (nAttrs > 0) matched.push(`${score.attributeMatches} of ${plural(nAttrs, 'attribute')}`);
  if (nOpts > 0) matched.push(`${score.optionMatches} of ${plural(nOpts, 'option')}`);
  if (score.priceMatch) matched.push('the price bound');
  const missing = [
    ...score.missingAttributes.map((a) => `"${a}"`),
    ...score.missingOptions.map((type) => `${type} "${goal.options[type] as string}"`),
  ];
  const price = score.priceMatch ? '' : `costs ${formatPrice(product.price)}, over the ${formatPrice(goal.priceUpper)} bound`;
  const type = score.rType >= 1
    ? 'the product type matches'
    : score.rType > 0
      ? `the product type only partly matches (r_type ${score.rType})`
      : `it is not the wanted type of product (r_type ${score.rType})`;
  // "and" after a price miss too, so one sentence never says "but" twice.
  const joiner = score.rType >= 1 || !score.priceMatch ? ', and ' : ', but ';
  const why = (detailed: boolean): string => {
    const details = detailed && missing.length > 0 ? ` (missing ${listNames(missing)})` : '';
    const matches = matched.length === 0 ? `It ${price}` : `It matches ${listNames(matched)}${details}${price ? ` but ${price}` : ''}`;
    return `${matches}${joiner}${type}, so the reward is ${rewardText(score.reward)}.`;
  };
  const head = `Bought ${product.id}`;
  return firstFitting([`${head} (${product.title}). ${why(true)}`, `${head}. ${why(true)}`, `${head}. ${why(false)}`]);
}
