/**
 * The trace report: one self-contained HTML page of a policy's episodes, step by step (a picture of
 * the page, the abstract state, the chosen action with its probability and the next alternatives,
 * the reward) and each episode's outcome. The CLI's `rollout --trace` (trace-recorder.ts) and the
 * app's Evaluate view both build it here: pure string building, no DOM, no tfjs, no Node.
 *
 * Pages are hostile, so every text here (a state, an instruction, an action, a task id, a file
 * name) is escaped, and the report itself runs no script and loads nothing: its
 * Content-Security-Policy allows only its own style and `data:` images, which hold the pictures.
 * It opens offline, from anywhere, and cannot call out.
 */
import { isPng } from '../envs/web/picture.ts';

/** A candidate the policy scored, and its probability. */
export interface ScoredAction {
  action: string;
  probability: number;
}

/** What a step shows of the policy's choice. */
export interface TracedChoice {
  /** π(action | state); null where the policy does not say (a scripted policy). */
  probability: number | null;
  /** The next most probable candidates after the chosen one, best first. */
  alternatives: ScoredAction[];
  /** How many candidates the policy scored (0 where unknown). */
  candidates: number;
}

/** A picture of the env at a step: PNG bytes, or why there is none. */
export type TracePicture = { png: Uint8Array } | { missing: string };

export interface TracedStep {
  /** The abstract state the policy read before it acted. */
  state: string;
  /** The state's admissible actions. */
  actions: readonly string[];
  /** The page as the policy saw it; absent where the env shows no pictures (shop, home). */
  picture?: TracePicture;
  action: string;
  choice: TracedChoice;
  reward: number;
  /** False where the env did not take the action (invalid or inadmissible). */
  valid: boolean;
  /** The env's sentence on what the action did. */
  explanation?: string;
}

export interface TracedEpisode {
  /** The episode's number in the rollout, from 0. */
  index: number;
  taskId: string;
  instruction: string;
  steps: TracedStep[];
  /** Steps the episode played past what the trace keeps (counted, not shown). */
  untracedSteps: number;
  /** The state the episode ended in (or is in, where it is not over). */
  last: { state: string; picture?: TracePicture };
  /** How the episode ended; null where it is not over (a report of an episode in progress). */
  outcome: { won: boolean; totalReward: number; truncated: boolean; envError?: string } | null;
}

export interface TraceReport {
  env: string;
  /** The policy's name: a scripted policy's, or a file's. */
  policy: string;
  split: string;
  /** Why no probabilities are shown (a scripted policy), said once at the top. */
  probabilityNote?: string;
  episodes: TracedEpisode[];
  /** What the trace left out (episodes past its cap, pictures past its budget), said at the top. */
  notes: string[];
  /** When it was made (an ISO date). */
  createdAt: string;
}

/** Alternatives a step lists after the chosen action. */
export const TRACE_ALTERNATIVES = 5;

/** A state longer than this is cut in the report (the web env caps its own at 12,000 characters). */
const MAX_STATE_CHARS = 20_000;

/** The choice as a step shows it, from every candidate's probability (in any order). */
export function tracedChoice(action: string, scored: readonly ScoredAction[], alternatives = TRACE_ALTERNATIVES): TracedChoice {
  const ranked = [...scored].sort((a, b) => b.probability - a.probability);
  const chosen = ranked.find((c) => c.action === action);
  return {
    probability: chosen ? chosen.probability : null,
    alternatives: ranked.filter((c) => c.action !== action).slice(0, alternatives),
    candidates: scored.length,
  };
}

/** A choice the policy gave no probabilities for (a scripted policy). */
export const UNSCORED_CHOICE: TracedChoice = { probability: null, alternatives: [], candidates: 0 };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: nothing in it is read as markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const percent = (p: number): string => (p > 0 && p < 0.0005 ? '<0.1%' : `${(100 * p).toFixed(1)}%`);
const number = (x: number): string => String(Number(x.toFixed(3)));
const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function stateBlock(state: string): string {
  const cut = state.length > MAX_STATE_CHARS ? `\n… ${(state.length - MAX_STATE_CHARS).toLocaleString('en-US')} more characters not shown` : '';
  return `<pre class="state">${escapeHtml(state.slice(0, MAX_STATE_CHARS))}${escapeHtml(cut)}</pre>`;
}

