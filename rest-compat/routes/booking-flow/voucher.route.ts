import { toGlobalId } from "../../../core/global-id.js";
import { isUuid } from "../../../core/uuid.js";
import type { FastifyInstance } from "fastify";
import type { EdgeContext } from "../../../gateway/edge-context.js";
import type { EdgeGraph } from "../../../gateway/gateway.js";
import { errorResponse, restRejected } from "../../error-body.js";
import { restErrorFrom } from "../../graphql-errors.js";
import { obj, str } from "../../json-schema.js";

const OPERATION = /* GraphQL */ `
  query RestVoucher($bookingId: ID!, $expires: String!, $signature: String!) {
    bookingVoucher(bookingId: $bookingId, expires: $expires, signature: $signature) { fileName pdfBase64 }
  }
`;

/**
 * GET /booking-flow/v1/vouchers/{bookingId}.pdf: the voucher behind a signed link. The link's
 * signature is its authorisation (no bearer token: it is opened by mail clients and browsers),
 * so the edge runs the query as the link-signature principal.
 */
export function registerVoucherRoute(app: FastifyInstance, graph: EdgeGraph, linkContext: (requestId: string) => Promise<EdgeContext>) {
  app.route({
    method: "GET",
    url: "/booking-flow/v1/vouchers/:file",
    config: { public: true },
    schema: {
      operationId: "getVoucher",
      summary: "Voucher PDF (signed link)",
      description: "The link comes from a confirmed booking's voucherUrl and works for 24 hours from that read. 403 VOUCHER_LINK_INVALID for a tampered link; 410 VOUCHER_LINK_EXPIRED after it lapses.",
      tags: ["Booking flow"],
      params: obj({ file: str("{bookingId}.pdf") }, { required: ["file"] }),
      querystring: obj({ expires: str("Unix seconds"), signature: str("HMAC of the link") }),
      response: {
        200: { description: "The voucher", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
        403: errorResponse("VOUCHER_LINK_INVALID: the link was altered"),
        404: errorResponse("No voucher by that name"),
        410: errorResponse("VOUCHER_LINK_EXPIRED: the link has lapsed; read the booking again for a fresh one"),
      },
    },
    handler: async (request, reply) => {
      const { file } = request.params as { file: string };
      const { expires, signature } = request.query as { expires?: string; signature?: string };
      const match = /^(.+)\.pdf$/.exec(file);
      if (!match || !isUuid(match[1])) throw restRejected("NOT_FOUND", "No such voucher");
      const result = await graph.execute<{ bookingVoucher: { fileName: string; pdfBase64: string } }>(
        { query: OPERATION, variables: { bookingId: toGlobalId("Booking", match[1].toLowerCase()), expires: expires ?? "", signature: signature ?? "" } },
        await linkContext(String(request.id)),
      );
      if (result.errors?.length) throw restErrorFrom(result.errors);
      const voucher = result.data!.bookingVoucher;
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `inline; filename="${voucher.fileName}"`)
        .header("cache-control", "private, no-store")
        .send(Buffer.from(voucher.pdfBase64, "base64"));
    },
  });
}
