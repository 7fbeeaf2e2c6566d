'use client';
import { type ComponentType } from 'react';
import { type InteractionView } from '@/lib/contracts';
import { type LocalAnswer } from '@/lib/client/store';

// Every kind of card is its own chunk, loaded when one is opened or about to be (R13.4): the card route's first
// screen carries none of them, and a kind added to the contract (a command approval, a file diff, an MCP form)
// adds only its own loader here, and its own chunk.

export type CardKind = InteractionView['kind'];

export interface CardProps<Kind extends CardKind = CardKind> {
  view: Extract<InteractionView, { kind: Kind }>;
  local: LocalAnswer | undefined;
  myDeviceId: string | null;
  online: boolean;
  clockOffsetMs: number;
}

export type Cards = { [Kind in CardKind]: ComponentType<CardProps<Kind>> };

/** One loader per kind; TypeScript refuses a kind of the contract without one. */
const LOADERS: { [Kind in CardKind]: () => Promise<Cards[Kind]> } = {
  question: () => import('./question-card').then((module) => module.QuestionCard),
  'plan-approval': () => import('./plan-card').then((module) => module.PlanCard),
  permission: () => import('./permission-card').then((module) => module.PermissionCard),
  approval: () => import('./approval-card').then((module) => module.ApprovalCard),
  form: () => import('./form-card').then((module) => module.FormCard),
  'finished-turn': () => import('./finished-turn-card').then((module) => module.FinishedTurnCard),
};

const loaded: Partial<Cards> = {};
const failed = new Set<CardKind>();
const loading = new Map<CardKind, Promise<void>>();
const listeners = new Set<() => void>();

/** What components read: a new object on every change, so useSyncExternalStore sees one. */
let current: { cards: Partial<Cards>; failed: ReadonlySet<CardKind> } = { cards: {}, failed: new Set() };

function changed(): void {
  current = { cards: { ...loaded }, failed: new Set(failed) };
  for (const listener of listeners) listener();
}

export function cardKindsSnapshot() {
  return current;
}

function store<Kind extends CardKind>(kind: Kind, card: Cards[Kind]): void {
  loaded[kind] = card;
}

/** Starts loading a kind's card (once); the inbox calls it ahead of a tap, the card route when it knows the kind. */
export function loadCardKind(kind: CardKind): Promise<void> {
  if (loaded[kind]) return Promise.resolve();
  let pending = loading.get(kind);
  if (!pending) {
    failed.delete(kind);
    pending = LOADERS[kind]().then(
      (card) => {
        store(kind, card);
        loading.delete(kind);
        changed();
      },
      () => {
        // Served by the host and precached by the service worker: asking again usually works.
        loading.delete(kind);
        failed.add(kind);
        changed();
      },
    );
    loading.set(kind, pending);
  }
  return pending;
}

export function subscribeCardKinds(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
