/**
 * DreamGym's loop in one picture: the policy acts in a synthetic environment whose experience model
 * predicts each step from similar real steps in the replay buffer, the curriculum picks the tasks,
 * and the real environment judges the result (and supplied the buffer's steps). Drawn in SVG with
 * the page's colours, so it reads in both themes.
 *
 * Two drawings of the same loop: a wide one, and a tall one for a narrow column (a phone), where the
 * wide one scaled down would shrink its text below reading size. CSS shows the one that fits the
 * width the picture has (a container query on `.loop-picture`), so only one is ever in view and in
 * the accessibility tree.
 */

type BoxId = 'policy' | 'synthetic' | 'model' | 'buffer' | 'curriculum' | 'real';

interface Box {
  x: number;
  y: number;
  /** The label, one line per entry. */
  lines: string[];
}

type Point = readonly [number, number];

interface Arrow {
  /** The line, from its start to the point its head touches. */
  points: Point[];
  label: string;
  /** Where the label sits, and which of its ends is there. */
  at: Point;
  anchor?: 'start' | 'middle' | 'end';
}

interface Layout {
  id: string;
  width: number;
  height: number;
  box: { w: number; h: number };
  boxes: Record<BoxId, Box>;
  arrows: Arrow[];
}

const DESCRIPTION = 'The policy acts in a synthetic environment. For each action, the experience model predicts the next state and the reward from '
  + 'similar real steps it retrieves from the replay buffer. The curriculum chooses the tasks whose outcome varies most. The real '
  + 'environment filled the buffer with real steps, and judges the trained policy.';

/** The wide drawing: the policy and the dream across the middle, the real world below. */
function wideLayout(): Layout {
  const w = 176;
  const h = 46;
  const boxes: Record<BoxId, Box> = {
    policy: { x: 10, y: 120, lines: ['Policy'] },
    synthetic: { x: 262, y: 120, lines: ['Synthetic environment'] },
    model: { x: 514, y: 120, lines: ['Experience model'] },
    buffer: { x: 514, y: 234, lines: ['Replay buffer'] },
    curriculum: { x: 262, y: 16, lines: ['Curriculum'] },
    real: { x: 10, y: 234, lines: ['Real environment'] },
  };
  const centre = (id: BoxId): Point => [boxes[id].x + w / 2, boxes[id].y + h / 2];
  /** From the edge of one box to the edge of another (every box has the same size), label above its middle. */
  const between = (from: BoxId, to: BoxId, label: string, dy = 0): Arrow => {
    const [ax, ay] = centre(from);
    const [bx, by] = centre(to);
    const dx = bx - ax;
    const dyy = by - ay;
    const edge = Math.min(Math.abs(dx) > 0 ? w / 2 / Math.abs(dx) : Infinity, Math.abs(dyy) > 0 ? h / 2 / Math.abs(dyy) : Infinity);
    const start: Point = [ax + dx * edge, ay + dyy * edge + dy];
    const end: Point = [bx - dx * edge, by - dyy * edge + dy];
    const mid: Point = [(start[0] + end[0]) / 2, (start[1] + end[1]) / 2];
    // A vertical arrow's label beside it, any other's above its middle.
    return dx === 0
      ? { points: [start, end], label, at: [mid[0] + 8, mid[1] + 4], anchor: 'start' }
      : { points: [start, end], label, at: [mid[0], mid[1] - 6] };
  };
  return {
    id: 'wide',
    width: 700,
    height: 300,
    box: { w, h },
    boxes,
    arrows: [
      between('policy', 'synthetic', 'action', -8),
      { ...between('synthetic', 'policy', '', 8), label: 'state, reward', at: [224, 182] },
      between('synthetic', 'model', 'asks'),
      between('model', 'buffer', 'retrieves'),
      between('curriculum', 'synthetic', 'tasks'),
      between('real', 'buffer', 'real steps'),
      between('policy', 'real', 'judged in'),
    ],
  };
}

/**
 * The tall drawing, for a column about as wide as a phone: two columns of boxes, the dream on the
 * left (curriculum, synthetic environment, policy, real environment), the model and its buffer on
 * the right. Drawn 330 units wide, so at a phone's width it is shown about at its own size.
 */
