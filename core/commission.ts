/**
 * The commission as a ratio of the retail price: estCommFrpricePerc, else estCommNet over
 * minPrice; null when the product states neither. The catalogue shows it, bookings keep it.
 */
export function commissionRate(product: { estCommFrpricePerc: number | null; estCommNet: number | null; minPrice: number | null }): number | null {
  if (product.estCommFrpricePerc !== null) return product.estCommFrpricePerc;
  if (product.estCommNet !== null && product.minPrice) return Math.round((product.estCommNet / product.minPrice) * 10_000) / 10_000;
  return null;
}

/** What a reseller is estimated to pay: the retail price less the commission, to the cent. */
export function estimatedNetPrice(product: { estCommFrpricePerc: number | null; estCommNet: number | null; minPrice: number | null }): number | null {
  const rate = commissionRate(product);
  return product.minPrice === null || rate === null ? null : Math.round(product.minPrice * (1 - rate) * 100) / 100;
}
