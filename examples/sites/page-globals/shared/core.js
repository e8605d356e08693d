// A tiny task-page core: a seeded random generator, the instruction in #query, and the outcome
// in two page globals that the site.json hooks read.
window.EPISODE_REWARD = 0;
window.EPISODE_DONE = false;
function seeded(seed) {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
}
window.endEpisode = function (reward) {
  if (window.EPISODE_DONE) return;
  window.EPISODE_REWARD = reward;
  window.EPISODE_DONE = true;
};
window.startEpisode = function (seed) {
  window.EPISODE_REWARD = 0;
  window.EPISODE_DONE = false;
  const random = seeded(seed + 1);
  window.setupEpisode(random, (text) => { document.getElementById('query').textContent = text; });
};
