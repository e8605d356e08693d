import { PlayView } from './play/PlayView.tsx';

/**
 * The shell. Views are added by the issues that build their parts (Train, Evaluate, Buffer,
 * Experience, Curriculum, Runs); Play is the first.
 */
export function App() {
  return (
    <div class="shell">
      <header class="topbar">
        <h1>DreamGym <span class="muted">in the browser</span></h1>
        <nav aria-label="Views">
          <a class="tab active" href="#play" aria-current="page">Play</a>
        </nav>
      </header>
      <main id="play">
        <PlayView />
      </main>
      <footer class="muted small">
        Everything runs on this machine: the environments in a Web Worker, nothing sent to a server.
      </footer>
    </div>
  );
}
