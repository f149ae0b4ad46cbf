import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { registerServiceWorker } from '@/lib/serviceWorker';
import { applyTheme, storedPreference } from '@/lib/theme';
import './index.css';

applyTheme(storedPreference());

// React takes the main thread once the browser has painted the loading shell in index.html (the
// name and "Loading the dashboard"), not before: on a busy machine the first render would
// otherwise hold the first paint back by tens of milliseconds. The built stylesheet loads without
// blocking that paint (vite.config.ts); it is switched on, and has arrived, before React renders,
// so no screen is ever drawn unstyled. A tab opened in the background gets no animation frames,
// so a timer starts it there.
let started = false;
function start() {
  if (started) return;
  started = true;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

function stylesheetReady(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[data-app-css]');
  if (!link) return Promise.resolve(); // the dev server injects the styles with the script
  return new Promise((resolve) => {
    const on = () => {
      link.media = 'all';
      resolve();
    };
    if (link.sheet) on();
    else {
      link.addEventListener('load', on, { once: true });
      link.addEventListener('error', on, { once: true }); // start anyway: a screen beats a blank page
    }
  });
}

void stylesheetReady().then(() => {
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 100);
});

// After the first paint: the worker is for notifications, not for loading the app.
window.addEventListener('load', () => void registerServiceWorker());
