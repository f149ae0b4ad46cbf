import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { makeQueryClient } from '@/lib/queryClient';
import { ErrorBoundary } from './ErrorScreen';
import { AppRoutes } from './router';

export function App() {
  const [client] = useState(makeQueryClient);
  return (
    <ErrorBoundary>
      <QueryClientProvider client={client}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
