import type { FastifyInstance, FastifyReply } from "fastify";
import { ideAssets, type IdeAssets } from "./bundle.js";

/** Where the IDE's scripts and styles are served, next to the API they talk to. */
export const IDE_ASSETS_PATH = "/graphql/ide";

/**
 * Everything the page loads comes from this origin: scripts, styles and connections (HTTP and
 * graphql-ws to /graphql, the token endpoint). GraphiQL's stylesheet carries its fonts and icons
 * as data: URLs, the one exception. No inline script or style, no frames, no form posts.
 */
export const IDE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

export interface GraphqlIde {
  /** Registers the asset routes (public: the bundle is the same for everyone and carries no data). */
  register(app: FastifyInstance): Promise<void>;
  /** Answers a browser's GET /graphql with the IDE's page. */
  page(reply: FastifyReply): FastifyReply;
}

export function graphqlIde(options: { tokenPath: string }): GraphqlIde {
  let assets: Promise<IdeAssets> | undefined;
  // Read (a build's) or bundled (the sources') once per process; a failure is tried again on the next request.
  const load = () =>
    (assets ??= ideAssets().catch((error) => {
      assets = undefined;
      throw error;
    }));
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Activities GraphQL IDE</title>
<link rel="stylesheet" href="graphql/ide/ide.css">
<script type="module" src="graphql/ide/ide.js"></script>
</head>
<body><div id="ide" data-token-path="${escapeAttribute(options.tokenPath)}"></div></body>
</html>
`;

  return {
    async register(app) {
      app.get<{ Params: { file: string } }>(`${IDE_ASSETS_PATH}/:file`, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
        const file = (await load()).files.get(request.params.file);
        if (!file) return reply.callNotFound();
        // Fixed names, rebuilt by each process: browsers revalidate rather than keep a stale bundle.
        return reply.header("cache-control", "no-cache").type(file.contentType).send(Buffer.from(file.body));
      });
    },
    page(reply) {
      return reply
        .code(200)
        .header("content-security-policy", IDE_CONTENT_SECURITY_POLICY)
        .header("cache-control", "no-cache")
        .type("text/html; charset=utf-8")
        .send(html);
    },
  };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
