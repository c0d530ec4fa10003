import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Clock } from "../core/clock.js";
import type { Executor } from "../drizzle/database.js";
import { serviceSecret } from "../drizzle/service-secret.js";

/** The header the gateway signs every subgraph request with. */
export const GATEWAY_CREDENTIAL_HEADER = "x-gateway-credential";

/**
 * The header a subgraph's own service code signs a call to another subgraph with (booking asking
 * catalogue for a product's facts): there is no caller's token to bind to, so it names the service.
 */
export const SERVICE_CREDENTIAL_HEADER = "x-service-credential";

/** Services that may call another subgraph in their own name. */
export const graphServices = ["booking", "worker"] as const;
export type GraphService = (typeof graphServices)[number];

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

  /** A credential for a call made in a service's own name (no caller behind it). */
  signService(service: GraphService): string {
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    return `v1.${issuedAt}.${service}.${this.serviceMac(issuedAt, service)}`;
  }

  /** The service a service credential names, when it is valid and current. */
  verifyService(credential: string | undefined): GraphService | undefined {
    const match = credential?.match(/^v1\.(\d{1,12})\.([a-z]{1,32})\.([0-9a-f]{64})$/);
    if (!match || !(graphServices as readonly string[]).includes(match[2])) return undefined;
    const issuedAt = Number(match[1]);
    if (Math.abs(this.clock.now().getTime() / 1000 - issuedAt) > VALIDITY_SECONDS) return undefined;
    const expected = Buffer.from(this.serviceMac(issuedAt, match[2]), "hex");
    return timingSafeEqual(Buffer.from(match[3], "hex"), expected) ? (match[2] as GraphService) : undefined;
  }

  verify(credential: string | undefined, bearerToken: string | undefined): boolean {
    const match = credential?.match(/^v1\.(\d{1,12})\.([0-9a-f]{64})$/);
    if (!match || !bearerToken) return false;
    const issuedAt = Number(match[1]);
    const now = this.clock.now().getTime() / 1000;
    if (Math.abs(now - issuedAt) > VALIDITY_SECONDS) return false;
    return timingSafeEqual(Buffer.from(match[2], "hex"), Buffer.from(this.mac(issuedAt, bearerToken), "hex"));
  }

  /** Its own message shape, so no token-bound credential can pass for a service's. */
  private serviceMac(issuedAt: number, service: string): string {
    return createHmac("sha256", this.key).update(`v1.service.${issuedAt}.${service}`).digest("hex");
  }

  private mac(issuedAt: number, bearerToken: string): string {
    const tokenDigest = createHash("sha256").update(bearerToken).digest("hex");
    return createHmac("sha256", this.key).update(`v1.${issuedAt}.${tokenDigest}`).digest("hex");
  }
}
