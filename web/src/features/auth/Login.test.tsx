import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Login from './routes/Login';
import Register from './routes/Register';

function renderWith(ui: React.ReactElement, qc = new QueryClient()) {
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Stubs fetch: GET /api/auth/setup answers setup, any other call gets answer(). */
function serve(answer: () => Response, setup = { needs_first_operator: false, first_operator_from_cli: false, registration_open: false }) {
  const other = vi.fn(answer);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (url === '/api/auth/setup' ? json(200, { success: true, data: setup }) : other())),
  );
  return other;
}

describe('auth screens', () => {
  it('mirrors validation before calling the server', async () => {
    const fetchMock = serve(() => json(500, {}));
    renderWith(<Register />);
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's message on a failed login", async () => {
    serve(() => json(401, { success: false, error: { code: 'unauthorized', message: 'Invalid email or password' } }));
    vi.stubGlobal('location', { ...window.location, pathname: '/login', assign: vi.fn() });
    renderWith(<Login />);
    await userEvent.type(screen.getByLabelText('Email'), 'a@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
  });

  it('shows server field errors under their fields', async () => {
    serve(() => json(400, { success: false, error: { code: 'invalid', message: 'Enter a valid email address', fields: { email: 'Enter a valid email address' } } }));
    renderWith(<Login />);
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid email address', { selector: 'p' })).toBeTruthy();
  });

  it('says the first operator comes from the command line on an exposed server with no account', async () => {
    serve(() => json(500, {}), { needs_first_operator: true, first_operator_from_cli: true, registration_open: false });
    renderWith(<Register />);
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('This server is reachable from the network, so its first operator is created on the server');
    expect(note.textContent).toContain('kestrel user add --email you@example.com --name "Your Name" --role operator');
  });

  it('says nothing of it once an account exists or on loopback', async () => {
    const other = serve(() => json(500, {}), { needs_first_operator: false, first_operator_from_cli: true, registration_open: false });
    const qc = new QueryClient();
    renderWith(<Login />, qc);
    await vi.waitFor(() => expect(qc.getQueryState(['auth', 'setup'])?.status).toBe('success'));
    expect(screen.queryByRole('note')).toBeNull();
    expect(other).not.toHaveBeenCalled();
  });

  it('offers "Create one" only while the server says registration is open', async () => {
    serve(() => json(500, {}), { needs_first_operator: false, first_operator_from_cli: false, registration_open: false });
    const closed = new QueryClient();
    const { unmount } = renderWith(<Login />, closed);
    await vi.waitFor(() => expect(closed.getQueryState(['auth', 'setup'])?.status).toBe('success'));
    expect(screen.queryByRole('link', { name: 'Create one' })).toBeNull();
    unmount();

    serve(() => json(500, {}), { needs_first_operator: false, first_operator_from_cli: false, registration_open: true });
    renderWith(<Login />);
    expect((await screen.findByRole('link', { name: 'Create one' })).getAttribute('href')).toBe('/register');
  });

  it.each([
    ['a redirect', { pathname: '/login', state: { from: '/trading/orders?tab=open' } }],
    ['an expired session', { pathname: '/login', search: '?next=%2Ftrading%2Forders%3Ftab%3Dopen' }],
  ])('returns to the deep link after signing in from %s', async (_, entry) => {
    serve(() => json(200, { success: true, data: { token: 't', user: { id: 'u1', email: 'a@example.com', name: 'A', role: 'trader' } } }));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/login" element={<Login />} />
            <Route path="/trading/orders" element={<p>orders screen</p>} />
            <Route path="/dashboard" element={<p>dashboard</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.type(screen.getByLabelText('Email'), 'a@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'kestrel-pass-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('orders screen')).toBeTruthy();
  });
});
