import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { getJson, useStack } from "../support/stack.js";

/** A real OpenID client library, configured only from the discovery document, talks to the issuer. */
describe("standard OpenID client against the running service", () => {
  const t = useStack();

  it("discovers the issuer, signs in with the password grant and refreshes", async () => {
    const { username, password } = await t.stack.createAccount("CONTENT_PARTNER");
    const config = await oidc.discovery(new URL(`${t.stack.url}/auth/realms/activities`), "content-partner-api", undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().token_endpoint).toBe(t.stack.tokenUrl);

    const tokens = await oidc.genericGrantRequest(config, "password", { username, password });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(300);
    const me = await getJson(`${t.stack.url}/api/me`, tokens.access_token);
    expect(me.status).toBe(200);
    expect(me.body.roles).toEqual(["CONTENT_PARTNER"]);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await getJson(`${t.stack.url}/api/me`, refreshed.access_token)).status).toBe(200);

    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("reports a wrong password as the standard OAuth error", async () => {
    const { username } = await t.stack.createAccount("CONSUMER");
    const config = await oidc.discovery(new URL(`${t.stack.url}/auth/realms/activities`), "content-partner-api", undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    await expect(oidc.genericGrantRequest(config, "password", { username, password: "not-the-password" })).rejects.toMatchObject({
      error: "invalid_grant",
      error_description: "Invalid user credentials",
    });
  });
});
