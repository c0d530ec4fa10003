import { pathToFileURL } from "node:url";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./api.js";

/**
 * A typed REST client in a few lines: openapi-fetch over the types `npm run codegen:rest` generates
 * from the service's OpenAPI document. Paths, parameters and bodies are checked by the compiler.
 *
 *   npx tsx examples/rest-client/search-and-report.ts [base URL] [username] [password] [search]
 *
 * against `npm start` (defaults: http://localhost:4000, demo-consumer, its sandbox password, and
 * a search for museums) prints what it found as JSON.
 */

export interface Credentials {
  username: string;
  password: string;
}

type ErrorBody = components["schemas"]["ErrorBody"];
/** JSON only: the reporting path also answers text/csv, which this client does not ask for. */
type Api = Client<paths, "application/json">;

const TOKEN_PATH = "/auth/realms/activities/protocol/openid-connect/token";

/** Signs in, searches the catalogue, reads the first product found and the first page of the caller's booking report. */
export async function searchAndReport(baseUrl: string, credentials: Credentials, search: string) {
  const api: Api = createClient<paths, "application/json">({ baseUrl });
  const token = await signIn(api, credentials);
  api.use({
    onRequest: ({ request }) => {
      request.headers.set("authorization", `Bearer ${token.access_token}`);
      return request;
    },
  });

  const found = succeeded(await api.GET("/api/consumer/products", { params: { query: { Search: search, resultsPerPage: 10 } } }));
  const first = found.items?.[0];
  const product = first?.id === undefined ? undefined : succeeded(await api.GET("/api/consumer/product/{productId}", { params: { path: { productId: first.id } } }));
  const report = succeeded(await api.GET("/reporting/v1/bookings", { params: { query: { "page[limit]": 20 } } }));

  return { totalFound: found.totalResults ?? 0, product, bookings: report.data ?? [], bookingCount: report.meta?.count ?? 0 };
}

/** The password grant: a form body, as OAuth 2.0 wants, and the token answer. */
async function signIn(api: Api, { username, password }: Credentials) {
  const { data, error, response } = await api.POST(TOKEN_PATH, {
    body: { client_id: "content-partner-api", grant_type: "password", username, password },
    bodySerializer: (form) => new URLSearchParams(form as Record<string, string>),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  if (error) throw new Error(`sign-in refused (${response.status}): ${error.error} ${error.error_description}`);
  return data;
}

/** The answer's body, or an Error carrying the service's error code and message. */
function succeeded<T>(result: { data?: T; error?: ErrorBody; response: Response }): T {
  if (result.error) throw new Error(`${result.response.status} ${result.error.code}: ${result.error.message} (request ${result.error.requestId})`);
  return result.data as T;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [baseUrl = "http://localhost:4000", username = "demo-consumer", password = "sandbox-booking-2026", search = "text:museum"] = process.argv.slice(2);
  const { totalFound, product, bookingCount } = await searchAndReport(baseUrl, { username, password }, search);
  console.log(JSON.stringify({ totalFound, product: product && { id: product.id, title: product.title, cityName: product.cityName }, bookingCount }, null, 2));
}
