import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { Config } from "../core/config.js";
import type { EdgeGraph } from "../gateway/gateway.js";
import type { IdentityPaths } from "../identity/identity.js";
import { textProblems } from "../core/input-text.js";
import { errorBodySchema, restRejected } from "./error-body.js";
import { registerRestRoute } from "./rest-route.js";
import { restRoutes } from "./routes/index.js";
import { bookingFlowSchemas } from "./routes/booking-flow/booking-body.js";
import { registerVoucherRoute } from "./routes/booking-flow/voucher.route.js";
import type { EdgeContext } from "../gateway/edge-context.js";

export const CONSOLE_PREFIX = "/api/content-partner/swagger-ui";

/**
 * The OpenAPI document (generated from the route schemas) and the interactive console. Registered
 * on the root instance before any route, so that every documented route is in the document.
 */
export async function registerOpenApi(app: FastifyInstance, options: { config: Config; identityPaths: IdentityPaths }) {
  app.addSchema(errorBodySchema);
  for (const schema of bookingFlowSchemas) app.addSchema(schema);
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
    // The console's own policy; without upgrade-insecure-requests, which breaks it on plain-HTTP sandboxes.
    staticCSP: true,
    transformStaticCSP: (header: string) => header.replace(/\s*upgrade-insecure-requests;?/, ""),
    initOAuth: { clientId: "content-partner-api", usePkceWithAuthorizationCodeGrant: false },
  });
  // The contract's address (spec 1, Authentication item 9) sends the browser to the console's
  // folder: Swagger UI finds its document and OAuth redirect page relative to the page's own
  // address, so a page answered at index.html asked for index.html/json and failed to load. The
  // relative location keeps a path prefix a proxy in front of the service strips.
  app.get(`${CONSOLE_PREFIX}/index.html`, { config: { public: true }, schema: { hide: true } }, (_request, reply) => reply.redirect("./"));
}

/** Every REST route, behind the API's access hook (bearer token, rate); answers in the one REST error body. */
export async function restCompatPlugin(
  app: FastifyInstance,
  options: { graph: EdgeGraph; access: onRequestAsyncHookHandler; linkContext: (requestId: string) => Promise<EdgeContext>; publicUrl: () => string },
) {
  app.addHook("onRequest", options.access);
  // Text no database can store is refused here, by the name the caller sent, before any of it
  // becomes a variable of an operation (whose names are the layer's own).
  app.addHook("preValidation", async (request) => {
    const problems = [...textProblems(request.params, ""), ...textProblems(request.query, ""), ...textProblems(request.body, "")];
    if (problems.length) throw restRejected("VALIDATION_FAILED", problems.length === 1 ? problems[0].message : "The request is not valid", problems);
  });
  // Links in answers (paging) are built from the configured public address, never from a
  // caller's Host or X-Forwarded-Host.
  app.decorateRequest("publicUrl", { getter: options.publicUrl });
  for (const route of restRoutes) registerRestRoute(app, options.graph, route);
  registerVoucherRoute(app, options.graph, options.linkContext);
}
