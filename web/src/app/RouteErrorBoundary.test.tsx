import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, useLocation, useRoutes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './ErrorScreen';

function Boom(): never {
  throw new Error('screen failed');
}

// The same wiring as AppRoutes: the boundary keyed by the path around useRoutes.
function Routes() {
  const { pathname } = useLocation();
  const element = useRoutes([
    { path: '/boom', element: <Boom /> },
    { path: '/ok', element: <p>fine screen</p> },
  ]);
  return (
    <>
      <Link to="/ok">go on</Link>
      <RouteErrorBoundary resetKey={pathname}>{element}</RouteErrorBoundary>
    </>
  );
}

describe('route error boundary', () => {
  it('shows the crash screen for a screen that throws, and the next screen after navigating', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <MemoryRouter initialEntries={['/boom']}>
        <Routes />
      </MemoryRouter>,
    );
    expect(screen.getByText('Something went wrong')).toBeTruthy();
    expect(screen.getByText(/screen failed/)).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'go on' }));
    expect(screen.getByText('fine screen')).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    err.mockRestore();
  });
});
