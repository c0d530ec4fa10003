/** Orders rows fetched in one batch to match the keys DataLoader asked for; missing keys give undefined. */
export function byKey<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): (R | undefined)[] {
  const index = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => index.get(key));
}
