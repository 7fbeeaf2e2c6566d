import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Host } from '../../../../host';
import { mountAgentBridges, type AgentBridges } from '../../../../bridges';
import { closeAllHosts, startTestHost, tempDir } from '../../../../host/test-support/test-host';
import { type Every, type FollowOptions } from '../follow-transcript';
import { type HookDeadline } from '../handle-hook';
import { claudeCodeHubContribution } from '../hub-contribution';
import { claudeCodeHookMain, parseHookFlags } from '../hook-command';
import { connectScriptedRemote, type ScriptedRemote } from '../../../test-support/scripted-remote';
import { pairDevice } from '../../../../host/test-support/devices';

export type Via = 'command' | 'http';

export interface HookRun {
  reply: unknown;
  /** What the hook wrote to stderr (command path; the HTTP path has no stderr). */
  stderr: string;
}

/** Hook deadlines as the tests keep them: scheduled, and fired only when a test says so. */
export interface TestDeadlines {
  readonly deadline: HookDeadline;
  /** The durations of deadlines still pending. */
  pending(): number[];
  /** Fires every pending deadline of `ms`; returns how many fired. */
  expire(ms: number): number;
}

/** Transcript polls as the tests keep them: fs.watch off, and a poll only when a test ticks. */
export interface TestPolls {
  readonly follow: FollowOptions;
  /** Polls still running (one per hook that follows a transcript). */
  running(): number;
  /** Runs every poll once and waits for their reads; resolves with how many ran. */
  tick(): Promise<number>;
}

function testPolls(): TestPolls {
  const ticks = new Set<() => Promise<void>>();
  const every: Every = (_ms, tick) => {
    const entry = () => tick();
    ticks.add(entry);
    return () => ticks.delete(entry);
  };
  return {
    follow: { every, fsWatch: false },
    running: () => ticks.size,
    async tick() {
      const due = [...ticks];
      await Promise.all(due.map((tick) => tick()));
      return due.length;
    },
  };
}

function testDeadlines(): TestDeadlines {
  const pending = new Set<{ ms: number; expire: () => void }>();
  return {
    deadline(ms, expire) {
      const entry = { ms, expire };
      pending.add(entry);
      return () => pending.delete(entry);
    },
    pending: () => [...pending].map((entry) => entry.ms),
    expire(ms) {
      const due = [...pending].filter((entry) => entry.ms === ms);
      for (const entry of due) {
        pending.delete(entry);
        entry.expire();
      }
      return due.length;
    },
  };
}

export interface ClaudeCodeHookHarness {
  host: () => Host;
  phone: () => ScriptedRemote;
  transcript: () => string;
  deadlines: TestDeadlines;
  polls: TestPolls;
  /** A payload shaped as Claude Code sends it; `agent` makes it a subagent's call. */
  payload(
    event: 'PreToolUse' | 'PermissionRequest',
    toolName: string,
    toolInput: Record<string, unknown>,
    agent?: { id: string; type: string },
  ): Record<string, unknown> & { tool_use_id: string };
  /**
   * Runs the hook the way Claude Code would: the command hook (in-process) or a POST to the host.
   * `processStartedAt` (command hook only): when its process started, default now.
   */
  runHook(
    via: Via,
    body: unknown,
    flags?: {
      timeout?: string;
      formWait?: string;
      allTools?: boolean;
      processStartedAt?: number;
      /** Claude Code stopping the hook: a signal (command) or closing the request (HTTP). */
      stop?: AbortSignal;
      /** Finished turns (command hook): `--finished-card`, `--no-reply`, `--reply-wait`. */
      finishedCard?: boolean;
      noReply?: boolean;
      replyWait?: string;
      /** How the hook watches the Claude Code process: the test calls `gone` (default: never). */
      watchAgent?: (gone: () => void) => () => void;
    },
  ): Promise<HookRun>;
}

/**
 * One real host with the agent bridges, a scripted phone and a transcript for a
 * test file. The command hook runs in this process (its stdin, stdout and stderr
 * are the test's), and every hook's fallback deadline and transcript poll are the
 * test's to fire (fs.watch off), so no test waits on a real clock.
 */
