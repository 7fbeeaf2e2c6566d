// BENCH_SEGMENTS=1: splits each round trip into the stretches between what the
// benchmark's own sockets see (the runtime and the remote live in this process, so
// one clock serves both): the runtime sends the request, → the remote has it, the remote answers,
// → runtime has the resolution, → the caller has its result. Works by wrapping
// socket.io-client's Socket, which every client in this process uses.
import { Socket } from 'socket.io-client';
import { percentile } from './stats';

const MARKS = ['start', 'runtime sent', 'remote received', 'remote responded', 'runtime received', 'end'] as const;
type Mark = (typeof MARKS)[number];

export interface SegmentRecorder {
  /** Starts a new question; marks until the next call belong to it. */
  begin(): void;
  end(): void;
  /** Median of each stretch, ms, over the questions that saw every mark. */
  medians(): { stretch: string; ms: number }[];
}

let current: Partial<Record<Mark, number>> | undefined;

function mark(name: Mark): void {
  if (current && current[name] === undefined) current[name] = performance.now();
}

let patched = false;

function patchSocket(): void {
  if (patched) return;
  patched = true;
  type Packet = { data?: unknown[] };
  const prototype = Socket.prototype as unknown as {
    onevent(packet: Packet): void;
    emit(event: string, ...args: unknown[]): unknown;
  };
  const onevent = prototype.onevent;
  prototype.onevent = function (this: unknown, packet: Packet) {
    const name = packet.data?.[0];
    if (name === 'events' && carriesRequest(packet.data?.[1])) mark('remote received');
    else if (name === 'resolved') mark('runtime received');
    return onevent.call(this, packet);
  };
  const emit = prototype.emit;
  prototype.emit = function (this: unknown, event: string, ...args: unknown[]) {
    if (event === 'announce') mark('runtime sent');
    else if (event === 'respond') mark('remote responded');
    return emit.call(this, event, ...args);
  };
}

function carriesRequest(batch: unknown): boolean {
  const events = (batch as { events?: unknown } | undefined)?.events;
  return (
    Array.isArray(events) && events.some((event) => (event as { type?: unknown }).type === 'interaction.requested')
  );
}

export function segmentRecorder(): SegmentRecorder {
  patchSocket();
  const done: Partial<Record<Mark, number>>[] = [];
  return {
    begin() {
      current = {};
      mark('start');
    },
    end() {
      mark('end');
      if (current) done.push(current);
      current = undefined;
    },
    medians() {
      const complete = done.filter((marks) => MARKS.every((name) => marks[name] !== undefined));
      return MARKS.slice(1).map((to, index) => {
        const from = MARKS[index] ?? 'start';
        const spans = complete.map((marks) => (marks[to] ?? 0) - (marks[from] ?? 0));
        return { stretch: `${from} → ${to}`, ms: percentile(spans, 50) };
      });
    },
  };
}
