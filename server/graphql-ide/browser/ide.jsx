// The GraphQL IDE's page: sign in (or paste a token), then GraphiQL on /graphql, with
// subscriptions over graphql-ws on the same path. Bundled by server/graphql-ide/bundle.ts.
import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { GraphiQL } from "graphiql";
import { StrictMode, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import "graphiql/style.css";
import "./ide.css";

const root = document.getElementById("ide");
// Relative to the page, so the IDE works behind a proxy that serves the API under a prefix.
const graphqlUrl = new URL("graphql", document.baseURI).href;
const subscriptionUrl = graphqlUrl.replace(/^http/, "ws");
const tokenUrl = new URL(root.dataset.tokenPath.replace(/^\//, ""), document.baseURI).href;

const defaultQuery = `# Signed in: run this query, then try a mutation or, with a booking's id
# (createBooking answers it), subscription { bookingStatusChanged(bookingId: "...") { status } }
query Me {
  me {
    username
    roles
    organisation { name }
  }
}
`;

function App() {
  // Kept in memory only: a reload signs out, and no other page of this origin can read it.
  const [session, setSession] = useState(null);
  return session ? <Ide session={session} onSignOut={() => setSession(null)} /> : <SignIn onSession={setSession} />;
}

function SignIn({ onSession }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function signIn(event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError("");
    try {
      const response = await fetch(tokenUrl, {
        method: "POST",
        body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: form.get("username"), password: form.get("password") }),
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok || !body.access_token) throw new Error(body.error_description ?? body.error ?? `sign-in failed (${response.status})`);
      onSession({ token: body.access_token, who: form.get("username") });
    } catch (failure) {
      setError(failure.message);
    } finally {
      setBusy(false);
    }
  }

  function pasteToken(event) {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget).get("token")).trim().replace(/^Bearer\s+/i, "");
    if (token) onSession({ token, who: "pasted token" });
  }

  return (
    <main className="ide-sign-in">
      <h1>Activities GraphQL IDE</h1>
      <form onSubmit={signIn} aria-label="Sign in">
        <label>
          Username <input name="username" autoComplete="username" required />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <form onSubmit={pasteToken} aria-label="Use a token">
        <label>
          Or paste an access token <textarea name="token" rows={3} />
        </label>
        <button type="submit">Use token</button>
      </form>
      {error && (
        <p role="alert" className="ide-error">
          {error}
        </p>
      )}
    </main>
  );
}

function Ide({ session, onSignOut }) {
  const fetcher = useMemo(() => {
    const authorization = `Bearer ${session.token}`;
    const fetch = createGraphiQLFetcher({
      url: graphqlUrl,
      subscriptionUrl,
      headers: { Authorization: authorization },
      // The server reads the token from the connection_init payload.
      wsConnectionParams: { Authorization: authorization },
    });
    // The fetcher picks graphql-ws for a subscription only when the operation's name is given,
    // and GraphiQL leaves it out when the document holds one operation.
    return (params, options) => {
      const operations = options?.documentAST?.definitions.filter((d) => d.kind === "OperationDefinition") ?? [];
      const only = operations.length === 1 ? operations[0].name?.value : undefined;
      return fetch(params.operationName || !only ? params : { ...params, operationName: only }, options);
    };
  }, [session.token]);
  return (
    <div className="ide">
      <header className="ide-bar">
        <span>
          Signed in as <strong className="ide-who">{session.who}</strong>
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <GraphiQL fetcher={fetcher} defaultQuery={defaultQuery} isHeadersEditorEnabled shouldPersistHeaders={false} />
    </div>
  );
}

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