export function claudeCodeHookHarness(): ClaudeCodeHookHarness {
  let host: Host | undefined;
  let bridges: AgentBridges | undefined;
  let phone: ScriptedRemote | undefined;
  let transcript = '';
  let nextToolUse = 0;
  const deadlines = testDeadlines();
  const polls = testPolls();
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} has not started`);
    return value;
  };

  beforeAll(async () => {
    host = await startTestHost();
    bridges = mountAgentBridges(host, {
      contributions: [claudeCodeHubContribution({ deadline: deadlines.deadline, follow: polls.follow })],
    });
    phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    transcript = path.join(tempDir('askaway-transcript-'), 'session.jsonl');
    writeFileSync(
      transcript,
      [
        { type: 'user', message: { role: 'user', content: 'Add sign-in to the app' } },
        {
          type: 'assistant',
          message: {
            role: 'assistant',
            content: [
              { type: 'text', text: 'There are two good auth libraries for this stack; I need your call.' },
              { type: 'tool_use', id: 'toolu_01', name: 'AskUserQuestion', input: {} },
            ],
          },
        },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
  });

  afterAll(async () => {
    phone?.close();
    await bridges?.close();
    await closeAllHosts();
  });

  return {
    host: () => need(host, 'the test host'),
    phone: () => need(phone, 'the scripted phone'),
    transcript: () => transcript,
    deadlines,
    polls,
    payload(event, toolName, toolInput, agent) {
      nextToolUse += 1;
      return {
        session_id: 'c0ffee00-session',
        transcript_path: transcript,
        cwd: '/home/dev/my-app',
        permission_mode: 'default',
        hook_event_name: event,
        tool_name: toolName,
        tool_input: toolInput,
        tool_use_id: `toolu_${nextToolUse}_${Math.random().toString(36).slice(2)}`,
        ...(agent ? { agent_id: agent.id, agent_type: agent.type } : {}),
      };
    },
    async runHook(via, body, flags = {}) {
      const started = need(host, 'the test host');
      if (via === 'command') {
        const parsed = parseHookFlags([
          ...(flags.timeout ? ['--timeout', flags.timeout] : []),
          ...(flags.formWait ? ['--form-wait', flags.formWait] : []),
          ...(flags.allTools ? ['--all-tools'] : []),
          ...(flags.finishedCard ? ['--finished-card'] : []),
          ...(flags.noReply ? ['--no-reply'] : []),
          ...(flags.replyWait ? ['--reply-wait', flags.replyWait] : []),
        ]);
        if ('error' in parsed) throw new Error(parsed.error);
        let stdout = '';
        let stderr = '';
        const code = await claudeCodeHookMain(parsed, {
          env: { ASKAWAY_URL: started.url, ASKAWAY_TOKEN: started.token, ASKAWAY_DATA_DIR: tempDir() },
          stdin: Readable.from([JSON.stringify(body)]),
          stdout: (text) => (stdout += text),
          stderr: (text) => (stderr += text),
          deadline: deadlines.deadline,
          follow: polls.follow,
          startedAt: flags.processStartedAt ?? Date.now(),
          watchAgent: flags.watchAgent ?? (() => () => undefined),
          ...(flags.stop ? { signal: flags.stop } : {}),
        });
        expect(code).toBe(0);
        return { reply: stdout.trim() === '' ? {} : (JSON.parse(stdout) as unknown), stderr };
      }
      const query = new URLSearchParams();
      if (flags.timeout) query.set('timeout', flags.timeout);
      if (flags.formWait) query.set('formWait', flags.formWait);
      if (flags.allTools) query.set('allTools', '1');
      let response: Response;
      try {
        response = await fetch(`${started.url}/hooks/claude-code?${query.toString()}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${started.token}` },
          body: JSON.stringify(body),
          ...(flags.stop ? { signal: flags.stop } : {}),
        });
      } catch (error) {
        // Claude Code gave up on the request: it reads no reply.
        if (flags.stop?.aborted) return { reply: undefined, stderr: '' };
        throw error;
      }
      expect(response.status).toBe(200);
      return { reply: (await response.json()) as unknown, stderr: '' };
    },
  };
}
