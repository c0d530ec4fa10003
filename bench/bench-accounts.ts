import { randomUUID } from "node:crypto";
import type { Service } from "../server/service.js";

/**
 * A fresh account of its own organisation for a benchmark: a content partner gets an engine of
 * its own, so benchmarks never share content with each other or with the demo.
 */
export async function createBenchAccount(
  service: Service,
  role: "CONSUMER" | "CONTENT_PARTNER",
  options: { prefix: string; password: string; consumerCountry: string },
): Promise<string> {
  const username = `${options.prefix}-${role.toLowerCase().replace("_", "-")}-${randomUUID().slice(0, 8)}`;
  await service.identity.accounts.createAccount({
    username,
    role,
    password: options.password,
    organisation: `Bench ${username}`,
    country: role === "CONSUMER" ? options.consumerCountry : "CH",
    model: "agent",
    bookingEngine: role === "CONTENT_PARTNER" ? `ENGINE_${randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}` : undefined,
  });
  return username;
}
