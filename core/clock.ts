/** Time source; tests pass a controllable one to walk token lifetimes without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
