// Starts the fake OpenAI-compatible model (bin/aifake) with a delay per
// answer: it prints {"url"} on its first line, then serves until stopped.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const binary = resolve(import.meta.dirname, '..', '..', 'bin', 'aifake');

export async function startAIFake(delay = '200ms') {
  const proc = spawn(binary, ['--addr', '127.0.0.1:0', '--delay', delay], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let errLog = '';
  proc.stderr.on('data', (c) => (errLog += c));
  const info = await new Promise((resolveInfo, reject) => {
    const timer = setTimeout(() => reject(new Error(`aifake did not start in 30 s:\n${errLog}`)), 30_000);
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
      reject(new Error(`aifake exited with ${code}:\n${errLog}`));
    });
  });
  return {
    url: info.url,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}
