// Starts the real kestrel binary on a free port with a temporary data directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { record } from './answers.mjs';

const binary = resolve(import.meta.dirname, '..', '..', 'bin', 'kestrel');

// opts.addr and opts.dataDir restart a killed server where it was (same port, same database).
export async function startServer(extraEnv = {}, opts = {}) {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kestrel-e2e-'));
  const proc = spawn(binary, ['serve', '--addr', opts.addr ?? '127.0.0.1:0', '--data-dir', dataDir], {
    env: { ...process.env, KESTREL_LOG_LEVEL: 'INFO', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`kestrel did not start in 30 s:\n${log}`)), 30_000);
    const onData = (chunk) => {
      log += chunk;
      const m = /msg="kestrel serving" url=(http:\/\/[\d.:]+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kestrel exited with ${code}:\n${log}`));
    });
  });
  return {
    url,
    dataDir,
    log: () => log,
    // kill ends the process at once (SIGKILL) and keeps the data directory.
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// api calls the server's JSON API and returns the parsed envelope.
export async function api(base, method, path, { token, body } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  record(method, base + path, res.status, Object.fromEntries(res.headers), text);
  return { status: res.status, ...JSON.parse(text) };
}
