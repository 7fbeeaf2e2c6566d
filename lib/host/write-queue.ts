/**
 * Runs tasks one at a time, in the order they were queued: the registry's commands, so each decides
 * against the projection as the previous one left it. A task's failure is its caller's alone; the
 * next task runs all the same. An idle queue starts a task at once, in its caller's turn: the answer
 * path pays no extra hop for the queue.
 */
export class WriteQueue {
  /** Tasks queued or running. */
  private pending = 0;
  /** Settles when the last queued task has. */
  private tail: Promise<void> = Promise.resolve();
  private readonly finished = () => {
    this.pending -= 1;
  };

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.pending === 0 ? start(task) : this.tail.then(task);
    this.pending += 1;
    this.tail = result.then(this.finished, this.finished);
    return result;
  }
}

/** Runs `task` now; what it throws becomes the rejection, as inside `then`. */
async function start<T>(task: () => Promise<T> | T): Promise<T> {
  return task();
}
