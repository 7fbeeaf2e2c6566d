/**
 * Runs tasks one at a time, in the order they were queued: the registry's commands, so each decides
 * against the projection as the previous one left it. A task's failure is its caller's alone; the
 * next task runs all the same.
 */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
