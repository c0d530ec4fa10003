import { systemClock } from "../../core/clock.js";
import type { Config } from "../../core/config.js";
import { createLogger, type Logger } from "../../core/logger.js";
import type { Database } from "../../drizzle/database.js";
import { createIdentity, type Identity } from "../../identity/identity.js";
import { partnerDirectory } from "../../subgraphs/catalogue/organisation/organisation.partner-directory.js";
import { buildSubgraphApp } from "../../server/subgraph-app.js";
import { taxonomyRepository } from "../../subgraphs/catalogue/taxonomy/taxonomy.repository.js";
import { subgraphNames, type SubgraphName } from "../../subgraphs/subgraph.names.js";
import { openTestDatabase, testConfig } from "./stack.js";

export interface SubgraphRoles {
  database: Database;
  config: Config;
  logger: Logger;
  identity: Identity;
  subgraphs: Record<SubgraphName, { url: string; close: () => Promise<void> }>;
}

/** Every subgraph as its own role on HTTP, over one database, for a test to put an edge (or something between) in front of. */
export async function startSubgraphRoles(): Promise<SubgraphRoles> {
  const database = await openTestDatabase();
  const config = testConfig();
  const logger = createLogger(config.logLevel);
  const identity = createIdentity(config, database, systemClock, partnerDirectory);
  await identity.keys.signingKey();
  await taxonomyRepository.ensureSeed(database.db);
  const subgraphs = {} as SubgraphRoles["subgraphs"];
  for (const name of subgraphNames) {
    const built = await buildSubgraphApp(name, { config, database, identity, logger, clock: systemClock });
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = built.app.server.address() as { port: number };
    subgraphs[name] = { url: `http://127.0.0.1:${port}/graphql`, close: built.close };
  }
  return { database, config, logger, identity, subgraphs };
}
