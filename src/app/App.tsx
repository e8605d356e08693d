import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { BufferView } from './buffer/BufferView.tsx';
import { CurriculumView } from './curriculum/CurriculumView.tsx';
import { EvaluateView } from './evaluate/EvaluateView.tsx';
import { ExperienceView } from './experience/ExperienceView.tsx';
import { GuideView } from './guide/GuideView.tsx';
import { PlayView } from './play/PlayView.tsx';
import { RunsView } from './runs/RunsView.tsx';
import { TrainView } from './train/TrainView.tsx';

/**
 * The shell: one tab per view, routed by the URL hash (#start, #play, #train, #evaluate, #buffer,
 * #experience, #curriculum, #runs). Each view keeps its state in module signals, so switching tabs
 * never loses a run or an episode. A first visit without a hash lands on Start (the guided run);
 * later visits on Play.
 */
const VIEWS = [
  { id: 'start', label: 'Start', render: () => <GuideView /> },
  { id: 'play', label: 'Play', render: () => <PlayView /> },
  { id: 'train', label: 'Train', render: () => <TrainView /> },
  { id: 'evaluate', label: 'Evaluate', render: () => <EvaluateView /> },
  { id: 'buffer', label: 'Buffer', render: () => <BufferView /> },
  { id: 'experience', label: 'Experience', render: () => <ExperienceView /> },
  { id: 'curriculum', label: 'Curriculum', render: () => <CurriculumView /> },
  { id: 'runs', label: 'Runs', render: () => <RunsView /> },
] as const;

type ViewId = (typeof VIEWS)[number]['id'];

const VISITED_KEY = 'dreamgym.visited';

/** Whether this browser opened the app before; remembered from now on. Storage that refuses counts as a visit. */
function firstVisit(): boolean {
  try {
    const first = localStorage.getItem(VISITED_KEY) === null;
    localStorage.setItem(VISITED_KEY, new Date().toISOString());
    return first;
  } catch {
    return false;
  }
}

const landing: ViewId = firstVisit() ? 'start' : 'play';

function viewFromHash(): ViewId {
  // A view's hash may carry parameters after `?` (a room's link: `#experience?room=…`).
  const id = window.location.hash.replace(/^#/, '').split('?')[0];
  return VIEWS.find((v) => v.id === id)?.id ?? landing;
}

const route = signal<ViewId>(viewFromHash());
// The view landed on goes into the address, so a reload stays on it: a first visit's Start would
// otherwise turn into Play on reload, in the middle of the guided run.
if (window.location.hash === '') history.replaceState(history.state, '', `#${route.value}`);

export function App() {
  useEffect(() => {
    const onHash = () => { route.value = viewFromHash(); };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = VIEWS.find((v) => v.id === route.value) ?? VIEWS[0];
  return (
    <div class="shell">
      <header class="topbar">
        <h1>DreamGym <span class="muted">in the browser</span></h1>
        <nav aria-label="Views">
          {VIEWS.map((v) => (
            <a key={v.id} class={`tab${v.id === current.id ? ' active' : ''}`} href={`#${v.id}`}
              aria-current={v.id === current.id ? 'page' : undefined}>{v.label}</a>
          ))}
        </nav>
      </header>
      <main id={current.id} aria-label={current.label}>
        {current.render()}
      </main>
      <footer class="muted small">
        Everything runs on this machine: the environments and the trainer in Web Workers, nothing sent to a server.
      </footer>
    </div>
  );
}
