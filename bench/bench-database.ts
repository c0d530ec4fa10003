import postgres from "postgres";

/**
 * A fresh database `<prefix>_<timestamp>` on the admin URL's server, so that a benchmark never
 * reads or leaves data in another's; `close` drops it unless asked to keep it.
 */
export async function freshBenchDatabase(adminUrl: string, prefix: string) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const [{ version }] = await admin<{ version: string }[]>`select split_part(version(), ' on ', 1) as version`;
  return {
    admin,
    name,
    url: url.toString(),
    /** "PostgreSQL 15.x (…)", for the report's machine line. */
    version,
    async close(keep: boolean) {
      if (!keep) await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
