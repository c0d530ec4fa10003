import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A certificate authority of the test's own, and server certificates it signs: PEM files in a folder of their own. */
export interface TestAuthority {
  /** The authority's certificate (what a client is given as `sslrootcert`). */
  caFile: string;
  /** A server's certificate and key, naming `names` (DNS:localhost, IP:127.0.0.1 …) as subject alternative names. */
  issue(name: string, names: string[]): { certFile: string; keyFile: string };
  remove(): void;
}

const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });

/** Made with the openssl command (Debian's, on every machine the suite runs on); P-256 keys, valid two days. */
export function makeTestAuthority(label = "test"): TestAuthority {
  const folder = mkdtempSync(path.join(tmpdir(), "tls-"));
  // A server started as another user (PgBouncer runs as postgres when the suite is root) reads its key here.
  chmodSync(folder, 0o755);
  const file = (name: string) => path.join(folder, name);
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(["req", "-x509", ...key, "-keyout", file("ca.key"), "-out", file("ca.pem"), "-days", "2", "-subj", `/CN=${label} authority`]);
  return {
    caFile: file("ca.pem"),
    issue(name, names) {
      writeFileSync(file(`${name}.ext`), `subjectAltName=${names.join(",")}\n`);
      openssl(["req", ...key, "-keyout", file(`${name}.key`), "-out", file(`${name}.csr`), "-subj", `/CN=${name}`]);
      openssl(["x509", "-req", "-in", file(`${name}.csr`), "-CA", file("ca.pem"), "-CAkey", file("ca.key"), "-CAcreateserial", "-out", file(`${name}.pem`), "-days", "2", "-extfile", file(`${name}.ext`)]);
      chmodSync(file(`${name}.key`), 0o644);
      return { certFile: file(`${name}.pem`), keyFile: file(`${name}.key`) };
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
