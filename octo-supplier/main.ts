import { randomBytes } from "node:crypto";
import { createOctoSupplier } from "./octo-supplier.js";

/**
 * `npm run octo-supplier`: the local OCTO supplier on its own port, for trying the OCTO engine by
 * hand. OCTO_SUPPLIER_PORT (default 4010), OCTO_SUPPLIER_HOST (127.0.0.1) and
 * OCTO_SUPPLIER_API_KEY (a random key, printed, when unset).
 */
const apiKey = process.env.OCTO_SUPPLIER_API_KEY || randomBytes(18).toString("base64url");
const port = Number(process.env.OCTO_SUPPLIER_PORT ?? 4010);
const host = process.env.OCTO_SUPPLIER_HOST ?? "127.0.0.1";

const supplier = await createOctoSupplier({ apiKey });
const url = await supplier.listen(port, host);
process.stdout.write(
  [
    `Local OCTO supplier at ${url}`,
    process.env.OCTO_SUPPLIER_API_KEY ? "API key: from OCTO_SUPPLIER_API_KEY" : `API key: ${apiKey}`,
    `Try: curl -H "Authorization: Bearer <key>" -H "Octo-Capabilities: octo/content, octo/pricing" ${url}/products`,
    "",
  ].join("\n"),
);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    supplier.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
