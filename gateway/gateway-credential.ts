import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Clock } from "../core/clock.js";
import type { Executor } from "../drizzle/database.js";
import { serviceSecret } from "../drizzle/service-secret.js";

/** The header the gateway signs every subgraph request with. */
export const GATEWAY_CREDENTIAL_HEADER = "x-gateway-credential";

/** Replicas' clocks may differ a little; a captured credential is useless after this. */
const VALIDITY_SECONDS = 60;

/**
 * A signed internal credential proving a subgraph request comes from the gateway: an HMAC over
 * the time and the forwarded bearer token, keyed by a secret every role of a deployment reads
 * from the shared database (no configuration to keep in step). Bound to the token, so it cannot
 * be replayed with another caller's identity; short-lived, so a leaked one soon expires.
 */
export class GatewayCredential {
  private constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
  ) {}

  static async load(db: Executor, clock: Clock): Promise<GatewayCredential> {
    return new GatewayCredential(await serviceSecret(db, "gateway-credential"), clock);
  }

  sign(bearerToken: string): string {
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    return `v1.${issuedAt}.${this.mac(issuedAt, bearerToken)}`;
  }

  verify(credential: string | undefined, bearerToken: string | undefined): boolean {
    const match = credential?.match(/^v1\.(\d{1,12})\.([0-9a-f]{64})$/);
    if (!match || !bearerToken) return false;
    const issuedAt = Number(match[1]);
    const now = this.clock.now().getTime() / 1000;
    if (Math.abs(now - issuedAt) > VALIDITY_SECONDS) return false;
    return timingSafeEqual(Buffer.from(match[2], "hex"), Buffer.from(this.mac(issuedAt, bearerToken), "hex"));
  }

  private mac(issuedAt: number, bearerToken: string): string {
    const tokenDigest = createHash("sha256").update(bearerToken).digest("hex");
    return createHmac("sha256", this.key).update(`v1.${issuedAt}.${tokenDigest}`).digest("hex");
  }
}
