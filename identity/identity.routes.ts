import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../core/config.js";
import { textProblem } from "../core/input-text.js";
import { scopes } from "../core/roles.js";
import { AccountError } from "./account.service.js";
import type { Identity } from "./identity.js";
import { passwordSetupPage } from "./password-setup.page.js";
import { CLIENT_ID, OAuthError } from "./token.service.js";

const FORM = "application/x-www-form-urlencoded";

const oauthError = (description: string, errors: string[]) => ({
  description,
  type: "object",
  required: ["error", "error_description"],
  properties: { error: { type: "string", enum: errors }, error_description: { type: "string" } },
});

const formField = (description: string, value?: string) => ({ type: "string", description, ...(value ? { const: value } : {}) });

/** The token endpoint as the console and generated clients see it (spec 1, Authentication items 3 to 6). */
const tokenEndpointSchema = {
  operationId: "requestToken",
  summary: "Request an access token (password or refresh_token grant)",
  description:
    "OAuth 2.0 token endpoint. The access token lives 300 seconds; each refresh gives another 300, up to 30 minutes after the password grant. " +
    "The client is content-partner-api, a public client: name it with client_id in the form, or authenticate it with `Authorization: Basic base64(content-partner-api:)` (RFC 6749 section 2.3.1, empty password); both ways must name the same client. " +
    "Refusals carry an OAuth error body {error, error_description}; 401 (invalid_client) also sends WWW-Authenticate, 429 and 503 send Retry-After.",
  tags: ["Authentication"],
  security: [],
  body: {
    content: {
      [FORM]: {
        schema: {
          oneOf: [
            {
              title: "Password grant",
              type: "object",
              required: ["client_id", "grant_type", "username", "password"],
              properties: {
                client_id: formField("The API's client", CLIENT_ID),
                grant_type: formField("Sign in with username and password", "password"),
                username: formField("Account name"),
                password: formField("Account password"),
                scope: formField("Space-separated scopes to limit the token to; default every scope the roles allow"),
              },
            },
            {
              title: "Refresh token grant",
              type: "object",
              required: ["client_id", "grant_type", "refresh_token"],
              properties: {
                client_id: formField("The API's client", CLIENT_ID),
                grant_type: formField("Extend the session by another access token", "refresh_token"),
                refresh_token: formField("The refresh_token of the last answer; each is accepted once"),
              },
            },
          ],
        },
      },
    },
  },
  response: {
    200: {
      description: "A new access token (and a new refresh token: the one sent is spent)",
      type: "object",
      required: ["access_token", "expires_in", "refresh_token", "refresh_expires_in", "token_type", "session_state", "scope"],
      properties: {
        access_token: { type: "string", description: "Send as Authorization: Bearer <access_token>" },
        expires_in: { type: "integer", description: "Seconds the access token is valid: 300, less near the end of the session" },
        refresh_token: { type: "string", description: "For the refresh_token grant" },
        refresh_expires_in: { type: "integer", description: "Seconds left in the session (30 minutes from the password grant)" },
        token_type: { type: "string", const: "Bearer" },
        session_state: { type: "string", description: "The session's id" },
        scope: { type: "string", description: "Space-separated scopes the token carries" },
      },
    },
    400: oauthError("Missing or repeated parameter, wrong credentials, spent or expired refresh token, unsupported grant type or scope", [
      "invalid_request",
      "invalid_grant",
      "unsupported_grant_type",
      "invalid_scope",
    ]),
    401: oauthError("Missing or unknown client, or malformed Basic client credentials (a Basic challenge comes with it)", ["invalid_client"]),
    429: oauthError("Too many failed sign-ins for this account or address, or too many of its sign-ins being checked at once; see Retry-After", ["slow_down"]),
    503: oauthError("Password checking is saturated by many accounts and addresses at once; try again after Retry-After", ["temporarily_unavailable"]),
  },
};

/**
 * The OpenID-Connect-shaped issuer (spec 1, Authentication): token endpoint, JWKS, discovery,
 * and the page where a new user sets a password. These are the only paths without a bearer token.
 */
export async function identityRoutes(app: FastifyInstance, options: { identity: Identity; config: Config }) {
  const { identity, config } = options;
  const issuer = () => `${config.publicUrl}${identity.paths.realmBase}`;
  addTokenRoute(app, identity);
  addKeyRoutes(app, identity, issuer);
  addPasswordSetupRoutes(app, identity, issuer);
}

