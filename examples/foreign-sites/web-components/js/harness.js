// Seeded episodes for the component demos. The outcome is written on <body data-outcome="pass|fail">;
// the task text goes into <p id="task">.
export function seeded(seed) {
  let a = (seed * 2654435761 + 7) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = (random, list) => list[Math.floor(random() * list.length)];

export function shuffle(random, list) {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function decide(pass) {
  if ('outcome' in document.body.dataset) return;
  document.body.dataset.outcome = pass ? 'pass' : 'fail';
}

/** Installs window.startEpisode(seed): clears the outcome, then `setup(random)` returns the task text. */
export function episode(setup) {
  window.startEpisode = (seed) => {
    delete document.body.dataset.outcome;
    document.getElementById('task').textContent = setup(seeded(seed));
  };
}