function narrowLayout(): Layout {
  const w = 122;
  const h = 50;
  const left = 10;
  const right = 198;
  const boxes: Record<BoxId, Box> = {
    curriculum: { x: left, y: 8, lines: ['Curriculum'] },
    synthetic: { x: left, y: 104, lines: ['Synthetic', 'environment'] },
    model: { x: right, y: 104, lines: ['Experience', 'model'] },
    policy: { x: left, y: 214, lines: ['Policy'] },
    buffer: { x: right, y: 214, lines: ['Replay', 'buffer'] },
    real: { x: left, y: 318, lines: ['Real', 'environment'] },
  };
  const lx = left + w / 2;
  const rx = right + w / 2;
  const bottom = (id: BoxId) => boxes[id].y + h;
  const top = (id: BoxId) => boxes[id].y;
  return {
    id: 'narrow',
    width: 330,
    height: 378,
    box: { w, h },
    boxes,
    arrows: [
      { points: [[lx, bottom('curriculum')], [lx, top('synthetic')]], label: 'tasks', at: [lx + 8, (bottom('curriculum') + top('synthetic')) / 2 + 5], anchor: 'start' },
      { points: [[lx - 10, top('policy')], [lx - 10, bottom('synthetic')]], label: 'action', at: [lx - 17, (bottom('synthetic') + top('policy')) / 2 + 5], anchor: 'end' },
      { points: [[lx + 10, bottom('synthetic')], [lx + 10, top('policy')]], label: 'state, reward', at: [lx + 17, (bottom('synthetic') + top('policy')) / 2 + 5], anchor: 'start' },
      { points: [[left + w, top('synthetic') + h / 2], [right, top('model') + h / 2]], label: 'asks', at: [(left + w + right) / 2, top('synthetic') + h / 2 - 7] },
      { points: [[rx, bottom('model')], [rx, top('buffer')]], label: 'retrieves', at: [rx + 8, (bottom('model') + top('buffer')) / 2 + 5], anchor: 'start' },
      { points: [[lx, bottom('policy')], [lx, top('real')]], label: 'judged in', at: [lx + 8, (bottom('policy') + top('real')) / 2 + 5], anchor: 'start' },
      { points: [[left + w, top('real') + h / 2], [rx, top('real') + h / 2], [rx, bottom('buffer')]], label: 'real steps', at: [(left + w + rx) / 2, top('real') + h / 2 - 7] },
    ],
  };
}

const LAYOUTS = [wideLayout(), narrowLayout()];

/** Box labels: 14 units, one line or two. */
const LINE = 17;

function Drawing({ layout }: { layout: Layout }) {
  const head = `loop-head-${layout.id}`;
  const title = `loop-title-${layout.id}`;
  const desc = `loop-desc-${layout.id}`;
  const { w, h } = layout.box;
  return (
    <svg class={`loop-${layout.id}`} viewBox={`0 0 ${layout.width} ${layout.height}`} role="img" aria-labelledby={`${title} ${desc}`}>
      <title id={title}>The DreamGym loop</title>
      <desc id={desc}>{DESCRIPTION}</desc>
      <defs>
        <marker id={head} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" />
        </marker>
      </defs>
      {layout.arrows.map((a, i) => (
        <g key={i} class="loop-arrow">
          <polyline points={a.points.map((p) => p.join(',')).join(' ')} marker-end={`url(#${head})`} />
          {a.label !== '' && <text x={a.at[0]} y={a.at[1]} text-anchor={a.anchor ?? 'middle'}>{a.label}</text>}
        </g>
      ))}
      {(Object.entries(layout.boxes) as [BoxId, Box][]).map(([id, b]) => (
        <g key={id} class={`loop-box${id === 'policy' ? ' accent' : ''}`}>
          <rect x={b.x} y={b.y} width={w} height={h} rx={8} />
          <text x={b.x + w / 2} y={b.y + h / 2 + 5 - ((b.lines.length - 1) * LINE) / 2} text-anchor="middle">
            {b.lines.map((line, i) => <tspan key={i} x={b.x + w / 2} dy={i === 0 ? 0 : LINE}>{line}</tspan>)}
          </text>
        </g>
      ))}
    </svg>
  );
}

export function LoopPicture() {
  return (
    <div class="loop-picture">
      {LAYOUTS.map((layout) => <Drawing key={layout.id} layout={layout} />)}
    </div>
  );
}
