// The task harness of these pages: a seeded random generator, the task text in #task, and the
// outcome in window.RESULT (read by site.json's hooks).
window.RESULT = { reward: 0, done: false };
window.seededRandom = function (seed) {
  var a = (seed * 2654435761 + 12345) >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    var t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
window.pick = function (random, list) {
  return list[Math.floor(random() * list.length)];
};
window.shuffle = function (random, list) {
  var out = list.slice();
  for (var i = out.length - 1; i > 0; i--) {
    var j = Math.floor(random() * (i + 1));
    var t = out[i]; out[i] = out[j]; out[j] = t;
  }
  return out;
};
window.finish = function (won) {
  if (window.RESULT.done) return;
  window.RESULT = { reward: won ? 1 : 0, done: true };
};
window.startEpisode = function (seed) {
  window.RESULT = { reward: 0, done: false };
  var random = window.seededRandom(seed);
  document.getElementById('task').textContent = window.setup(random);
};