function pictureBlock(picture: TracePicture | undefined, alt: string): string {
  if (picture === undefined) return '';
  if ('missing' in picture) return `<p class="picture missing">No picture: ${escapeHtml(picture.missing)}</p>`;
  // Only PNG bytes become an image: whatever else a host handed over is not put into a URL.
  if (!isPng(picture.png)) return '<p class="picture missing">No picture: the bytes given were not a PNG.</p>';
  return `<img class="picture" alt="${escapeHtml(alt)}" src="data:image/png;base64,${base64(picture.png)}">`;
}

function choiceBlock(step: TracedStep): string {
  const { choice } = step;
  const probability = choice.probability === null ? '<span class="muted">probability not known</span>' : `probability <b class="prob">${percent(choice.probability)}</b>`;
  const of = choice.candidates > 0 ? ` <span class="muted">of ${plural(choice.candidates, 'candidate')}</span>` : '';
  const alternatives = choice.alternatives.length === 0 ? '' : `<ol class="alternatives">${choice.alternatives.map((a) =>
    `<li><code>${escapeHtml(a.action)}</code> <span class="bar"><span style="width:${Math.max(0, Math.min(100, 100 * a.probability)).toFixed(1)}%"></span></span> <span class="prob">${percent(a.probability)}</span></li>`).join('')}</ol>`;
  const taken = step.valid ? '' : ' <span class="bad">not taken: the env refused it</span>';
  const explanation = step.explanation ? `<p class="explanation">${escapeHtml(step.explanation)}</p>` : '';
  return `<div class="choice">
<p class="action">Action <code>${escapeHtml(step.action)}</code> · ${probability}${of}</p>
${alternatives ? `<p class="muted small">Next alternatives:</p>${alternatives}` : ''}
<p class="reward">Reward <b>${number(step.reward)}</b>${taken}</p>
${explanation}</div>`;
}

function actionsBlock(actions: readonly string[]): string {
  if (actions.length === 0) return '';
  return `<details><summary>${plural(actions.length, 'admissible action')}</summary><ul class="actions">${actions.map((a) => `<li><code>${escapeHtml(a)}</code></li>`).join('')}</ul></details>`;
}

function stepBlock(episode: TracedEpisode, step: TracedStep, n: number): string {
  return `<article class="step" id="episode-${episode.index + 1}-step-${n}" data-step="${n}">
<h3>Step ${n}</h3>
${pictureBlock(step.picture, `The page at step ${n}, as the policy saw it`)}
<div class="columns"><div class="read">${stateBlock(step.state)}${actionsBlock(step.actions)}</div>
${choiceBlock(step)}</div>
</article>`;
}

function outcomeText(episode: TracedEpisode): string {
  const { outcome } = episode;
  const steps = plural(episode.steps.length + episode.untracedSteps, 'step');
  if (outcome === null) return `not over yet, ${steps} so far`;
  const how = outcome.envError !== undefined ? `ended by the environment (${outcome.envError})` : outcome.won ? 'success' : outcome.truncated ? 'failure: cut off at the step limit' : 'failure';
  return `${how}, reward ${number(outcome.totalReward)} in ${steps}`;
}

function outcomeClass(episode: TracedEpisode): string {
  return episode.outcome === null ? 'open' : episode.outcome.won ? 'won' : 'lost';
}

