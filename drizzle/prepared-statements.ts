/**
 * Which statements run as named prepared statements on PostgreSQL.
 *
 * drizzle hands postgres.js every statement unprepared. postgres.js then sends such a statement
 * (when it has parameters) in two round trips: Parse and Describe to learn the parameters' types,
 * then Bind and Execute; and PostgreSQL parses and analyses it every time. A prepared statement is
 * described once per connection and then runs in one round trip without being parsed again: a
 * booking flow cost the service 14 % less CPU and PostgreSQL 31 % less (bench/results/2026-11-26-paths.md).
 *
 * postgres.js keeps a connection's prepared statements until the connection closes, and it cannot
 * drop one, so what is prepared must be bounded. This admits a statement text the second time it
 * is seen (a text run once, such as a report's rare filter combination, never takes a slot) and
 * admits at most `capacity` texts for the life of the process: no connection ever holds more
 * prepared statements than that, beside postgres.js's own few (commit, rollback, the type query
 * it runs on connecting), whatever callers send (test/security/prepared-statement-flood.test.ts).
 * Texts admitted first stay; once the slots are taken, new texts run unprepared, as every
 * statement did before. Statement texts carry parameters, never values, so the texts in use are
 * the code's own shapes: a search expression with another word is the same text.
 *
 * Plans are not cached with them: connections run with `plan_cache_mode = force_custom_plan`
 * (database.ts), so each execution is still planned for its own values, as an unprepared one is.
 */
export class PreparedStatementPolicy {
  /** Texts seen once, waiting for a second use; bounded and forgotten oldest first. */
  private readonly candidates = new Set<string>();
  private readonly admitted = new Set<string>();

  constructor(
    readonly capacity = 256,
    /** Longer texts are never prepared (a bulk insert's VALUES list, a long IN list). */
    readonly maxTextLength = 8_192,
  ) {}

  /** Whether this statement should run prepared; called once per statement sent. */
  prepare(text: string): boolean {
    if (this.admitted.has(text)) return true;
    if (this.admitted.size >= this.capacity || text.length > this.maxTextLength) return false;
    if (!this.candidates.delete(text)) {
      this.candidates.add(text);
      if (this.candidates.size > this.capacity * 4) this.candidates.delete(this.candidates.values().next().value!);
      return false;
    }
    this.admitted.add(text);
    return true;
  }

  get admittedCount(): number {
    return this.admitted.size;
  }
}
