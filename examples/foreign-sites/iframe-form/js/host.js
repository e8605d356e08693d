// The host page's side of an embedded form: a seeded episode, the task text in #task, the
// outcome in window.outcome (site.json reads it), and a way to wait for the iframe to be ready.
window.outcome = { reward: 0, done: false };
window.seededRandom = function (seed) {
  let a = (seed * 2654435761 + 31337) >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
window.pickFrom = function (random, list) {
  return list[Math.floor(random() * list.length)];
};
window.report = function (won) {
  if (window.outcome.done) return;
  window.outcome = { reward: won ? 1 : 0, done: true };
};
window.frameReady = function (frame) {
  return new Promise(function (resolve) {
    const doc = frame.contentDocument;
    if (doc && doc.readyState === 'complete' && doc.location.href !== 'about:blank') return resolve();
    frame.addEventListener('load', function () { resolve(); }, { once: true });
  });
};
window.startEpisode = async function (seed) {
  window.outcome = { reward: 0, done: false };
  document.getElementById('task').textContent = window.setupTask(window.seededRandom(seed));
  await window.frameReady(document.querySelector('iframe'));
};
