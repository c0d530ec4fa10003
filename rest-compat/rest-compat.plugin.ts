import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import type { Config } from "../core/config.js";
import type { EdgeGraph } from "../gateway/gateway.js";
import type { IdentityPaths } from "../identity/identity.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "../identity/token-verifier.js";
import { errorBodySchema, RestError } from "./error-body.js";
import { registerRestRoute } from "./rest-route.js";
import { restRoutes } from "./routes/index.js";
import { registerVoucherRoute } from "./routes/booking-flow/voucher.route.js";
import type { EdgeContext } from "../gateway/edge-context.js";

export const CONSOLE_PREFIX = "/api/content-partner/swagger-ui";

/**
 * The OpenAPI document (generated from the route schemas) and the interactive console. Registered
 * on the root instance before any route, so that every documented route is in the document.
 */
export async function registerOpenApi(app: FastifyInstance, options: { config: Config; identityPaths: IdentityPaths }) {
  app.addSchema(errorBodySchema);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Activities catalogue and booking API",
        version: "1.0.0",
        description:
          "REST compatibility layer of the activities service. Every call needs `Authorization: Bearer <access token>`; " +
          `get one from ${options.identityPaths.token} with the password grant (client_id content-partner-api). ` +
          "Errors share one body: see the ErrorBody schema.",
      },
      servers: [{ url: options.config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Paste an access token" },
          oauth2Password: {
            type: "oauth2",
            description: "Sign in with username and password (client_id content-partner-api)",
            flows: { password: { tokenUrl: options.identityPaths.token, scopes: {} } },
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, {
    routePrefix: CONSOLE_PREFIX,
    uiConfig: { persistAuthorization: true, displayRequestDuration: true },
    initOAuth: { clientId: "content-partner-api", usePkceWithAuthorizationCodeGrant: false },
  });
}

/** Every REST route, behind the bearer-token check; answers in the one REST error body. */
export async function restCompatPlugin(
  app: FastifyInstance,
  options: { graph: EdgeGraph; verifier: TokenVerifier; linkContext: (requestId: string) => Promise<EdgeContext> },
) {
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config?.public) return;
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new RestError(401, "UNAUTHENTICATED", "A bearer access token is required (Authorization: Bearer <token>)");
    try {
      const caller = await options.verifier.verify(token);
      request.edgeContext = {
        caller,
        token,
        requestId: String(request.id),
        acceptLanguage: request.headers["accept-language"],
      };
    } catch (error) {
      if (error instanceof InvalidTokenError) throw new RestError(401, "UNAUTHENTICATED", `Invalid access token: ${error.message}`);
      throw error;
    }
  });
  for (const route of restRoutes) registerRestRoute(app, options.graph, route);
  registerVoucherRoute(app, options.graph, options.linkContext);
}
