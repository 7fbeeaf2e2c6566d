/**
 * A set of ids that forgets the oldest once it holds `max` (R12.17): the memory of what a bridge settled or
 * left to a terminal, which input from an agent would otherwise grow without end. Adding an id again makes
 * it the newest.
 */
export class BoundedSet {
  private readonly ids = new Set<string>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    while (this.ids.size > this.max) {
      const oldest = this.ids.values().next();
      if (oldest.done) return;
      this.ids.delete(oldest.value);
    }
  }

  delete(id: string): void {
    this.ids.delete(id);
  }
}
