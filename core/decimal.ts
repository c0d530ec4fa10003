/** A number as the graph's Decimal scalar writes it: plain digits, never an exponent ("0.0000001", not "1e-7"). */
export function decimalOf(amount: number): string {
  const written = String(amount);
  return /e/i.test(written) ? amount.toFixed(10).replace(/\.?0+$/, "") : written;
}
