import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { CrashScreen } from './ErrorScreen';
import NotFound from './NotFound';
import { RequireAuth } from './RequireAuth';

describe('shell screens', () => {
  it('shows the spec crash screen with details and a refresh button', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    render(<CrashScreen error={new Error('boom')} />);
    expect(screen.getByText('Something went wrong')).toBeTruthy();
    expect(screen.getByText('An unexpected error occurred. Please refresh the page or contact support if the problem persists.')).toBeTruthy();
    expect(screen.getByText('Error details')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh Page' }));
    expect(reload).toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('shows Page Not Found', () => {
    render(<MemoryRouter><NotFound /></MemoryRouter>);
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(screen.getByText("The page you're looking for doesn't exist.")).toBeTruthy();
  });

  it('sends a visitor without a token to /login, with the way back in the address', () => {
    function LoginScreen() {
      const { search } = useLocation();
      return <p>login screen {search}</p>;
    }
    render(
      <MemoryRouter initialEntries={['/trading?tab=open']}>
        <Routes>
          <Route path="/login" element={<LoginScreen />} />
          <Route path="/trading" element={<RequireAuth><p>secret</p></RequireAuth>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText('login screen ?next=%2Ftrading%3Ftab%3Dopen')).toBeTruthy();
    expect(screen.queryByText('secret')).toBeNull();
  });
});
