// Shared bits of the demo pages: a seeded generator, a sleep, and the outcome in window.__result.
window.__result = { reward: 0, done: false };
window.makeRandom = function (seed) {
  let a = (seed * 2654435761 + 777) >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
window.sleep = function (ms) {
  return new Promise(function (resolve) { setTimeout(resolve, ms); });
};
window.done = function (won) {
  if (window.__result.done) return;
  window.__result = { reward: won ? 1 : 0, done: true };
};
window.shuffleWith = function (random, list) {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};
// The task's own data (what the instruction names) is read before the page's app starts loading.
window.startEpisode = async function (seed) {
  window.__result = { reward: 0, done: false };
  const random = window.makeRandom(seed);
  // 300 to 1500 ms: how long "the server" takes this episode.
  const latency = 300 + Math.floor(random() * 1200);
  const data = window.TASK_DATA ? await fetch(window.TASK_DATA).then((r) => r.json()) : null;
  document.getElementById('task').textContent = window.begin(random, latency, data);
};
