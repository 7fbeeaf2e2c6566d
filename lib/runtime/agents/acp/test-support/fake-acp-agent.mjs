// A scriptable ACP agent for tests and drills that run `askaway acp -- node fake-acp-agent.mjs` as a real
// process. It answers `initialize` and `session/new`, writes to its stdout whatever the editor asks it to
// (`_fake/write`: base64 bytes, exactly), floods its stdout on request (`_fake/flood`: many lines,
// `_fake/longline`: one line), and appends every byte it reads to FAKE_ACP_RECORD, so a test can see exactly
// what the proxy relayed. Plain JavaScript: no compiler in the child. Progress goes to stderr (the proxy's stderr), one line each: `fake-acp <what> <bytes>`.
import { appendFileSync } from 'node:fs';

const record = process.env.FAKE_ACP_RECORD;
const COMMAND_MAX = 16 * 1024 * 1024;
let pending = Buffer.alloc(0);

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const say = (line) => process.stderr.write(`fake-acp ${line}\n`);

/** Writes `total` bytes of `session/update` lines of about `line` bytes each, waiting for drain as it goes. */
async function flood(total, line) {
  const head =
    '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"';
  const tail = '"}}}}\n';
  const one = Buffer.from(`${head}${'x'.repeat(Math.max(1, line - head.length - tail.length))}${tail}`);
  let written = 0;
  let reported = 0;
  while (written < total) {
    const ok = process.stdout.write(one);
    written += one.length;
    if (written - reported >= 8 * 1024 * 1024) {
      say(`flood ${written}`);
      reported = written;
    }
    if (!ok) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
  say(`flood done ${written}`);
}

/** Writes one `session/update` line of `total` bytes in 1 MiB pieces, waiting for drain as it goes. */
async function longLine(total) {
  const head = Buffer.from('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","text":"');
  const tail = Buffer.from('"}}\n');
  const piece = Buffer.alloc(1024 * 1024, 'z');
  let written = 0;
  const write = async (bytes) => {
    written += bytes.length;
    if (!process.stdout.write(bytes)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  };
  await write(head);
  while (written + piece.length + tail.length < total) await write(piece);
  await write(Buffer.alloc(total - written - tail.length, 'z'));
  await write(tail);
  say(`longline done ${written}`);
}

function handle(message) {
  if (typeof message !== 'object' || message === null) return;
  if (message.method === 'initialize' && message.id !== undefined)
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: { protocolVersion: 1, agentInfo: { name: 'fake-acp', title: 'Fake ACP', version: '1.0.0' } },
    });
  else if (message.method === 'session/new' && message.id !== undefined)
    send({ jsonrpc: '2.0', id: message.id, result: { sessionId: 'sess-1' } });
  else if (message.method === '_fake/write') {
    process.stdout.write(Buffer.from(message.params.base64, 'base64'));
    say(`wrote ${message.params.base64.length}`);
  } else if (message.method === '_fake/flood') void flood(message.params.total, message.params.line);
  else if (message.method === '_fake/longline') void longLine(message.params.total);
  else if (message.method === '_fake/exit') process.exit(0);
}

process.stdin.on('data', (chunk) => {
  if (record) appendFileSync(record, chunk);
  pending = Buffer.concat([pending, chunk]);
  for (let newline = pending.indexOf(10); newline !== -1; newline = pending.indexOf(10)) {
    const line = pending.subarray(0, newline);
    pending = pending.subarray(newline + 1);
    // Lines up to 16 MiB are commands; a test's bigger or odd lines are only recorded.
    if (line.length > COMMAND_MAX) continue;
    try {
      handle(JSON.parse(line.toString('utf8')));
    } catch {
      // Not JSON, or not for us: recorded all the same.
    }
  }
  if (pending.length > COMMAND_MAX) pending = Buffer.alloc(0);
});
process.stdin.on('end', () => process.exit(0));
