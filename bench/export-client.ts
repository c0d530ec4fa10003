import { runInChild, serveOneJob } from "./child-job.js";

/**
 * A bulk-import consumer in its own process, as an integrator copying the catalogue runs it: it
 * follows `meta.links.next` from the first page to the last. It asks for the next page as soon
 * as this one's link is known, before parsing this one's records, so the service is never idle
 * while the consumer reads; the rate it measures is the endpoint's, not the consumer's parser's.
 */
export interface ExportJob {
  /** The first page's absolute URL. */
  url: string;
  token: string;
}

export interface ExportResult {
  records: number;
  pages: number;
  seconds: number;
}

/** The link to the next page: meta is the body's last member, so it is found without parsing the records. */
function nextLinkOf(text: string): string {
  const meta = text.lastIndexOf('"meta":');
  if (meta < 0 || !text.endsWith("}")) throw new Error(`not an import page: ${text.slice(0, 200)}`);
  return (JSON.parse(text.slice(meta + '"meta":'.length, -1)) as { links: { next: string } }).links.next;
}

export async function runExport(job: ExportJob): Promise<ExportResult> {
  const headers = { authorization: `Bearer ${job.token}` };
  const page = async (url: string) => {
    const response = await fetch(url, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`import ${response.status} ${text.slice(0, 500)}`);
    return text;
  };
  const started = performance.now();
  let records = 0;
  let pages = 0;
  let pending: Promise<string> | null = page(job.url);
  while (pending) {
    const text: string = await pending;
    const next = nextLinkOf(text);
    pending = next ? page(next) : null;
    // A rejected request is awaited at the loop's next turn; until then it must not count as unhandled.
    pending?.catch(() => {});
    const body = JSON.parse(text) as { data: unknown[]; meta: { links: { next: string } } };
    if (body.meta.links.next !== next) throw new Error(`the next link read ahead (${next}) is not the page's (${body.meta.links.next})`);
    records += body.data.length;
    pages++;
  }
  return { records, pages, seconds: (performance.now() - started) / 1000 };
}

/** Runs one export in a child process, so that the consumer's work never shares the service's event loop. */
export const exportInOwnProcess = (job: ExportJob) => runInChild<ExportJob, ExportResult>(import.meta.url, job);

serveOneJob(import.meta.url, runExport);
