import type { Attributes } from "@opentelemetry/api";
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
  ATTR_URL_QUERY,
  ATTR_URL_SCHEME,
} from "@opentelemetry/semantic-conventions";

/**
 * Query parameters whose values never reach a span: the password-setup page's token, OAuth's
 * secrets, and the signature-like names OpenTelemetry's HTTP conventions list for scrubbing.
 */
const SECRET_PARAMETERS = new Set(["token", "password", "access_token", "refresh_token", "client_secret", "code", "sig", "signature", "x-goog-signature", "x-amz-signature", "awsaccesskeyid"]);

/** A query string as the conventions' `url.query` wants it: secret values replaced by REDACTED, everything else as sent. */
export function redactedQuery(search: string): string {
  const query = search.replace(/^\?/, "");
  if (!query) return "";
  return query
    .split("&")
    .map((pair) => {
      const at = pair.indexOf("=");
      if (at < 0) return pair;
      let name = pair.slice(0, at);
      try {
        name = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // An undecodable name is compared as sent.
      }
      return SECRET_PARAMETERS.has(name.toLowerCase()) ? `${pair.slice(0, at)}=REDACTED` : pair;
    })
    .join("&");
}

const defaultPort = (protocol: string) => (protocol === "https:" ? 443 : 80);

/**
 * The HTTP client span attributes of OpenTelemetry's semantic conventions for a request to `url`:
 * method, full URL (no credentials, secret query values redacted), server address and port.
 */
export function httpClientAttributes(method: string, url: URL): Attributes {
  const query = redactedQuery(url.search);
  return {
    [ATTR_HTTP_REQUEST_METHOD]: method,
    [ATTR_URL_FULL]: `${url.protocol}//${url.host}${url.pathname}${query ? `?${query}` : ""}`,
    [ATTR_URL_SCHEME]: url.protocol.replace(/:$/, ""),
    [ATTR_SERVER_ADDRESS]: url.hostname.replace(/^\[|\]$/g, ""),
    [ATTR_SERVER_PORT]: url.port ? Number(url.port) : defaultPort(url.protocol),
  };
}

/** `url.query` for a server span, when the request had one. */
export function serverQueryAttributes(requestUrl: string): Attributes {
  const at = requestUrl.indexOf("?");
  if (at < 0) return {};
  const query = redactedQuery(requestUrl.slice(at + 1).split("#")[0]);
  return query ? { [ATTR_URL_QUERY]: query } : {};
}
