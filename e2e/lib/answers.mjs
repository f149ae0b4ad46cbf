// Records the API's answers of the end-to-end run (KESTREL_E2E_ANSWERS names
// a directory), one JSON line each, for the schema check against the OpenAPI
// description that `make test-e2e` runs after the tests
// (go test -run TestRecordedAnswers ./httpapi/openapi/openapitest/).
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.KESTREL_E2E_ANSWERS;
const file = dir ? join(dir, `answers-${process.pid}.jsonl`) : '';
if (dir) mkdirSync(dir, { recursive: true });

export const recording = Boolean(dir);

// record keeps one answer: the request's method and path (with its query),
// the status, the headers (lower-case names) and the body as text.
export function record(method, url, status, headers, body) {
  if (!dir) return;
  const u = new URL(url);
  if (!u.pathname.startsWith('/api/')) return;
  appendFileSync(file, JSON.stringify({ method, url: u.pathname + u.search, status, headers, body }) + '\n');
}

// recordPage records every /api answer a page receives with a JSON body.
export function recordPage(page) {
  if (!dir) return;
  page.on('response', async (res) => {
    const headers = res.headers();
    if (!(headers['content-type'] ?? '').startsWith('application/json')) return;
    let body;
    try {
      body = await res.text();
    } catch {
      return; // the page navigated away before the body was read
    }
    record(res.request().method(), res.url(), res.status(), headers, body);
  });
}
