import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { taxonomyNodes } from "../../drizzle/schema.js";
import { taxonomyRepository } from "../../subgraphs/catalogue/taxonomy/taxonomy.repository.js";
import { taxonomySeed } from "../../subgraphs/catalogue/taxonomy/taxonomy.data.js";
import { openOwnTestDatabase } from "../support/stack.js";

/*
 * Every process seeds the shipped taxonomy as it starts. Several starting together on a new
 * database (scale-out roles, a cluster, the suite's own workers) must all come up, with each node
 * written once: on PostgreSQL each seeds from its own connections, at the same moment.
 */
const opened: Database[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
  for (const drop of drops) await drop();
});

describe("the taxonomy's seed", () => {
  it("comes up in six processes seeding a new database at once, each node written once (three new databases)", async () => {
    for (let round = 0; round < 3; round++) {
      const own = await openOwnTestDatabase();
      drops.push(own.drop);
      opened.push(own.database);
      const others = own.url ? await Promise.all([1, 2, 3, 4, 5].map(() => openDatabase({ databaseUrl: own.url }))) : [1, 2, 3, 4, 5].map(() => own.database);
      if (own.url) opened.push(...others);
      await Promise.all([own.database, ...others].map((database) => taxonomyRepository.ensureSeed(database.db)));
      const nodes = await own.database.db.select({ uuid: taxonomyNodes.uuid }).from(taxonomyNodes);
      const expected = taxonomySeed.reduce((count, parent) => count + 1 + parent.children.length, 0);
      expect(nodes).toHaveLength(expected);
    }
  }, 60_000);
});