function episodeBlock(episode: TracedEpisode): string {
  const n = episode.index + 1;
  const untraced = episode.untracedSteps > 0 ? `<p class="note">${plural(episode.untracedSteps, 'more step')} played and not traced.</p>` : '';
  return `<section class="episode" id="episode-${n}" data-outcome="${outcomeClass(episode)}">
<h2>Episode ${n} <span class="muted">task <code>${escapeHtml(episode.taskId)}</code></span></h2>
<p class="instruction">${escapeHtml(episode.instruction)}</p>
<p class="outcome ${outcomeClass(episode)}">Outcome: ${escapeHtml(outcomeText(episode))}</p>
${episode.steps.map((step, i) => stepBlock(episode, step, i + 1)).join('\n')}
${untraced}<article class="end" id="episode-${n}-end">
<h3>${episode.outcome === null ? 'Now' : 'End'}</h3>
${pictureBlock(episode.last.picture, episode.outcome === null ? 'The page now' : 'The page at the end of the episode')}
${stateBlock(episode.last.state)}
<p class="outcome ${outcomeClass(episode)}">Outcome: ${escapeHtml(outcomeText(episode))}</p>
</article>
</section>`;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1b1f; --bg: #fff; --muted: #5f6368; --panel: #f4f5f7; --border: #d5d8dd; --good: #1a7f37; --bad: #b3261e; --accent: #3358d4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6ea; --bg: #15161a; --muted: #a0a4ab; --panel: #1f2127; --border: #3a3d45; --good: #57c46f; --bad: #ff8a80; --accent: #8ea8ff; } }
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; padding: 1rem 1.5rem 3rem; max-width: 1400px; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre.state { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28rem; overflow: auto; margin: 0; }
.muted { color: var(--muted); } .small { font-size: 0.85em; }
.note { color: var(--muted); border-left: 3px solid var(--accent); padding-left: 0.5rem; }
.episode { border-top: 2px solid var(--border); margin-top: 2rem; }
.step, .end { border: 1px solid var(--border); border-radius: 8px; padding: 0.5rem 1rem 0.75rem; margin: 1rem 0; }
.columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
@media (max-width: 800px) { .columns { grid-template-columns: minmax(0, 1fr); } }
img.picture { display: block; max-width: 100%; height: auto; border: 1px solid var(--border); border-radius: 4px; background: #fff; margin-bottom: 0.5rem; }
.choice p { margin: 0.25rem 0; }
.picture.missing { color: var(--muted); font-style: italic; }
.won { color: var(--good); } .lost, .bad { color: var(--bad); }
ol.alternatives { margin: 0.25rem 0; padding-left: 1.5rem; }
ol.alternatives li { margin: 0.1rem 0; }
.bar { display: inline-block; width: 6rem; height: 0.6rem; background: var(--panel); border: 1px solid var(--border); vertical-align: middle; }
.bar > span { display: block; height: 100%; background: var(--accent); }
nav ol { columns: 2; }
`;

/** The report as one HTML page (pictures inside it as `data:` URLs). */
export function traceReportHtml(report: TraceReport): string {
  const title = `${report.env} · ${report.policy} · ${report.split}`;
  const won = report.episodes.filter((e) => e.outcome?.won === true).length;
  const over = report.episodes.filter((e) => e.outcome !== null).length;
  const notes = [...(report.probabilityNote ? [report.probabilityNote] : []), ...report.notes];
  const contents = report.episodes.map((e) =>
    `<li><a href="#episode-${e.index + 1}">Episode ${e.index + 1}</a> <code>${escapeHtml(e.taskId)}</code> <span class="${outcomeClass(e)}">${escapeHtml(outcomeText(e))}</span></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Trace: ${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Trace: <code>${escapeHtml(report.policy)}</code> on ${escapeHtml(report.env)} <span class="muted">(split ${escapeHtml(report.split)})</span></h1>
<p class="summary">${plural(report.episodes.length, 'episode')} traced${over > 0 ? `, ${won} of ${over} won` : ''}; made ${escapeHtml(report.createdAt)}. Each step shows the page as the policy saw it, the state it read, the action it chose with its probability and the next alternatives, and the reward.</p>
${notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n')}
<nav aria-label="Episodes"><ol>${contents}</ol></nav>
</header>
<main>
${report.episodes.map(episodeBlock).join('\n')}
</main>
</body>
</html>
`;
}
