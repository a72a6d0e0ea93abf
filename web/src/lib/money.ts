const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money is integer pence everywhere; this is the one place it becomes "£12.34". */
export function formatPence(pence: number): string {
  return gbp.format(pence / 100);
}
