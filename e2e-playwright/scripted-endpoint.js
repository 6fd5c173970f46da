// An OpenAI-compatible chat endpoint of a test's own, for what a real model cannot be made to do on
// cue (hang mid-stream, answer 429, ask for code that never ends). It answers CORS as llama-server
// does, so a browser's relay frame may call it too, and keeps every request it got.
import { createServer } from 'node:http';

/** One streamed chunk of a chat completion. */
export const chunk = (delta, finish = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** A streamed answer that says `text` and stops. */
export const answer = (text) => chunk({ content: text }) + chunk({}, 'stop') + 'data: [DONE]\n\n';

/** A streamed reply that says `text`, then asks to run `code`, its arguments split after `splitAt` characters (as OpenAI and vLLM do). */
export function toolCall(text, code, splitAt) {
  const args = JSON.stringify({ code, language: 'python' });
  return chunk({ content: text })
    + chunk({ tool_calls: [{ index: 0, id: 'call-1', type: 'function', function: { name: 'run_code', arguments: args.slice(0, splitAt) } }] })
    + chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(splitAt) } }] })
    + chunk({}, 'tool_calls') + 'data: [DONE]\n\n';
}

/**
 * Starts the endpoint. `respond(messages, reply)` answers each request, by one of
 * `reply.stream(body)`, `reply.hang(firstChunk)` (a stream that starts and never ends; `hung.closed`
 * says whether the caller closed it) or `reply.status(code, json, headers)`.
 */
export async function scriptedEndpoint(respond) {
  const requests = [];
  const hung = { closed: false };
  const http = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': req.headers.origin || '*', 'access-control-allow-headers': '*' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST' });
      res.end();
      return;
    }
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const messages = JSON.parse(body).messages;
      requests.push({ origin: req.headers.origin, messages });
      respond(messages, {
        stream(text) {
          res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
          res.end(text);
        },
        hang(first) {
          res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
          res.write(first);
          res.on('close', () => { hung.closed = true; });
        },
        status(code, json, headers = {}) {
          res.writeHead(code, { ...cors, 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(json));
        },
      });
    });
  });
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${http.address().port}/v1`, requests, hung,
    close: () => { http.closeAllConnections(); return new Promise((r) => http.close(r)); },
  };
}