const tokenRoute = {
  config: { public: true },
  // A body that cannot be parsed (another content type, broken JSON, too large) fails before the
  // handler runs; OAuth clients still get the OAuth error shape, as for every other refusal.
  errorHandler: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode ?? 500;
    if (status < 400 || status >= 500) throw error;
    noStore(reply);
    const description = status === 413 ? "The token request body is too large" : `The token request body must be ${FORM}`;
    return reply.code(status === 413 ? 413 : 400).send({ error: "invalid_request", error_description: description });
  },
  schema: tokenEndpointSchema,
  // The schema documents the endpoint; the handler checks the form itself, so that every refusal is
  // an OAuth error (RFC 6749 section 5.2) rather than the REST error body, and the answer is sent whole.
  validatorCompiler: () => () => true,
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
};

function addTokenRoute(app: FastifyInstance, identity: Identity): void {
  app.post(identity.paths.token, tokenRoute, async (request, reply) => {
    noStore(reply);
    try {
      return await grantToken(identity, request);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.status === 401) reply.header("www-authenticate", 'Basic realm="content-partner-api"');
      if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
      return reply.code(error.status).send({ error: error.error, error_description: error.description });
    }
  });
}

/** The token a form asks for, by the password or the refresh_token grant; an OAuthError for every refusal. */
async function grantToken(identity: Identity, request: FastifyRequest) {
  if (!String(request.headers["content-type"] ?? "").toLowerCase().startsWith(FORM)) {
    throw new OAuthError("invalid_request", `The token request body must be ${FORM}`);
  }
  const field = formFields((request.body ?? {}) as Record<string, unknown>);
  authenticateClient(request.headers.authorization, field("client_id"), field("client_secret"));
  const grantType = field("grant_type");
  if (!grantType) throw new OAuthError("invalid_request", "Missing parameter: grant_type");
  if (grantType === "password") {
    const username = field("username");
    const password = field("password");
    if (!username || !password) throw new OAuthError("invalid_request", "Missing parameter: username and password are required");
    return await identity.tokens.passwordGrant(username, password, field("scope"), request.ip);
  }
  if (grantType === "refresh_token") {
    const refreshToken = field("refresh_token");
    if (!refreshToken) throw new OAuthError("invalid_request", "Missing parameter: refresh_token");
    return await identity.tokens.refreshGrant(refreshToken);
  }
  throw new OAuthError("unsupported_grant_type", `Unsupported grant_type ${grantType}; use password or refresh_token`);
}

/** A form's parameters, each given once and as acceptable text; an empty one counts as absent. */
function formFields(form: Record<string, unknown>): (name: string) => string | undefined {
  return (name) => {
    const value = form[name];
    if (Array.isArray(value)) throw new OAuthError("invalid_request", `Parameter ${name} must be sent once`);
    // The one text check of the service, answered in the OAuth shape this endpoint keeps.
    const problem = typeof value === "string" ? textProblem(value) : undefined;
    if (problem) throw new OAuthError("invalid_request", `Parameter ${name} ${problem}`);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
}

/** The signing keys (JWKS) and the discovery document that points at them. */
function addKeyRoutes(app: FastifyInstance, identity: Identity, issuer: () => string): void {
  app.get(identity.paths.certs, { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply.header("cache-control", "public, max-age=300");
    return identity.keys.jwks();
  });

  app.get(identity.paths.discovery, { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply.header("cache-control", "public, max-age=300");
    return {
      issuer: issuer(),
      token_endpoint: `${issuer()}/protocol/openid-connect/token`,
      jwks_uri: `${issuer()}/protocol/openid-connect/certs`,
      grant_types_supported: ["password", "refresh_token"],
      response_types_supported: ["token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
      scopes_supported: [...scopes],
      claims_supported: ["sub", "iss", "aud", "exp", "iat", "auth_time", "preferred_username", "realm_access", "org_id", "env"],
    };
  });
}

/** The page a one-time link opens, and the form on it that sets the password. */
function addPasswordSetupRoutes(app: FastifyInstance, identity: Identity, issuer: () => string): void {
  const { paths } = identity;
  app.get(paths.passwordSetup, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const token = String((request.query as Record<string, unknown>).token ?? "");
    noStore(reply);
    try {
      const account = await identity.accounts.checkPasswordSetupToken(token);
      return sendPage(reply, 200, { kind: "form", username: account.username, token, action: paths.passwordSetup });
    } catch (error) {
      return refusePage(reply, error);
    }
  });

  app.post(paths.passwordSetup, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    noStore(reply);
    const form = (request.body ?? {}) as Record<string, unknown>;
    const token = typeof form.token === "string" ? form.token : "";
    const password = typeof form.password === "string" ? form.password : "";
    const confirmation = typeof form.confirmation === "string" ? form.confirmation : "";
    if (password !== confirmation) {
      const account = await identity.accounts.checkPasswordSetupToken(token).catch(() => undefined);
      if (!account) return refusePage(reply, new AccountError("LINK_INVALID", "This link is not valid."));
      return sendPage(reply, 400, {
        kind: "form",
        username: account.username,
        token,
        action: paths.passwordSetup,
        problem: "The two passwords differ.",
      });
    }
    try {
      const account = await identity.accounts.setPasswordWithToken(token, password);
      return sendPage(reply, 200, { kind: "done", username: account.username, tokenUrl: `${issuer()}/protocol/openid-connect/token` });
    } catch (error) {
      if (error instanceof AccountError && error.code === "INVALID_INPUT") {
        const account = await identity.accounts.checkPasswordSetupToken(token);
        return sendPage(reply, 400, { kind: "form", username: account.username, token, action: paths.passwordSetup, problem: error.message });
      }
      return refusePage(reply, error);
    }
  });
}

