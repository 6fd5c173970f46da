// A server of the test's own, started from this checkout's jar with a fresh data directory, for
// tests that need a server just started or one configured differently from the suite's.
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { createHash } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const JAR = join(ROOT, 'server/target/app/codeinterp-server.jar');

/** A loopback port no one listens on now (the kernel's pick, released for whoever starts next). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server (runtime runc unless `env` says otherwise: quicker to start sandboxes than the default
 * gVisor, which the suite's own server runs) and resolves as soon as `/healthz`
 * answers, which is before its warm pool is filled. `stop()` ends it, removes the sandboxes its
 * sessions left running, unmounts the workspace tmpfs it mounted and removes the data directory.
 * `kill()` ends it as a crash would (SIGKILL), leaving all of that for a server started after it:
 * `options.dataDir` and `options.port` start one on a data directory and port another had (whose
 * `stop()` is then the one to call, once).
 */
export async function startServer(env = {}, options = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'codeinterp-e2e-'));
  const port = options.port ?? await freePort();
  const log = join(dataDir, 'server.log');
  const out = openSync(log, 'a');
  const child = spawn('java', ['@' + join(ROOT, 'server/jvm.options'), '-jar', JAR], {
    env: {
      ...process.env,
      CODEINTERP_PORT: String(port),
      CODEINTERP_HOST: '127.0.0.1',
      CODEINTERP_DATA_DIR: dataDir,
      CODEINTERP_RUNTIME: 'runc',
      CODEINTERP_IMAGE: process.env.CODEINTERP_IMAGE || 'codeinterp-sandbox:latest',
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const server = {
    url,
    dataDir,
    port,
    log: () => readFileSync(log, 'utf8'),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 20000);
        await exited;
        clearTimeout(killer);
      }
      // its sessions' sandboxes and workspaces outlive a server's stop, by design: this one is done for good
      execFileSync('bash', [join(ROOT, 'scripts/discard-deployment.sh'), dataDir]);
    },
  };
  const deadline = Date.now() + 60000;
  for (;;) {
    try {
      await fetch(url + '/healthz');
      return server;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) {
        const why = child.exitCode !== null ? `exited with ${child.exitCode}` : 'did not answer /healthz within 60 s';
        const text = server.log();
        await server.stop();
        throw new Error(`the server ${why}:\n${text.slice(-3000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A server that requires API keys: `keys` maps each key's name to the key itself; the keys file
 * (names and SHA-256 hashes, as `new-key` prints them) lives in its data directory and goes with it.
 */
export async function startServerWithKeys(keys, env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'codeinterp-e2e-'));
  const keysFile = join(dataDir, 'keys');
  const sha = (key) => createHash('sha256').update(key).digest('hex');
  writeFileSync(keysFile, Object.entries(keys).map(([name, key]) => `${name} ${sha(key)}\n`).join(''));
  return startServer({ CODEINTERP_API_KEYS: keysFile, ...env }, { dataDir });
}
