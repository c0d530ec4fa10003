/**
 * Runs `command` with the process's arguments when `moduleUrl` is the script node was started
 * with (`npm run operator`, `npm run migrate`), and exits with its code; a module imported by
 * another (the tests) runs nothing. A failure it did not expect exits 1 with its stack.
 */
export function runWhenStarted(moduleUrl: string, command: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== new URL(`file://${process.argv[1]}`).href) return;
  command(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    },
  );
}
