import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { registerServiceWorker } from '@/lib/serviceWorker';
import { applyTheme, storedTheme } from '@/lib/theme';
import './index.css';

applyTheme(storedTheme());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// After the first paint: the worker is for notifications, not for loading the app.
window.addEventListener('load', () => void registerServiceWorker());
