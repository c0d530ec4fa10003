/** A push-to-pull bridge: events pushed by a listener, pulled by `for await`. Ends on `close()` or `return()`. */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffered: T[] = [];
  private readonly waiting: ((result: IteratorResult<T>) => void)[] = [];
  private done = false;

  constructor(private readonly onClose: () => void | Promise<void> = () => {}) {}

  push(value: T): void {
    if (this.done) return;
    const next = this.waiting.shift();
    if (next) next({ value, done: false });
    else this.buffered.push(value);
  }

  get isClosed(): boolean {
    return this.done;
  }

  async close(): Promise<void> {
    if (this.done) return;
    this.done = true;
    for (const resolve of this.waiting.splice(0)) resolve({ value: undefined, done: true });
    await this.onClose();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffered.length) return Promise.resolve({ value: this.buffered.shift()!, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    await this.close();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
