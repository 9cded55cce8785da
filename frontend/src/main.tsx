import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { listenForInstallPrompt } from './features/pwa/install-prompt';
import './index.css';

listenForInstallPrompt();

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

const app = (
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>
);

// The public pages arrive drawn and are taken over by their own light bundle (src/public/main.tsx);
// every page this entry serves starts empty.
createRoot(container).render(app);