/**
 * Client authentication (RFC 6749 section 2.3). The API's client is public: it identifies itself with
 * client_id in the form (section 3.2.1), or authenticates with HTTP Basic as section 2.3.1 describes,
 * its id and its password (empty: it has none) form-encoded, then base64-encoded: what OAuth
 * clients and Swagger UI's Authorize dialog send by default. A client named both ways must be the
 * same client; two different ones, or a client_secret beside the header (two ways of
 * authenticating), are a malformed request (section 5.2, invalid_request). A failed Basic
 * authentication is 401 with a Basic challenge, as section 5.2 requires.
 */
function authenticateClient(authorization: string | undefined, formClientId: string | undefined, formSecret: string | undefined): void {
  const basic = /^basic\s+(.*)$/is.exec(authorization ?? "");
  if (!basic) {
    if (!formClientId) throw new OAuthError("invalid_client", "Missing parameter: client_id", 401);
    if (formClientId !== CLIENT_ID) throw new OAuthError("invalid_client", "Invalid client credentials", 401);
    return;
  }
  const credentials = basicCredentials(basic[1].trim());
  if (!credentials) throw new OAuthError("invalid_client", "Malformed client credentials in the Authorization header", 401);
  if (formSecret !== undefined) throw new OAuthError("invalid_request", "Client credentials in both the Authorization header and the body: use one");
  if (formClientId !== undefined && formClientId !== credentials.id) {
    throw new OAuthError("invalid_request", "client_id in the body differs from the client in the Authorization header");
  }
  if (credentials.id !== CLIENT_ID || credentials.secret !== "") throw new OAuthError("invalid_client", "Invalid client credentials", 401);
}

/** `base64(id ":" secret)`, each form-encoded (RFC 6749 Appendix B); undefined when it is not that. */
function basicCredentials(encoded: string): { id: string; secret: string } | undefined {
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const formDecoded = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, " "));
    } catch {
      return undefined;
    }
  };
  const id = formDecoded(decoded.slice(0, colon));
  const secret = formDecoded(decoded.slice(colon + 1));
  return id === undefined || secret === undefined ? undefined : { id, secret };
}

function noStore(reply: FastifyReply): void {
  reply.header("cache-control", "no-store").header("pragma", "no-cache");
}

function sendPage(reply: FastifyReply, status: number, page: Parameters<typeof passwordSetupPage>[0]) {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
    .header("referrer-policy", "no-referrer")
    .send(passwordSetupPage(page));
}

function refusePage(reply: FastifyReply, error: unknown) {
  if (!(error instanceof AccountError)) throw error;
  // 410 for a link that existed but is spent or expired; 404 for one that never did.
  const status = error.code === "LINK_USED" || error.code === "LINK_EXPIRED" ? 410 : 404;
  return sendPage(reply, status, { kind: "refused", message: error.message });
}
