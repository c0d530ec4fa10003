import "reflect-metadata";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig, type Config } from "../core/config.js";
import { bookingEngineRepository } from "../subgraphs/catalogue/booking-engine/booking-engine.repository.js";
import { productRepository } from "../subgraphs/catalogue/product/product.repository.js";
import { taxonomyRepository } from "../subgraphs/catalogue/taxonomy/taxonomy.repository.js";
import { openDatabase, type Database } from "../drizzle/database.js";
import { cities } from "./catalogue-data.js";
import { insertProducts, insertSupplier, productFor, randomSource } from "./catalogue.js";

interface GenerateArguments {
  total: number;
  supplierCount: number;
  engine: string;
  seed: number;
}

/**
 * `npm run seed -- --products N [--suppliers S] [--engine NAME] [--seed X]`: adds N generated
 * products (for benchmarks) to the configured database, under S new suppliers of the engine.
 */
async function main() {
  const args = readArguments();
  const config = configOrExit();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, directUrl: config.databaseDirectUrl, dataDir: config.dataDir });
  try {
    await taxonomyRepository.ensureSeed(database.db);
    const { engine } = await bookingEngineRepository.ensure(database.db, args.engine);
    const started = Date.now();
    const written = await generateProducts(database, engine.id, args, started);
    // Benchmarks run right after a seed, before autovacuum would have refreshed the statistics.
    await productRepository.refreshStatistics(database.db);
    console.log(`Done: ${written} products under ${args.supplierCount} suppliers of ${engine.name} in ${((Date.now() - started) / 1000).toFixed(1)} s (statistics updated)`);
  } finally {
    await database.close();
  }
}

/** The command line's numbers; exits 2 with the usage when one is not a whole number of 1 or more. */
function readArguments(): GenerateArguments {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      products: { type: "string" },
      suppliers: { type: "string" },
      engine: { type: "string", default: "BENCHMARK_ENGINE" },
      seed: { type: "string", default: "1" },
    },
  });
  const total = Number(values.products);
  if (!Number.isInteger(total) || total < 1) {
    console.error("Usage: npm run seed -- --products N [--suppliers S] [--engine NAME] [--seed X]\n--products must be a whole number of 1 or more");
    process.exit(2);
  }
  const supplierCount = values.suppliers ? Number(values.suppliers) : Math.max(1, Math.ceil(total / 5000));
  if (!Number.isInteger(supplierCount) || supplierCount < 1) {
    console.error("--suppliers must be a whole number of 1 or more");
    process.exit(2);
  }
  return { total, supplierCount, engine: values.engine!, seed: Number(values.seed) };
}

function configOrExit(): Config {
  try {
    return loadConfig({ ...process.env, ROLE: undefined });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Writes the products, spread over new suppliers each at home in another city; returns how many. */
async function generateProducts(database: Database, engineId: number, { total, supplierCount, seed }: GenerateArguments, started: number): Promise<number> {
  const random = randomSource(seed);
  const runId = Date.now().toString(36).toUpperCase();
  const perSupplier = Math.ceil(total / supplierCount);
  let written = 0;
  for (let s = 0; s < supplierCount && written < total; s++) {
    const home = cities[s % cities.length];
    const request = { externalId: `GEN-${runId}-${s}`, country: home.country, name: `Generated supplier ${s + 1} (${home.name})`, channel: "generator" };
    const supplier = await insertSupplier(database.db, request, engineId, new Date());
    const count = Math.min(perSupplier, total - written);
    // One transaction per chunk: a crash leaves whole chunks, and PostgreSQL is not holding one huge transaction.
    for (let offset = 0; offset < count; offset += 5000) {
      const chunk = Array.from({ length: Math.min(5000, count - offset) }, (_, i) =>
        productFor(written + offset + i, cities[(s + offset + i) % cities.length], random, `GEN-${runId}-${s}`),
      );
      await database.db.transaction((tx) => insertProducts(tx, supplier, chunk, new Date()));
    }
    written += count;
    const seconds = (Date.now() - started) / 1000;
    console.log(`${written}/${total} products (${Math.round(written / seconds)} per second)`);
  }
  return written;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
