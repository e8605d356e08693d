/**
 * DreamGym's loop in one picture: the policy acts in a synthetic environment whose experience model
 * predicts each step from similar real steps in the replay buffer, the curriculum picks the tasks,
 * and the real environment judges the result (and supplied the buffer's steps). Drawn in SVG with
 * the page's colours, so it reads in both themes.
 */

interface Box {
  id: string;
  label: string;
  x: number;
  y: number;
  accent?: boolean;
}

const W = 176;
const H = 46;
const BOXES: Box[] = [
  { id: 'policy', label: 'Policy', x: 10, y: 120, accent: true },
  { id: 'synthetic', label: 'Synthetic environment', x: 262, y: 120 },
  { id: 'model', label: 'Experience model', x: 514, y: 120 },
  { id: 'buffer', label: 'Replay buffer', x: 514, y: 234 },
  { id: 'curriculum', label: 'Curriculum', x: 262, y: 16 },
  { id: 'real', label: 'Real environment', x: 10, y: 234 },
];

const centre = (id: string) => {
  const b = BOXES.find((x) => x.id === id) as Box;
  return { x: b.x + W / 2, y: b.y + H / 2 };
};

/** An arrow from the edge of one box towards another, with its label at the middle. */
function Arrow({ from, to, label, dy = 0 }: { from: string; to: string; label: string; dy?: number }) {
  const a = centre(from);
  const b = centre(to);
  const dx = b.x - a.x;
  const dyy = b.y - a.y;
  // Leave each box at its edge: clip the segment to the boxes' half-sizes (every box has the same).
  const edge = Math.min(Math.abs(dx) > 0 ? W / 2 / Math.abs(dx) : Infinity, Math.abs(dyy) > 0 ? H / 2 / Math.abs(dyy) : Infinity);
  const ta = edge;
  const tb = edge;
  const x1 = a.x + dx * ta;
  const y1 = a.y + dyy * ta + dy;
  const x2 = b.x - dx * tb;
  const y2 = b.y - dyy * tb + dy;
  return (
    <g class="loop-arrow">
      <line x1={x1} y1={y1} x2={x2} y2={y2} marker-end="url(#loop-head)" />
      <text x={(x1 + x2) / 2} y={(y1 + y2) / 2 - 6} text-anchor="middle">{label}</text>
    </g>
  );
}

export function LoopPicture() {
  return (
    <svg class="loop-picture" viewBox="0 0 700 300" role="img" aria-labelledby="loop-title loop-desc">
      <title id="loop-title">The DreamGym loop</title>
      <desc id="loop-desc">
        The policy acts in a synthetic environment. For each action, the experience model predicts the next state and the reward from
        similar real steps it retrieves from the replay buffer. The curriculum chooses the tasks whose outcome varies most. The real
        environment filled the buffer with real steps, and judges the trained policy.
      </desc>
      <defs>
        <marker id="loop-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" />
        </marker>
      </defs>
      <Arrow from="policy" to="synthetic" label="action" dy={-8} />
      <Arrow from="synthetic" to="policy" label="" dy={8} />
      <text class="loop-note" x={224} y={182} text-anchor="middle">state, reward</text>
      <Arrow from="synthetic" to="model" label="asks" />
      <Arrow from="model" to="buffer" label="retrieves" />
      <Arrow from="curriculum" to="synthetic" label="tasks" />
      <Arrow from="real" to="buffer" label="real steps" />
      <Arrow from="policy" to="real" label="judged in" />
      {BOXES.map((b) => (
        <g key={b.id} class={`loop-box${b.accent ? ' accent' : ''}`}>
          <rect x={b.x} y={b.y} width={W} height={H} rx={8} />
          <text x={b.x + W / 2} y={b.y + H / 2 + 5} text-anchor="middle">{b.label}</text>
        </g>
      ))}
    </svg>
  );
}
