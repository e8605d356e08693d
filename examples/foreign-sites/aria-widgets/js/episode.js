// Episode plumbing for the widget demos: window.episode holds the outcome that site.json reads.
window.episode = { reward: 0, done: false };
window.rng = function (seed) {
  let a = (seed * 2654435761 + 4242) >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
window.shuffled = function (random, list) {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};
window.settle = function (won) {
  if (window.episode.done) return;
  window.episode = { reward: won ? 1 : 0, done: true };
};
window.startEpisode = function (seed) {
  window.episode = { reward: 0, done: false };
  document.getElementById('task').textContent = window.setupTask(window.rng(seed));
};

// A div that behaves as a button: click, Enter and Space.
window.makeButton = function (el, onActivate) {
  el.addEventListener('click', onActivate);
  el.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onActivate(e);
    }
  });
};
