import { eq } from "drizzle-orm";
import type { Executor } from "../drizzle/database.js";
import { publicAddresses } from "../drizzle/schema.js";
import type { Environment } from "./account.repository.js";

export type PublicAddressRow = typeof publicAddresses.$inferSelect;

export const publicAddressRepository = {
  /** What a service of the environment started with; the last start wins. */
  async record(db: Executor, environment: Environment, publicUrl: string, now: Date): Promise<void> {
    await db
      .insert(publicAddresses)
      .values({ environment, publicUrl, recordedAt: now })
      .onConflictDoUpdate({ target: publicAddresses.environment, set: { publicUrl, recordedAt: now } });
  },

  async of(db: Executor, environment: Environment): Promise<PublicAddressRow | undefined> {
    const [row] = await db.select().from(publicAddresses).where(eq(publicAddresses.environment, environment));
    return row;
  },
};
