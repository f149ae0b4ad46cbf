import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor wait up to 1 s by default: on a busy 2-core machine a
// screen's second query (the signed-in user, then the rows) can take longer,
// which failed tests that pass alone. A thing that never appears still fails,
// after 5 s.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
