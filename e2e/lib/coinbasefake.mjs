// Starts the fake Coinbase exchange (bin/coinbasefake): it prints its URLs
// and a fresh CDP key on its first line, then serves until stopped.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const binary = resolve(import.meta.dirname, '..', '..', 'bin', 'coinbasefake');

export async function startCoinbaseFake() {
  const proc = spawn(binary, ['--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let errLog = '';
  proc.stderr.on('data', (c) => (errLog += c));
  const info = await new Promise((resolveInfo, reject) => {
    const timer = setTimeout(() => reject(new Error(`coinbasefake did not start in 30 s:\n${errLog}`)), 30_000);
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolveInfo(JSON.parse(out.slice(0, nl)));
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`coinbasefake exited with ${code}:\n${errLog}`));
    });
  });
  return {
    ...info,
    // env points kestrel at the fake for REST and both WebSockets.
    env: { KESTREL_COINBASE_API_URL: info.api_url, KESTREL_COINBASE_WS_URL: info.ws_url, KESTREL_COINBASE_USER_WS_URL: info.ws_url },
    async setPrice(symbol, price) {
      const res = await fetch(`${info.api_url}/fake/price`, { method: 'POST', body: JSON.stringify({ symbol, price }) });
      if (res.status !== 204) throw new Error(`set price: ${res.status} ${await res.text()}`);
    },
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}
