import { render } from 'preact';
import { App } from './App.tsx';
import './styles.css';

render(<App />, document.getElementById('app') as HTMLElement);

// Offline after the first visit (vite.config.ts's VitePWA): register the service worker, which
// updates itself when a new build is deployed. Only in a build (the dev server and the browser
// tests have none); MODE, not PROD: the e2e suite builds with NODE_ENV=test.
if (import.meta.env.MODE === 'production' && 'serviceWorker' in navigator) {
  void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }));
}
