// Does a word's meaning find the element a request needs where its words do not? For every click
// an oracle made in a buffer (`buffer seed --mix oracle=1`), each click the page admitted is scored
// against the request three ways, and the oracle's click counts as found when it scores highest
// (shared first place counts 1/ties, the chance a tie broken at random picks it):
//   words      the share of the element's words the request holds (what a policy reads today);
//   stems      the same with each word's plural ending taken off (orders → order), a stemmer's part;
//   meaning    for each of the element's words, its closest request word by cosine of their GloVe
//              vectors (1 for the same word, 0 for a word not in the table), averaged;
//   both       words first, meaning breaking its ties.
// Reported over every oracle click and over the "unnamed" ones, whose element shares no word with
// the request (Compose for "Write a new message", Place order for "Buy"); and for those, among the
// page's unnamed clicks alone (where words tie at 0 and say nothing): how often meaning ranks the
// oracle's first, against the chance of picking it at random (each such step is listed, with the
// click meaning put first among them, in the report's `picks`). The probe reads no history (an element
// already acted on still competes), so it bounds what one relation could add, not what a policy
// would do. Nothing is fitted or chosen.
//   bash results/meaning/vectors.sh        # the vectors, into artifacts/meaning/
//   node results/meaning/probe.mjs NAME=BUFFER.jsonl [NAME=BUFFER.jsonl ...] > results/meaning/probe.json
import { readFileSync } from 'node:fs';

const DIR = process.env.VECTORS ?? 'artifacts/meaning';
const { dimensions: D, words } = JSON.parse(readFileSync(`${DIR}/words.json`, 'utf8'));
const bytes = readFileSync(`${DIR}/vectors.f32`);
const vectors = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
const index = new Map(words.map((w, i) => [w, i]));

// Words that say nothing about which element is meant.
const STOP = new Set('a an the to of with and by at in on from for then it its is as your you that this be all each his her their them there what which when'.split(' '));
const wordsOf = (text) => (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => !STOP.has(w));

function cosine(a, b) {
  if (a === b) return 1;
  const i = index.get(a);
  const j = index.get(b);
  if (i === undefined || j === undefined) return 0;
  let dot = 0;
  for (let d = 0; d < D; d++) dot += vectors[i * D + d] * vectors[j * D + d];
  return dot;
}

const CLICK = /^click\[(?:#\d+ )?(.*)\]$/s;
/** A word without its plural ending: `orders` → `order`, `boxes` → `box`, `glass` stays. */
const stem = (w) => (w.length > 3 && w.endsWith('es') && /(s|x|z|ch|sh)es$/.test(w) ? w.slice(0, -2) : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

function scores(request, element) {
  const mine = wordsOf(element);
  if (mine.length === 0) return { words: 0, stems: 0, meaning: 0 };
  const asked = new Set(wordsOf(request));
  const wordsScore = mine.filter((w) => asked.has(w)).length / mine.length;
  const askedStems = new Set([...asked].map(stem));
  const stemsScore = mine.filter((w) => askedStems.has(stem(w))).length / mine.length;
  let meaning = 0;
  for (const w of mine) meaning += Math.max(0, ...[...asked].map((a) => cosine(w, a)));
  return { words: wordsScore, stems: stemsScore, meaning: meaning / mine.length };
}

/** The chance the oracle's candidate comes first under `key` (ties broken at random). */
function found(candidates, oracle, key) {
  const best = Math.max(...candidates.map(key));
  const top = candidates.filter((c) => key(c) === best);
  return top.includes(oracle) ? 1 / top.length : 0;
}

const rankers = {
  words: (c) => c.words,
  stems: (c) => c.stems,
  meaning: (c) => c.meaning,
  both: (c) => c.words * 1e6 + c.meaning,
};

const report = {};
for (const arg of process.argv.slice(2)) {
  const [name, file] = arg.includes('=') ? arg.split('=') : [arg, arg];
  const tally = { all: { steps: 0 }, unnamed: { steps: 0 } };
  for (const group of Object.values(tally)) for (const r of Object.keys(rankers)) group[r] = 0;
  const amongUnnamed = { steps: 0, meaning: 0, stems: 0, chance: 0 };
  const picks = [];
  const examples = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const t = JSON.parse(line);
    if (!t.action || !CLICK.test(t.action)) continue;
    const clicks = t.state.actions.filter((a) => CLICK.test(a));
    if (clicks.length < 2 || !clicks.includes(t.action)) continue;
    const candidates = clicks.map((a) => ({ action: a, ...scores(t.instruction, CLICK.exec(a)[1]) }));
    const oracle = candidates[clicks.indexOf(t.action)];
    const groups = oracle.words === 0 ? ['all', 'unnamed'] : ['all'];
    for (const g of groups) {
      tally[g].steps++;
      for (const [r, key] of Object.entries(rankers)) tally[g][r] += found(candidates, oracle, key);
    }
    const unnamed = candidates.filter((c) => c.words === 0);
    if (oracle.words === 0 && unnamed.length >= 2) {
      amongUnnamed.steps++;
      const share = found(unnamed, oracle, rankers.meaning);
      amongUnnamed.meaning += share;
      amongUnnamed.stems += found(unnamed, oracle, rankers.stems);
      amongUnnamed.chance += 1 / unnamed.length;
      const pick = unnamed.reduce((a, b) => (b.meaning > a.meaning ? b : a));
      picks.push({ request: t.instruction, oracle: t.action, meaningPick: pick.action, found: Number(share.toFixed(3)) });
    }
    if (oracle.words === 0 && examples.length < 12) {
      const byMeaning = [...candidates].sort((a, b) => b.meaning - a.meaning);
      examples.push({ request: t.instruction, oracle: t.action, meaningFirst: byMeaning[0].action, oracleMeaning: Number(oracle.meaning.toFixed(3)), firstMeaning: Number(byMeaning[0].meaning.toFixed(3)) });
    }
  }
  const share = (g) => Object.fromEntries(Object.keys(rankers).map((r) => [r, g.steps ? Number((g[r] / g.steps).toFixed(3)) : null]));
  const rate = (x) => (amongUnnamed.steps ? Number((x / amongUnnamed.steps).toFixed(3)) : null);
  report[name] = {
    file,
    steps: tally.all.steps,
    unnamedSteps: tally.unnamed.steps,
    all: share(tally.all),
    unnamed: share(tally.unnamed),
    amongUnnamed: { steps: amongUnnamed.steps, meaning: rate(amongUnnamed.meaning), stems: rate(amongUnnamed.stems), chance: rate(amongUnnamed.chance), picks },
    examples,
  };
}

console.log(JSON.stringify(report, null, 1));
console.error('| buffer | oracle clicks | found by words, stems, meaning, both | unnamed clicks | found by words, stems, meaning, both | among the unnamed clicks alone: steps, meaning, stems, chance |');
console.error('|---|---|---|---|---|---|');
for (const [name, r] of Object.entries(report)) {
  const u = r.amongUnnamed;
  console.error(`| ${name} | ${r.steps} | ${r.all.words}, ${r.all.stems}, ${r.all.meaning}, ${r.all.both} | ${r.unnamedSteps} | ${r.unnamed.words}, ${r.unnamed.stems}, ${r.unnamed.meaning}, ${r.unnamed.both} | ${u.steps}, ${u.meaning}, ${u.stems}, ${u.chance} |`);
}
