// A real llama.cpp llama-server in Docker serving the tiny deterministic model that
// test-images/llama-server/make-model.py writes (its README says what that proves and what it does
// not), as server/src/test/.../LlamaServer.java starts it. The image is built (cached by a hash of
// its inputs) unless CODEINTERP_LLAMA_IMAGE names one.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './server.js';

const RECIPE = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-images', 'llama-server');
export const LLAMA_API_KEY = 'sk-test-llama-e2e-7c2d91';
/** What the model's tool call runs, and its answer after seeing 42 (make-model.py). */
export const TOOL_CODE = 'print(6 * 7)';
export const ANSWER_SEEN = 'The code printed 42, so the answer is 42.';

const run = (cmd, args, timeout) => execFileSync(cmd, args, { encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'inherit'] }).trim();

export async function startLlamaServer() {
  const image = process.env.CODEINTERP_LLAMA_IMAGE || run('bash', [join(RECIPE, 'build-image.sh')], 600000);
  const modelDir = mkdtempSync(join(tmpdir(), 'llama-model-'));
  chmodSync(modelDir, 0o755);
  run('docker', ['run', '--rm', '--network', 'none', '-v', `${join(RECIPE, 'make-model.py')}:/make-model.py:ro`,
    '-v', `${modelDir}:/out`, image, 'python3', '/make-model.py', '/out/model.gguf'], 120000);
  // The host's network, not a published port: a container on Docker's bridge adds a network
  // interface, and Chromium then aborts whatever the page has in flight (ERR_NETWORK_CHANGED).
  const port = await freePort();
  const id = run('docker', ['run', '-d', '--rm', '--label', 'codeinterp.test=llama-server', '--network', 'host',
    '-v', `${modelDir}:/models:ro`, image, 'llama-server', '-m', '/models/model.gguf', '--jinja',
    '--host', '127.0.0.1', '--port', String(port), '-c', '8192', '--api-key', LLAMA_API_KEY], 60000);
  const close = () => {
    try { run('docker', ['rm', '-f', id], 30000); } catch { /* it runs with --rm and a test label */ }
    rmSync(modelDir, { recursive: true, force: true });
  };
  try {
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60000;
    for (;;) {
      try {
        // a timeout on each try: a connection must not hang the loop while llama-server starts
        if ((await fetch(origin + '/health', { signal: AbortSignal.timeout(2000) })).status === 200) break;
      } catch { /* still starting */ }
      if (Date.now() > deadline) throw new Error('llama-server did not become healthy: ' + run('docker', ['logs', '--tail', '40', id], 30000));
      await new Promise((r) => setTimeout(r, 200));
    }
    return { baseUrl: origin + '/v1', close };
  } catch (e) {
    close();
    throw e;
  }
}
