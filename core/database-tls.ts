import { readFileSync } from "node:fs";
import { checkServerIdentity, type ConnectionOptions } from "node:tls";

/**
 * TLS to PostgreSQL as libpq reads it from a connection URL (`?sslmode=verify-full&sslrootcert=…`),
 * the form hosted servers hand out. postgres.js reads `sslmode` its own way (verify-ca checks the
 * host name, `sslrootcert` is sent to the server as a setting, which refuses it): the service reads
 * both parameters here and hands the driver the resulting TLS options and a URL without them.
 *
 * - `disable`: no TLS.
 * - `prefer` (libpq's default, so also when absent): TLS when the server offers it, unverified; else plain.
 * - `require`: TLS or no connection, unverified; with `sslrootcert`, as `verify-ca` (as libpq).
 * - `verify-ca`: TLS, the certificate signed by `sslrootcert`'s authority; any host name.
 * - `verify-full`: as `verify-ca`, and the certificate names the URL's host.
 *
 * `sslrootcert` is a PEM file, or `system` for the authorities Node trusts. The other `ssl*`
 * parameters (client certificates, revocation lists) are refused rather than half-honoured.
 */
export type SslMode = "disable" | "prefer" | "require" | "verify-ca" | "verify-full";

const SSL_MODES: readonly SslMode[] = ["disable", "prefer", "require", "verify-ca", "verify-full"];

export interface DatabaseAddress {
  /** The URL for postgres.js, without the TLS parameters. */
  url: string;
  /** postgres.js's `ssl` option. */
  ssl: false | "prefer" | "require" | ConnectionOptions;
  mode: SslMode;
}

/** A TLS parameter of the URL that cannot be honoured: the operator's setting to fix. */
export class DatabaseTlsSettingError extends Error {
  override name = "DatabaseTlsSettingError";
}

/** The URL's query parameters, without parsing what precedes them (postgres.js takes several hosts, which `URL` does not). */
function splitQuery(url: string): { base: string; parameters: [string, string][] } {
  const at = url.indexOf("?");
  if (at < 0) return { base: url, parameters: [] };
  return { base: url.slice(0, at), parameters: [...new URLSearchParams(url.slice(at + 1))] };
}

/** The host a certificate must name under verify-full: the URL's, as written. */
function hostOf(base: string): string {
  const authority = base.replace(/^[a-z]+:\/\//i, "").split("/")[0]!;
  const host = authority.slice(authority.lastIndexOf("@") + 1);
  if (host.startsWith("[")) return host.slice(1, host.indexOf("]"));
  if (host.includes(",")) throw new DatabaseTlsSettingError("sslmode=verify-full: the URL names several hosts; name one, which the certificate must name");
  return host.replace(/:\d+$/, "") || "localhost";
}

function readAuthority(file: string): string | Buffer | undefined {
  if (file === "system") return undefined;
  try {
    return readFileSync(file);
  } catch (error) {
    throw new DatabaseTlsSettingError(`sslrootcert=${file}: cannot read the certificate authority's file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** Reads the URL's TLS parameters; throws DatabaseTlsSettingError for one it cannot honour. */
export function databaseAddress(url: string): DatabaseAddress {
  const { base, parameters } = splitQuery(url);
  const kept = parameters.filter(([name]) => !name.startsWith("ssl"));
  const tlsParameters = new Map(parameters.filter(([name]) => name.startsWith("ssl")));
  for (const name of tlsParameters.keys()) {
    if (name !== "sslmode" && name !== "sslrootcert") throw new DatabaseTlsSettingError(`${name}: not supported; the TLS parameters read are sslmode and sslrootcert`);
  }
  const asked = tlsParameters.get("sslmode") ?? "prefer";
  if (!(SSL_MODES as readonly string[]).includes(asked)) throw new DatabaseTlsSettingError(`sslmode=${asked}: must be one of ${SSL_MODES.join(", ")}`);
  const rootCert = tlsParameters.get("sslrootcert");
  // libpq: a root certificate given makes `require` verify the chain.
  const mode: SslMode = asked === "require" && rootCert !== undefined ? "verify-ca" : (asked as SslMode);
  const query = new URLSearchParams(kept).toString();
  const address = { url: query ? `${base}?${query}` : base, mode };
  if (mode === "disable") return { ...address, ssl: false };
  if (mode === "prefer" || mode === "require") return { ...address, ssl: mode };
  if (rootCert === undefined) throw new DatabaseTlsSettingError(`sslmode=${mode}: needs sslrootcert, the certificate authority's PEM file (or system, for the authorities this machine trusts)`);
  const ca = readAuthority(rootCert);
  const host = mode === "verify-full" ? hostOf(base) : undefined;
  return {
    ...address,
    ssl: {
      ...(ca === undefined ? {} : { ca }),
      rejectUnauthorized: true,
      // postgres.js gives TLS no host for an IP address, and Node then checks the certificate against "localhost".
      checkServerIdentity: (_name, certificate) => (host === undefined ? undefined : checkServerIdentity(host, certificate)),
    },
  };
}
